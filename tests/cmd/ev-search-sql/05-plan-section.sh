# The lanes.structured section of a retrieval plan configures the lane; the
# plan's other sections belong to other stages and are not warned about;
# an unknown top-level key is.  Flags override the plan.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
sqlite3 p.db <"$CASEDIR/policies.sql"
cat >plan.yaml <<'YAML'
version: "0.1"
k: 10
lanes:
  text:
    k: 100
  structured:
    db: p.db
    sql: "SELECT id, name FROM policy WHERE year = :year ORDER BY id"
    id_column: id
fusion:
  method: rrf
diversity:
  by_document: 3
YAML
echo '{"query_id":"a","query":"x","filters":{"year":2023}}' | ev-search-sql --config plan.yaml 2>&1 |
	jq -c '[.id, .snippet]'
echo 'colour: blue' >>plan.yaml
echo '{"query_id":"a","query":"x","filters":{"year":2022}}' | ev-search-sql --config plan.yaml -k 1 2>&1
