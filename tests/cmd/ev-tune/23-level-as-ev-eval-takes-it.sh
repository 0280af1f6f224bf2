# --level is the least relevance counted relevant "as ev-eval --level", and
# takes what ev-eval takes, -1000000000 to 1000000000 (the range of a
# judgement's relevance): it was held to -1000000 to 1000000, so judgements
# graded in millions could be measured by ev-eval but not tuned for.  Past
# the range both refuse it alike.
echo "q1 0 d1 5000000" >qrels
ev-tune --db nowhere.db --qrels qrels --level 2000000 </dev/null 2>&1 | head -1
ev-eval --qrels qrels --level 2000000000 </dev/null 2>&1 | head -1
ev-tune --db nowhere.db --qrels qrels --level 2000000000 </dev/null 2>&1 | head -1
