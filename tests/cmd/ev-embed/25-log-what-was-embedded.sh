# --log records what ev-embed embedded, as the other stages record their
# outputs: each query's frame and its vector (dimension, norm) and model;
# each chunk by its id, the first 100 of a run, then how many more were left
# off; and the embedder it used or trained ("embedder": method, model, dim).
# Each line is a valid ToolRun.
V="/usr/bin/python3 $CASEDIR/../../../scripts/validate-evidencepack.py"
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 --log train.log >/dev/null
jq -c '[.embedder, .counts]' train.log
ev-embed --db kb.db --log queries.log "$CASEDIR/queries.jsonl" >/dev/null
jq -c '.embedder, .inputs_logged.queries[], .outputs[]' queries.log
ev-ingest --db kb.db --all "$CASEDIR/docs.jsonl" | ev-embed --db kb.db --log chunks.log >/dev/null
jq -c '.outputs[0], (.outputs | length), .outputs_left_off' chunks.log
echo "more than 100 chunks: the first 100 are logged"
for i in $(seq 1 105); do printf '{"id":"c%d","text":"heat and wings %d"}\n' $i $i; done |
    ev-embed --db kb.db --log many.log >/dev/null
jq -c '[(.outputs | length), .outputs[99].id, .outputs_left_off, .counts.records_out]' many.log
ev-embed --db kb.db --pending --log pending.log >/dev/null
jq -c '[.embedder, (.outputs | length)]' pending.log
$V --toolrun train.log queries.log chunks.log many.log pending.log
