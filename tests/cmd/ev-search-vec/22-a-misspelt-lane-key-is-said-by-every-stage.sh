# Every lane's keys are entries of the plan schema, which every stage knows:
# a misspelt key of a lane (lanes.vector.nprob, lanes.visual.tokenk,
# lanes.structured.idcolumn, lanes.expand.hop, lanes.text.thread) is said by
# every stage reading the plan, not only by the lane's own; every key written
# as its lane reads it passes every stage quietly.  ev-tune checks the vector
# lane's keys as ev-search-vec does.  (With --help each stage reads the plan
# and stops.)
exec 2>&1
every_stage() {	# every stage reading the plan $1
	for s in ev-search-text ev-search-vec ev-search-mv ev-search-sql ev-expand ev-fuse \
	    ev-rerank ev-embed ev-route; do
		$s --config "$1" --help >/dev/null; echo "$s: exit $?"
	done
	ev-pack --plan "$1" </dev/null; echo "ev-pack: exit $?"
}
cat >bad.yaml <<YAML
version: "0.1"
lanes:
  text:
    thread: 1
  vector:
    k: 5
    nprob: 8
  visual:
    tokenk: 10
  structured:
    idcolumn: id
  expand:
    hop: 2
YAML
every_stage bad.yaml
cat >good.yaml <<YAML
version: "0.1"
lanes:
  text:
    k: 5
    all_terms: false
    raw_fts: false
    snippet:
      open: "["
      close: "]"
      tokens: 20
    exhaustive: false
    threads: 1
    skip_invalid: false
  vector:
    k: 5
    min_score: 0.1
    ef_search: 16
    nprobe: 4
    pairwise: false
    snippet: false
  visual:
    k: 5
    candidates: 50
    token_k: 10
    nprobe: 4
    ef_search: 16
    exact: false
    lane: pages
  structured:
    db: p.db
    sql: "SELECT id FROM policy"
    id_column: id
    snippet_columns: name
    k: 5
    lane: policies
  expand:
    from: 5
    neighbours: 1
    timeline: 0
    hops: 1
    per_hit: 2
    per_query: 10
    decay: 0.5
YAML
every_stage good.yaml
printf 'lanes:\n  vector:\n    nprobe: 0\n' >range.yaml
ev-search-vec --config range.yaml --help >/dev/null; echo "exit $?"
ev-tune --db kb.db --plan range.yaml; echo "exit $?"
