# Gates are compared with the printed (four-decimal) figures: map 0.2778 passes 0.2778.
ev-eval --qrels "$CASEDIR/small.qrels" --min map=0.2778 --min recall=0.5 "$CASEDIR/small.jsonl"
