# The figure ev-tune gives the defaults is the one the pipeline itself gets
# with them: ev-search-text, ev-embed | ev-search-vec, the feedback lane
# (ev-search-vec --feedback-hits on the text lane's hits), ev-fuse --config
# PLAN, judged by ev-eval (same metric, same judgements, four decimals).
# Then the tuned plan is taken by ev-fuse and ev-pack as it is.
. "$CASEDIR/mkstore"; mkstore
q=$SAMPLES/queries.jsonl
ev-tune --db kb.db --index kb.faiss --qrels "$CASEDIR/samples.qrels" --plan "$SAMPLES/plan.yaml" \
	--folds 4 "$q" -o tuned.yaml 2>err
echo "status $?"
tune=$(sed -n 's/.*against \([0-9.]*\) for the defaults.*/\1/p' err)
ev-search-text --db kb.db "$q" >text.jsonl
ev-embed --db kb.db --role query "$q" >qv.jsonl
ev-search-vec --db kb.db --index kb.faiss <qv.jsonl >vector.jsonl
ev-search-vec --config "$SAMPLES/plan.yaml" --db kb.db --index kb.faiss \
	--feedback-hits text.jsonl <qv.jsonl >feedback.jsonl
ev-fuse --config "$SAMPLES/plan.yaml" text.jsonl vector.jsonl feedback.jsonl >fused.jsonl
pipe=$(ev-eval --qrels "$CASEDIR/samples.qrels" fused.jsonl | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
[ -n "$tune" ] && [ "$tune" = "$pipe" ] && echo "the defaults' figure is the pipeline's" ||
	echo "ev-tune says '$tune' for the defaults, the pipeline gets '$pipe'"
ev-fuse --config tuned.yaml text.jsonl vector.jsonl feedback.jsonl |
	ev-pack --plan tuned.yaml >packs.jsonl
echo "status $? with the tuned plan, $(wc -l <packs.jsonl) packs"
grep -c '^#' tuned.yaml
# The folds whose choice is not the plan's say what they chose, fusion too.
grep '^# fold ' tuned.yaml
