# The same statistics file given twice to --stats (its name twice, or two
# names of it: ./NAME, a link) was read twice and its counts summed, as two
# stores' are, silently: every score moved.  It is refused, exit 2, naming the
# option and both names, before any query is read; two files are summed.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"plate"' > q.jsonl
ev-search-text --db kb.db --stats-out kb.stats q.jsonl || exit 1
ln kb.stats hard.stats
ln -s kb.stats soft.stats
cp kb.stats copy.stats
ev-search-text --db kb.db --stats kb.stats --stats kb.stats q.jsonl; echo "exit $?"
ev-search-text --db kb.db --stats kb.stats --stats ./kb.stats q.jsonl; echo "exit $?"
ev-search-text --stats hard.stats --stats soft.stats --stats-out sum.stats; echo "exit $?"
ls sum.stats 2>/dev/null || echo "no sum.stats written"
ev-search-text --stats kb.stats --stats copy.stats --stats-out - | grep -E '^(rows|term	plate)	'
