# The lane's depth in a plan is lanes.structured.k, the key scripts/ev-hybrid
# reads; the plan's top-level k is ev-pack's (evidences per pack) and leaves
# the lane's depth alone.  A file of the lane's own (no lanes section) has
# the same keys at its top level.
sqlite3 p.db <"$CASEDIR/policies.sql"
q='{"query_id":"a","query":"x","filters":{"year":2023}}'
printf 'k: 1\nlanes:\n  structured:\n    db: p.db\n    sql: "SELECT id, name FROM policy WHERE year = :year ORDER BY id"\n    id_column: id\n' >plan.yaml
echo "$q" | ev-search-sql --config plan.yaml 2>&1 | jq -r .id
echo "--- lanes.structured.k: 1"
printf '    k: 1\n' >>plan.yaml
echo "$q" | ev-search-sql --config plan.yaml 2>&1 | jq -r .id
echo "--- a file of its own"
printf 'db: p.db\nsql: "SELECT id FROM policy WHERE year = :year ORDER BY id"\nid_column: id\nk: 1\n' >own.yaml
echo "$q" | ev-search-sql --config own.yaml 2>&1 | jq -r .id
