# A statistics file with a line given twice (a total, a word) counted it
# twice, silently: a key on two lines of one file is refused, exit 2, naming
# both lines.  Two files are summed, as SHARDS says.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"plate"' > q.jsonl
ev-search-text --db kb.db --stats-out kb.stats q.jsonl || exit 1
{ cat kb.stats; grep '^term	plate	' kb.stats; } > twice.stats
ev-search-text --db kb.db --stats twice.stats q.jsonl; echo "exit $?"
{ head -n 2 kb.stats; tail -n +2 kb.stats; } > rows-twice.stats
ev-search-text --db kb.db --stats rows-twice.stats q.jsonl; echo "exit $?"
cp kb.stats copy.stats
ev-search-text --stats kb.stats --stats copy.stats --stats-out - | grep -E '^(rows|term	plate)	'
