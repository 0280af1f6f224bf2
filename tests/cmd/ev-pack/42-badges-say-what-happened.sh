# Badges say only what happened.  A word found through typo repair gets a
# typo_repair badge naming the word as typed and the indexed word (and
# stem) it was read as, not an exact match; the text report shows it.  The
# feedback lane (its vector made from the text lane's hits) earns
# feedback_match, never semantic_match.  A timeline badge gives the days as
# the timeline lane measured them.  A real store.
printf '%s\n' \
    '{"id":"pg","title":"Postgres tuning","published_date":"2024-01-01","text":"Postgres shared buffers hold cached pages. Set shared buffers to a quarter of memory."}' \
    '{"id":"os","title":"Kernel","published_date":"2024-02-21","text":"The kernel page cache holds file pages in memory."}' \
    '{"id":"net","title":"Network","published_date":"2023-12-30","text":"Socket buffers and queues in the network stack."}' >docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl
echo '"postgres shared bufers"' | ev-search-text --db kb.db -k 3 >text.jsonl
ev-pack text.jsonl | jq -c '.evidences[] | [.id, .badges]'
COLUMNS=80 ev-pack --format text text.jsonl | sed 1,3d
echo "--- timeline: the days apart"
ev-expand --db kb.db --from 1 --neighbours 0 --hops 0 --timeline 2 text.jsonl |
    ev-pack | jq -c '.evidences[] | .badges[] | select(.lane == "timeline") | .label'
echo "--- the feedback lane"
echo '{"query_id":"q","id":"pg:_top:0","score":0.9,"lane":"vector_feedback","source_uri":"pg","snippet":"x","evidence":[{"lane":"vector_feedback","score":0.9,"feedback":["net:_top:0"]}]}' |
    ev-pack | jq -c '.evidences[0] | [.badges, .evidence]'
