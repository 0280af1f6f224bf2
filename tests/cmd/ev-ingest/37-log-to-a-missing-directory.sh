# A --log FILE that cannot be written (its directory is missing) is bad
# usage, said before anything runs: exit 2, no result on standard output,
# no store made.  A log that can be written gets its ToolRun line.
printf '# A\n\nSome text.\n' >a.md
ev-ingest --db kb.db --log no/such/dir/run.log a.md
echo "ev-ingest: status $?"
[ -e kb.db ] || echo "no store made"
ev-ingest --db kb.db --quiet a.md
echo '"text"' | ev-search-text --db kb.db --log=no/such/dir/run.log
echo "ev-search-text: status $?"
echo '"text"' | ev-search-text --db kb.db --log run.log | jq -r .id
jq -r '[.tool, .exit] | @tsv' run.log
