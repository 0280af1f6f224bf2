# --min exits 3 after printing the summary, naming each figure below its gate.
ev-eval --qrels "$CASEDIR/small.qrels" --min map=0.3 --min ndcg@10=0.39 --min mrr=0.34 "$CASEDIR/small.jsonl"
