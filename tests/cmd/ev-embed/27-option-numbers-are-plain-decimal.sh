# A number given to an option is plain decimal, as a config file writes one:
# a hexadecimal float (0x1p0, which is 1), white space around it (a tab) or
# a '.' in a whole number is bad usage with the parser's one message, before
# anything is opened.  (strtod and strtoll took '0x1p0' and '\t1'.)
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
for v in 0x1p0 0x1 "	1" "1 " -inf; do
	ev-embed --db kb.db --train --sigma-power "$v"; echo "exit $?"
done
ev-embed --db kb.db --train --dim "0x4"; echo "exit $?"
ev-embed --db kb.db --train --dim "4.0"; echo "exit $?"
ev-search-text --db kb.db -k "	5" < /dev/null; echo "exit $?"
ev-fuse --weight text=0x1p1 /dev/null; echo "exit $?"
ev-embed --db kb.db --train --sigma-power 1e-1 > /dev/null 2>&1; echo "exit $?"
