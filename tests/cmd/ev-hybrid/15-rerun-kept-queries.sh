# The queries a --keep directory kept can be run again into the same
# directory (-f DIR/queries.jsonl --keep DIR): the copy of the file onto
# itself is not made (cp refused it, and ev-hybrid stopped with status 1
# and no pack), and the queries stay as they were.
. "$CASEDIR/store.inc"
"$hybrid" --db db --index idx --keep "kept dir" -k 1 flutter 'heat transfer' >first.jsonl
echo "status $?"
"$hybrid" --db db --index idx --keep "kept dir" -k 1 -f "kept dir/queries.jsonl" >again.jsonl
echo "status $?"
cat "kept dir/queries.jsonl"
jq -c '[.query_id, .query, [.evidences[].id]]' again.jsonl
