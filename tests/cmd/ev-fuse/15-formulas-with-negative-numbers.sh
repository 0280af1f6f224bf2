# A formula subtracts or multiplies by a number that may be negative (cosines
# below 0, a z-score floor): such a number is written in parentheses,
# "(0.1371-(-0.001709))", never "0.1371--0.001709".  Vector scores 0.1371,
# 0.05 and -0.001709; text scores 4 and 2.  Query r: only negative cosines
# (min, max and mean below 0).
cat >v.jsonl <<'HITS'
{"query_id":"q","id":"a","doc_id":"a","rank":1,"score":0.1371,"lane":"vector"}
{"query_id":"q","id":"b","doc_id":"b","rank":2,"score":0.05,"lane":"vector"}
{"query_id":"q","id":"c","doc_id":"c","rank":3,"score":-0.001709,"lane":"vector"}
{"query_id":"r","id":"e","doc_id":"e","rank":1,"score":-0.2,"lane":"vector"}
{"query_id":"r","id":"f","doc_id":"f","rank":2,"score":-0.4,"lane":"vector"}
HITS
cat >t.jsonl <<'HITS'
{"query_id":"q","id":"a","doc_id":"a","rank":1,"score":4,"lane":"text"}
{"query_id":"q","id":"d","doc_id":"d","rank":2,"score":2,"lane":"text"}
HITS
for norm in minmax zscore max none; do
	echo "$norm:"
	ev-fuse --method weighted --norm "$norm" --weight vector=0.7 --weight text=0.3 v.jsonl t.jsonl |
		jq -r '.query_id + " " + .id + "  " + ([.explain.lanes[].formula] | join("  |  "))'
done
