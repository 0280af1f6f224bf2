# index --factory with a string Faiss cannot make: every shard was ingested
# and the model trained, then each shard's load failed with its message
# thrown away (GNU parallel showed the job's command line), exit 1, the
# shards' stores left half made.  The factory is tried first now: Faiss's
# reason, exit 2, and nothing done in DIR.
shard=$CASEDIR/../../../scripts/ev-shard
"$shard" split -n 2 "$CASEDIR"/../ev-search-text/bees.jsonl a 2>/dev/null || exit 1
"$shard" index --factory 'IVF4,Bogus' a 2>err.txt
echo "exit $?"
sed 's/index of it (.*): write/index of it (Faiss says why): write/' err.txt  # (its words vary with Faiss's version)
ls a
