# The manual's first example, as it stands: the samples tuned on
# pseudo-queries, the plan written to tuned.yaml and taken by ev-fuse.
top=$(cd "$SAMPLES/.." && pwd)
work=$(pwd)
cd "$top" || exit 1
ev-ingest --db "$work/kb.db" samples/ >"$work/chunks.jsonl" 2>/dev/null
ev-embed --db "$work/kb.db" --train >/dev/null 2>&1
ev-embed --db "$work/kb.db" <"$work/chunks.jsonl" 2>/dev/null |
	ev-embed-load --db "$work/kb.db" --index "$work/kb.faiss" 2>/dev/null
cd "$work" || exit 1
ev-tune --db kb.db --index kb.faiss --plan "$top/samples/plan.yaml" -o tuned.yaml 2>err
echo "status $?"
sed -n 's/^ev-tune: \(no judgements given\): calibrated on [0-9]* \(pseudo-queries\).*/\1: \2/p' err
printf '"rotate a leaked client secret"\n' | ev-search-text --db kb.db >text.jsonl
ev-fuse --config tuned.yaml text.jsonl | ev-pack --plan tuned.yaml | jq -r '.evidences[0].document_id'
