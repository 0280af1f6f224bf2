# The store's calibration of the fusion (made by ev-embed-load --calibrate) is what
# ev-hybrid fuses with when the plan does not set the weights (the sample
# plan does not), a plan's own weights win, and a store without a
# calibration gets the pipeline's defaults; each pack's explain.fusion says
# which.  ev-fuse --db uses the store's row: changed by hand, the fused
# ranking is the one those weights give.
top=$CASEDIR/../../..
hybrid=$top/scripts/ev-hybrid
(cd "$SAMPLES/.." && ev-ingest --db "$OLDPWD/kb.db" samples) >chunks.jsonl 2>/dev/null
ev-embed --db kb.db --train >/dev/null 2>&1
ev-embed --db kb.db <chunks.jsonl 2>/dev/null |
	ev-embed-load --db kb.db --index kb.faiss --calibrate 200 2>/dev/null
row() { sqlite3 kb.db "SELECT value FROM meta WHERE key = 'fusion.calibration'"; }
fusion() {	# the first pack's explain.fusion: where its weights came from, and them
	sh "$hybrid" --db kb.db --index kb.faiss --plan "$1" --keep run "how do I rotate credentials" |
		jq -c '.explain.fusion | {weights_from, weights}' | head -1
}
echo "calibrated: $(row | jq -c '{weights, adapt}')"
echo "sample plan: $(fusion "$top/samples/plan.yaml")"
sed 's/^  method: weighted$/  method: weighted\n  weights: {text: 1, vector_feedback: 0.5, vector: 0}/' \
	"$top/samples/plan.yaml" >own.yaml
echo "plan's weights: $(fusion own.yaml)"
sqlite3 kb.db "DELETE FROM meta WHERE key = 'fusion.calibration'"
echo "no calibration: $(fusion "$top/samples/plan.yaml")"
# the row, set by hand, is the fusion ev-fuse --db does
sqlite3 kb.db "INSERT INTO meta VALUES ('fusion.calibration',
	'{\"version\":1,\"weights\":{\"text\":1,\"vector\":0,\"vector_feedback\":3},\"adapt\":\"none\"}')"
ev-fuse --config "$top/samples/plan.yaml" --db kb.db run/text.jsonl run/vector.jsonl \
	run/vector_feedback.jsonl | jq -c '[.id, .score]' >by-store
ev-fuse --config "$top/samples/plan.yaml" --weight text=1 --weight vector=0 \
	--weight vector_feedback=3 --adapt none run/text.jsonl run/vector.jsonl \
	run/vector_feedback.jsonl | jq -c '[.id, .score]' >by-flags
cmp -s by-store by-flags && echo "ev-fuse --db: the row's weights ($(wc -l <by-store) hits)" ||
	echo "ev-fuse --db: NOT the row's weights"
ev-fuse --config "$top/samples/plan.yaml" run/text.jsonl run/vector.jsonl \
	run/vector_feedback.jsonl | jq -c '[.id, .score]' | cmp -s - by-store &&
	echo "without --db: the same" || echo "without --db: another ranking"
# a row of a later version is not used: the defaults are
sqlite3 kb.db "UPDATE meta SET value = '{\"version\":2,\"weights\":{\"text\":1}}' WHERE key = 'fusion.calibration'"
ev-fuse --config "$top/samples/plan.yaml" --db kb.db run/text.jsonl | jq -r '.explain.weights_from' | sort -u
ev-fuse --db missing.db run/text.jsonl 2>&1; echo "missing store: exit $?"
