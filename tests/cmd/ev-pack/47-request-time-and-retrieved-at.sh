# stats.took_ms is the request's time when ev-pack is told when the request
# began (--started, Unix milliseconds, as scripts/ev-hybrid passes it); a
# lone ev-pack says its took_ms counts only itself.  The evidences'
# provenance.retrieved_at is when the lane retrieved the hit (the stamp in
# its evidence), not when the request began; only a hit no lane stamped
# (here its stamps removed, as an older evkit wrote hits) is given the
# request's start, and the pack says so.  A hit that says when it was
# retrieved (its own retrieved_at) keeps its own time.
. "$CASEDIR/../ev-hybrid/store.inc"
echo '{"query_id":"q1","query":"flutter speed"}' >q.jsonl
ev-search-text --db db q.jsonl >text.jsonl
hour_ago=$(( $(date +%s) - 3600 ))
ev-pack --started "${hour_ago}000" text.jsonl >p.json
jq -r '[.stats.took_ms_scope, (.stats.took_ms >= 3600000 and .stats.took_ms < 3700000)] | @tsv' p.json
test "$(jq -r '.evidences[0].provenance.retrieved_at' p.json)" = "$(jq -r 'select(.rank == 1) | .evidence[0].retrieved_at' text.jsonl)" &&
	echo "retrieved_at: when the text lane retrieved it"
jq -r '.explain.ignored_fields[] | select(startswith("provenance."))' p.json
jq -c 'del(.evidence[].retrieved_at)' text.jsonl | ev-pack --started "${hour_ago}000" >p.json
test "$(jq -r '.evidences[0].provenance.retrieved_at' p.json)" = "$(date -u -d "@$hour_ago" +%Y-%m-%dT%H:%M:%SZ)" &&
	echo "retrieved_at of a hit no lane stamped: when the request began"
jq -r '.explain.ignored_fields[] | select(startswith("provenance."))' p.json
ev-pack text.jsonl | jq -r '[.stats.took_ms_scope, (.stats.took_ms < 60000)] | @tsv'
jq -c '.retrieved_at = "2025-05-05T05:05:05Z"' text.jsonl | ev-pack --started "${hour_ago}000" |
	jq -r '[.evidences[].provenance.retrieved_at] | unique | .[]'
echo "--- ev-hybrid: the request's time"
"$hybrid" --db db --index idx "flutter speed" | jq -r '[.stats.took_ms_scope, (.stats.took_ms | type)] | @tsv'
echo "--- bad input"
ev-pack --started 0 text.jsonl 2>&1; echo "status $?"
ev-pack --started soon text.jsonl 2>&1; echo "status $?"
