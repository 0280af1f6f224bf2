# A factory with a refine stage (IVF1,Flat,RFlat, IVF1,Flat,Refine(Flat),
# Flat,RFlat) failed at the commit, exit 1 ("add_with_ids not implemented"):
# Faiss parses the refine stage first, so that the IDMap giving each vector
# its record landed inside it, or, with IVF, there was none.  The IDMap now
# wraps the refine stage: the load works, and search ranks the records as
# the default index does.
exec 2>&1
export EV_UUID_SEED=1
printf '%s\n' '{"query_id":"q1","vectors":[[1,0,0],[0,1,0]]}' '{"query_id":"q2","vectors":[[0,0,1]]}' >q.jsonl
search() { ev-search-mv --index pages.mvi -k 3 q.jsonl | jq -r '[.query_id, .rank, .id, .score] | @tsv' | tr '\t' ' ' | paste -sd ' ' | sed 's/ q/, q/g'; }
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl"
echo "default: $(search)"
for f in 'IVF1,Flat,RFlat' 'IVF1,Flat,Refine(Flat)' 'Flat,RFlat'; do
	rm -f pages.mvi*
	ev-mv-load --index pages.mvi --factory "$f" "$CASEDIR/records.jsonl" 2>err.txt
	echo "exit $?"
	grep -v '^WARNING' err.txt
	echo "$f: $(search)"
done
