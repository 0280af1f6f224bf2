exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
try() { ev-search-vec --db kb.db --index kb.faiss; echo "exit $?"; }
printf "{\"vector\":[1,0" | try
echo "{\"vector\":[1e39,0,0,0]}" | try
echo "{\"vector\":[\"a\",0,0,0]}" | try
echo "{\"vector\":{}}" | try
echo "{\"query_id\":[1],\"vector\":[1,0,0,0]}" | try
echo "[1,0,0,0]" | try
printf "{\"vector\":[1,0,0,0],\"q\":\"\000\"}\n" | try
awk "BEGIN { for (i = 0; i < 5000; i++) printf \"{\\\"a\\\":\"; print \"\" }" | try
head -c 2000 /dev/urandom | tr -d "\n" | ev-search-vec --db kb.db --index kb.faiss 2>/dev/null; echo "exit $?"
for k in 0 -1 100001 1x ""; do ev-search-vec --db kb.db --index kb.faiss -k "$k" < /dev/null; echo "exit $?"; done
ev-search-vec --db kb.db --index kb.faiss --min-score nan < /dev/null; echo "exit $?"
ev-search-vec --db kb.db < /dev/null; echo "exit $?"
