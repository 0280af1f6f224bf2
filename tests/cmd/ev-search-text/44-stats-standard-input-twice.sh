# Standard input given to --stats ('-') when it is the same file as a named
# --stats file was read twice and its counts summed: ev_file_key() skips '-'.
# It is refused as two names of one file are, exit 2; and '-' named twice
# (which read an empty second input: "-: empty: not a statistics file") is
# refused as standard input named twice, naming --stats.  Another file on
# standard input is summed.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"plate"' > q.jsonl
ev-search-text --db kb.db --stats-out kb.stats q.jsonl || exit 1
cp kb.stats copy.stats
ev-search-text --stats - --stats kb.stats --stats-out sum.stats < kb.stats; echo "exit $?"
ev-search-text --stats kb.stats --stats - --stats-out sum.stats < kb.stats; echo "exit $?"
ls sum.stats 2>/dev/null || echo "no sum.stats written"
ev-search-text --stats - --stats - --stats-out sum.stats < kb.stats; echo "exit $?"
ev-search-text --stats - --stats kb.stats --stats-out - < copy.stats | grep -E '^(rows|term	plate)	'
