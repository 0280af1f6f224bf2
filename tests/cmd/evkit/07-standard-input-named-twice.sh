# Standard input can be read only once: '-' named twice among a command's
# inputs is bad usage (exit 2), before anything is read or written, in every
# command that reads JSON Lines (ev-fuse refused it, ev-rerank, ev-pack,
# ev-score and ev-eval read it once and the second '-' as empty).  The
# store and the index are unchanged.
ev-ingest --db db --quiet "$SAMPLES/runbooks" 2>/dev/null
ev-embed --db db --train --dim 4 >/dev/null 2>&1
ev-ingest --db db --all "$SAMPLES/runbooks" 2>/dev/null | ev-embed --db db | ev-embed-load --db db --index idx 2>/dev/null
echo "q1 0 d1 1" >qrels
before=$(sqlite3 db .dump | cksum; cksum <idx)
: >q.jsonl
for c in "ev-fuse - q.jsonl -" "ev-rerank --db db - -" "ev-pack - -" "ev-score - -" \
	"ev-eval --qrels qrels - -" "ev-expand --db db - -" "ev-route - -" \
	"ev-search-text --db db - -" "ev-search-vec --db db --index idx - -" \
	"ev-embed --db db - -" "ev-embed-load --db db --index idx - -" \
	"ev-tune --db db --qrels qrels - -"; do
	$c </dev/null >out 2>err
	echo "$? $(head -1 err)"
	[ -s out ] && echo "  and wrote: $(head -c 80 out)"
done
[ "$before" = "$(sqlite3 db .dump | cksum; cksum <idx)" ] && echo "store and index unchanged"
