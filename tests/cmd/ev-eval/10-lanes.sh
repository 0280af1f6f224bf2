# Hits of several lanes are pooled (with a warning); --lane keeps one.  The
# vector hit puts d4 first for q1.
cp "$CASEDIR/small.jsonl" run
echo "{\"query_id\":\"q1\",\"doc_id\":\"d4\",\"rank\":1,\"score\":0.9,\"lane\":\"vector\"}" >>run
ev-eval --qrels "$CASEDIR/small.qrels" run 2>&1
ev-eval --qrels "$CASEDIR/small.qrels" --lane text run 2>&1
ev-eval --qrels "$CASEDIR/small.qrels" --lane vector run 2>&1
