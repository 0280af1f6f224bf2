# --lane may not take the name of a lane another evkit command writes hits
# of: a multi-vector lane named "text" had its hits fused by ev-fuse as the
# text lane's (its scores as fts_score and fts_rank, ranked with
# ev-search-text's), and one named "fused" had its hits refused by ev-fuse
# ("cannot be fused again").  Exit 2, no index written.
exec 2>&1
for lane in text vector vector_feedback fused structured; do
	ev-mv-load --index pages.mvi --lane $lane "$CASEDIR/records.jsonl"; echo "exit $?"
done
ls
ev-mv-load --index pages.mvi --lane colpali "$CASEDIR/records.jsonl" > /dev/null 2>&1; echo "exit $?"
