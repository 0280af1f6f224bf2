# Hits of one query may be spread over several RUN files and stdin ("-"), in
# any order: the result is that of 01-graded-by-hand.
head -n 3 "$CASEDIR/small.jsonl" >a.jsonl
sed -n 4,6p "$CASEDIR/small.jsonl" >b.jsonl
tail -n 2 "$CASEDIR/small.jsonl" | ev-eval --qrels "$CASEDIR/small.qrels" b.jsonl - a.jsonl
