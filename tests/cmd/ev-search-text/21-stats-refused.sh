# Statistics that cannot rank a query are refused, never half used: a pair of
# words they did not count, a file that is not statistics, one made by an
# earlier evkit (version 1, without the squares of the lengths; version 2,
# its query words' counts without their languages; version 3, without the
# titled chunks), a bad line (named FILE:LINE), a file that does not hold
# together (a total missing, a word or titled chunks in more rows than
# counted, squares of lengths too small for their sum), an FTS5 expression; --stats-out needs a store or files to sum.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"flat plate"' | ev-search-text --db kb.db --stats-out kb.stats || exit 1
echo '"boundary layer"' | ev-search-text --db kb.db --stats kb.stats; echo "exit $?"
echo '"plate"' | ev-search-text --db kb.db --stats kb.stats | jq -c '[.id, .rank]'
echo '{"id":"x"}' > bad.stats
echo '"plate"' | ev-search-text --db kb.db --stats bad.stats; echo "exit $?"
sed '1s/\t4$/\t1/; /^squares/d' kb.stats > old.stats
echo '"plate"' | ev-search-text --db kb.db --stats old.stats; echo "exit $?"
sed '1s/\t4$/\t2/; s/^\(phrase\t\)\[\*\] /\1/' kb.stats > v2.stats
echo '"plate"' | ev-search-text --db kb.db --stats v2.stats; echo "exit $?"
sed '1s/\t4$/\t3/; /^titled/d; /^sectioned/d' kb.stats > v3.stats
echo '"plate"' | ev-search-text --db kb.db --stats v3.stats; echo "exit $?"
{ head -3 kb.stats; printf 'term\tplate\n'; } > short.stats
echo '"plate"' | ev-search-text --db kb.db --stats short.stats; echo "exit $?"
{ head -3 kb.stats; printf 'term\tplate\t-4\n'; } > neg.stats
echo '"plate"' | ev-search-text --db kb.db --stats neg.stats; echo "exit $?"
{ head -1 kb.stats; printf 'rows\t9223372036854775807\ntokens\t0\nsquares\t0\ntitled\t0\nsectioned\t0\n'; } > big.stats
cp big.stats big2.stats
ev-search-text --stats big.stats --stats big2.stats --stats-out -; echo "exit $?"
echo '"plate"' | ev-search-text --db kb.db --stats missing.stats; echo "exit $?"
grep -v '^squares' kb.stats > nosq.stats
echo '"plate"' | ev-search-text --db kb.db --stats nosq.stats; echo "exit $?"
{ head -6 kb.stats; printf 'term\tplate\t999999\n'; } > many.stats
echo '"plate"' | ev-search-text --db kb.db --stats many.stats; echo "exit $?"
sed 's/^titled\t.*/titled\t999999/' kb.stats > titled.stats
echo '"plate"' | ev-search-text --db kb.db --stats titled.stats; echo "exit $?"
sed 's/^squares\t.*/squares\t1/' kb.stats > sq.stats
echo '"plate"' | ev-search-text --db kb.db --stats sq.stats; echo "exit $?"
echo '"plate"' | ev-search-text --db kb.db --raw-fts --stats kb.stats; echo "exit $?"
ev-search-text --stats-out x.stats; echo "exit $?"
ev-search-text --stats kb.stats --stats-out x.stats q.jsonl; echo "exit $?"
# no tokens under words that rows hold: every chunk's length would be 0 and
# every score 0 (it was searched so, exit 0, every hit scored 0)
sed 's/^tokens\t.*/tokens\t0/; s/^squares\t.*/squares\t0/' kb.stats > notokens.stats
echo '"plate"' | ev-search-text --db kb.db --stats notokens.stats; echo "exit $?"
