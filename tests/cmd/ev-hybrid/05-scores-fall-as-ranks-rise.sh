# Every stage's hits, as --keep leaves them (the feedback lane's too), rank
# 1, 2, 3 ... per query with scores that never rise (judges such as
# trec_eval order a run by score, and must see the ranking the ranks say),
# ties included: the samples hold
# chunks that tie in both lanes (a repeated paragraph, an empty-ish title).
. "$CASEDIR/store.inc"
printf '%s\n' '{"id":"d6","text":"Flutter speed falls with sweep."}' \
	'{"id":"d7","text":"Flutter speed falls with sweep."}' >more.jsonl
ev-ingest --db db more.jsonl | ev-embed --db db | ev-embed-load --db db --index idx 2>/dev/null
sh "$hybrid" --db db --index idx --plan "$top/samples/plan.yaml" --keep run \
	"flutter speed" "boundary layer heat" "wing" >/dev/null
for lane in text vector vector_feedback fused; do
	jq -r '[.query_id, .rank, .score, .id] | @tsv' "run/$lane.jsonl" | awk -F'\t' -v lane=$lane '
		$1 != q { q = $1; r = 0; s = "" }
		{ if ($2 != r + 1 || (s != "" && $3 > s + 0)) { print lane ": query " $1 " rank " $2 " out of order"; bad = 1 }
		  if (s != "" && $3 == s + 0) ties++
		  r = $2; s = $3; n++ }
		END { printf "%s: %d hits in order%s\n", lane, n, bad ? " NOT" : ""; if (lane == "text") print "text: ties in score: " (ties > 0 ? "some" : "none") }'
done
