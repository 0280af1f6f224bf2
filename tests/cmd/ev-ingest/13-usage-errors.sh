# Absurd options are refused with exit 2 before anything is read or written.
for args in "" "--db kb.db --size 0" "--db kb.db --size 12x" "--db kb.db --overlap 700" \
    "--db kb.db --size 100 --overlap 51" "--db kb.db --all --quiet" "--db kb.db --format html" \
    "--db kb.db --batch 0" "--db kb.db --source=" "--db kb.db --bogus"; do
	ev-ingest $args < /dev/null 2>&1
	echo "status $?"
done
ls
