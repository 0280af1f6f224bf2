# A query_id of any length is a query_id, as the lanes take it: the samples'
# twelve queries tuned with ids of 255, 256 and 300 bytes (padded with x in
# front, in queries and judgements alike) give the plan and the figures their
# short ids give, and so does ev-tune --rerank on their hits.  ev-tune wrote
# each id into 256 bytes: the queries whose id did not fit were left out as
# having no judgement; ev-tune --rerank refused a hit of such a query
# ("field 'query_id' must be a string or an integer").
. "$CASEDIR/mkstore"; mkstore
cp "$CASEDIR/samples.qrels" .
pad='def pad: (.[1:] | tonumber) as $n |
	(if $n <= 4 then 255 elif $n <= 8 then 256 else 300 end) as $len | ("x" * ($len - length)) + .;'
jq -c "$pad"' .query_id |= pad' "$SAMPLES/queries.jsonl" >long.jsonl
grep -v "^#" samples.qrels | jq -rR "$pad"' split(" ") | .[0] |= pad | join(" ")' >long.qrels
jq -r '.query_id | length' long.jsonl | sort -n | uniq -c
ev-tune --db kb.db --qrels samples.qrels --folds 3 "$SAMPLES/queries.jsonl" >short.yaml 2>short.err
ev-tune --db kb.db --qrels long.qrels --folds 3 long.jsonl >long.yaml 2>long.err
echo "exit $?"
sed 's/samples\.qrels/long.qrels/' short.yaml | diff - long.yaml && echo "the same plan"
grep -v 'searched for' short.err | sed 's/samples\.qrels/long.qrels/' >short.figures
grep -v 'searched for' long.err | diff short.figures - && echo "the same figures"
head -n 1 long.err
for ids in short long; do
	case $ids in short) q=$SAMPLES/queries.jsonl j=samples.qrels ;; *) q=long.jsonl j=long.qrels ;; esac
	ev-search-text --db kb.db -k 10 "$q" | ev-rerank --db kb.db >$ids.hits
	ev-tune --rerank --qrels $j --folds 2 $ids.hits >$ids.yaml 2>$ids.err
	echo "exit $?"
done
sed 's/samples\.qrels/long.qrels/' short.yaml | diff - long.yaml && echo "the same weights"
sed 's/samples\.qrels/long.qrels/' short.err | diff - long.err && echo "the same figures"
head -n 1 long.err
