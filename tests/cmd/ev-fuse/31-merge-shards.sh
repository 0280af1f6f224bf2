# --method merge: two shards of the text lane, by score, ties by id (b1 before
# s2 at 2.5 though s2 ranked first in its shard), ranks and fts_rank rewritten,
# fts_norm made again over the merged list, -k kept; every other field as read
printf '%s\n' \
 '{"query_id":"q1","id":"s1","rank":1,"score":4.0,"lane":"text","signals":{"fts_score":4.0,"fts_rank":1,"fts_norm":1.0},"x":[1, 2]}' \
 '{"query_id":"q1","id":"s2","rank":2,"score":2.5,"lane":"text","signals":{"fts_score":2.5,"fts_rank":2,"fts_norm":0.625}}' \
 '{"query_id":"q2","id":"s9","rank":1,"score":0.5,"lane":"text","signals":{"fts_rank":1}}' > a.jsonl
printf '%s\n' \
 '{"query_id":"q1","id":"b1","rank":1,"score":2.5,"lane":"text","signals":{"fts_score":2.5,"fts_rank":1,"fts_norm":1.0}}' \
 '{"query_id":"q1","id":"b2","rank":2,"score":1,"lane":"text","signals":{"fts_score":1,"fts_rank":2,"fts_norm":0.4}}' \
 '{"query_id":"q2","id":"b7","rank":1,"score":0.75,"lane":"text"}' > b.jsonl
ev-fuse --method merge a.jsonl b.jsonl
echo "-k 2:"
ev-fuse --method merge -k 2 a.jsonl b.jsonl | jq -c '[.query_id,.id,.rank,.score]'
echo "two lanes:"
printf '%s\n' '{"query_id":"q1","id":"v1","rank":1,"score":0.9,"lane":"vector"}' > v.jsonl
ev-fuse --method merge a.jsonl v.jsonl 2>&1; echo "exit $?"
ev-fuse --method merge --group doc a.jsonl 2>&1; echo "exit $?"
