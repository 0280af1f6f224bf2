# A factory with a refine stage (IVF1,Flat,RFlat, IVF2,Flat,Refine(Flat),
# Flat,RFlat, HNSW4,Refine(SQ8)) is a legitimate index: its first stage finds
# candidates, the refine stage scores them exactly.  Faiss parses the refine
# stage first, so that the IDMap giving the vectors their chunk rowids landed
# inside it (or, with IVF, there was none), and the load failed at its
# commit, exit 1: "add_with_ids not implemented".  The IDMap now wraps the
# refine stage: the load works, and search finds the chunks a Flat index
# finds, after a later load that replaces a vector too.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
printf '%s\n' '{"query_id":"q1","vector":[3,1,0,0],"model":"m1"}' \
  '{"query_id":"q2","vector":[0,0,1,2],"model":"m1"}' >q.jsonl
search() { ev-search-vec --db kb.db --index kb.faiss -k 3 q.jsonl | jq -r '[.query_id, .rank, .id] | @tsv' | tr '\t' ' ' | paste -sd ' ' | sed 's/ q/, q/g'; }
ev-embed-load --db kb.db --index kb.faiss --factory Flat "$CASEDIR/vectors.jsonl"
echo "Flat: $(search)"
for f in 'IVF1,Flat,RFlat' 'IVF2,Flat,Refine(Flat)' 'Flat,RFlat' 'HNSW4,Refine(SQ8)' 'IDMap,Flat,RFlat'; do
	ev-embed-load --db kb.db --index kb.faiss --factory "$f" "$CASEDIR/vectors.jsonl" 2>err.txt
	echo "exit $?"
	grep -v '^WARNING' err.txt
	echo "$f: $(search)"
done
ev-embed-load --db kb.db --index kb.faiss --factory 'IVF1,Flat,RFlat' "$CASEDIR/vectors.jsonl" 2>/dev/null
echo '{"id":"d2:s1:1","vector":[1,0,0,0],"model":"m1"}' | ev-embed-load --db kb.db --index kb.faiss 2>err.txt
echo "exit $?"
grep -v '^WARNING' err.txt
echo "replaced: $(search)"
ev-embed-load --db kb.db --index kb.faiss --factory Flat </dev/null 2>/dev/null
echo "Flat again: $(search)"
