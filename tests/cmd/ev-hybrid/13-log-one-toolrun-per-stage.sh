# --log DIR: each stage of the request appends its ToolRun line to one file
# of DIR: its retrieval frames (the query, its filters, the lanes read) and
# what it returned (ids, ranks, scores), ev-embed's vectors and model,
# ev-rerank's model, configuration and top-k; the lines are valid ToolRun
# records (schema/).  A DIR that is missing or not a directory is refused
# before anything runs (no --keep directory made, no pack written), exit 2.
. "$CASEDIR/store.inc"
cat >plan.yaml <<'END'
fusion:
  method: rrf
rerank:
  top_n: 2
k: 2
END
cat >q.jsonl <<'END'
{"query_id":"q1","query":"swept wing flutter","filters":{"doc_id":["d1","d5"]}}
END
mkdir logs
"$hybrid" --db db --index idx --plan plan.yaml --lane-k 3 --log logs -f q.jsonl >packs.jsonl
echo "status $? files $(ls logs | wc -l) $(ls logs | grep -c '^ev-hybrid-[0-9TZ]*-[0-9]*\.jsonl$')"
log=$(ls logs/*)
jq -c '[.tool, .exit, .config == "plan.yaml" or .config == null]' "$log" | sort
echo "-- the text lane"
jq -c 'select(.tool == "ev-search-text") | .inputs_logged, .outputs' "$log"
echo "-- the embedder: the query's vector and the model"
jq -c 'select(.tool == "ev-embed") | [.embedder.method, .embedder.dim, (.outputs[] | [.query_id, .vector, .model == $m])]' --arg m "$(jq -r 'select(.tool == "ev-embed") | .embedder.model' "$log")" "$log"
echo "-- fusion, rerank, pack"
jq -c 'select(.tool == "ev-fuse") | [.inputs_logged.queries[].lanes, [.outputs[].hits[] | [.id, .rank]]]' "$log"
jq -c 'select(.tool == "ev-rerank") | .rerank, [.outputs[].hits[] | [.id, .rank]]' "$log"
jq -c 'select(.tool == "ev-pack") | [.outputs[].evidences[] | [.id, .rank, (.signals | has("rerank_score"))]]' "$log"
jq -c '[.evidences[].id]' packs.jsonl
/usr/bin/python3 "$top/scripts/validate-evidencepack.py" --toolrun <"$log"
echo "-- refused"
"$hybrid" --db db --log nolog --keep kept "wing"; echo "status $?"
: >afile
"$hybrid" --db db --log afile --keep kept "wing"; echo "status $?"
[ -e kept ] && echo "kept was made" || echo "nothing made"
