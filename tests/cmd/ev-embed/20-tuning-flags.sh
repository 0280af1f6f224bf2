# Every config key of the model's tuning has its flag: given with --train
# they are saved with the model; without --train they are refused, as --dim
# is; a bad value is refused as its config key is.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 3 --power-iters 5 --oversample 4 --seed 7 --sigma-power 1 \
	--query-tf raw --query-idf-power 0.5 --log-entropy | jq -c '{dim}'
sqlite3 kb.db "SELECT params FROM embed_model" |
	jq -c '{power_iters, oversample, seed, sigma_power, query_tf, query_idf_power, global_weight}'
ev-embed --db kb.db --seed 3 < /dev/null; echo "exit $?"
ev-embed --db kb.db --log-entropy < /dev/null; echo "exit $?"
ev-embed --db kb.db --drift --query-tf raw; echo "exit $?"
ev-embed --db kb.db --train --query-tf cubic; echo "exit $?"
ev-embed --db kb.db --train --sigma-power 3; echo "exit $?"
# from a config (a plan's embed section), they are quiet outside --train
printf 'embed:\n  log_entropy: true\n  seed: 9\n' > plan.yaml
echo '"heat"' | ev-embed --db kb.db --config plan.yaml | jq -c '.vector | length'
