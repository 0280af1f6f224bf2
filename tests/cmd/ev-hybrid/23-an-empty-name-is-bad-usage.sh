# An option that names a file or a directory, given an empty value, left the
# option off without a word: --log '' logged nothing, --index '' ran the text
# lane alone, --plan '' packed by the defaults, and the run succeeded.  Each
# is bad usage now, named, before anything runs.
hybrid=$CASEDIR/../../../scripts/ev-hybrid
for a in "--db ''" "--index ''" "--plan ''" "--keep ''" "--log ''" "-f ''"; do
	eval "\"\$hybrid\" --db nowhere.db $a flutter" >out 2>&1
	echo "status $?: $(head -1 out)"
done
