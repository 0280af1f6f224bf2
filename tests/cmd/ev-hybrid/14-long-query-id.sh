# A query_id of 300 bytes runs the whole pipeline as a short one does: the
# feedback lane (samples/plan.yaml) read the text lane's hits with a 256-byte
# limit and failed ("must be a string or an integer"), which ev-hybrid took
# for the vector lane failing; a routed plan's ev-route --hits refused them,
# and its gate looked up the confidence of a truncated id.  The same query
# under a short id answers alike.
. "$CASEDIR/store.inc"
long=$(printf 'q%.0s' $(seq 300))
printf '{"query_id":"%s","query":"flutter of swept wings"}\n{"query_id":"s","query":"flutter of swept wings"}\n' \
	"$long" >q.jsonl
cat >routed.yaml <<'END'
routing:
  default: [text, vector]
  gate: {lane: vector, on: text, below: 0.5, mode: run}
fusion: {method: rrf}
END
for plan in "$SAMPLES/plan.yaml" routed.yaml; do
	"$hybrid" --db db --index idx --plan "$plan" --keep "keep-${plan##*/}" -k 3 -f q.jsonl \
		>packs.jsonl 2>err.txt
	echo "status $?"
	sed "s/$long/LONG/g" err.txt
	ls "keep-${plan##*/}" | tr '\n' ' '; echo
	jq -c '[(.query_id | length), (.explain.routing.gate | [.hits, .confidence, .decision]), [.evidences[].id], .warnings]' packs.jsonl
done
