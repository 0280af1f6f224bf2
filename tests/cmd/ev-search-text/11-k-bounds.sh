# -k from 1 to 100000; anything else is a usage error (exit 2).
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"plate"' | ev-search-text --db kb.db -k 1 | wc -l
echo '"plate"' | ev-search-text --db kb.db -k 100000 | wc -l
for k in 0 -1 100001 abc 1.5 '' 99999999999999999999; do
	echo '"plate"' | ev-search-text --db kb.db -k "$k"
	echo "status $?"
done
