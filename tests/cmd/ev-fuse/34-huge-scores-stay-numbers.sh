# Scores near the largest double are finite, so they are fused like any
# others: a range or a sum wider than a double holds gives no inf/inf (NaN)
# and no "score": null, which every reader of the fused hits refuses.  Text
# scores 1.7e308, 0 and -1.7e308; vector scores 0.9 and 0.5.  Under minmax the
# text lane gives a 1, b 0.5, c 0 (a and c tie at 1: a by id); under zscore
# (mean 0, sd 1.7e308 x sqrt(2/3)) a sqrt(3/2) = 1.2247, b 0, c -1.2247.
printf '%s\n' '{"query_id":"q","id":"a","rank":1,"score":1.7e308,"lane":"text"}' \
	'{"query_id":"q","id":"b","rank":2,"score":0,"lane":"text"}' \
	'{"query_id":"q","id":"c","rank":3,"score":-1.7e308,"lane":"text"}' \
	'{"query_id":"q","id":"c","rank":1,"score":0.9,"lane":"vector"}' \
	'{"query_id":"q","id":"b","rank":2,"score":0.5,"lane":"vector"}' >hits.jsonl
for norm in minmax zscore; do
	echo "$norm:"
	ev-fuse --method weighted --norm "$norm" hits.jsonl | jq -c '[.id, .score]'
done
# A sum beyond the largest double (two lanes of 1.7e308 unnormalised, or
# weights of 1e308 under RRF with K 1e-9) is held to it, 1.7976931348623157e308.
printf '%s\n' '{"query_id":"q","id":"a","rank":1,"score":1.7e308,"lane":"text"}' \
	'{"query_id":"q","id":"a","rank":1,"score":1.7e308,"lane":"vector"}' >two.jsonl
ev-fuse --method weighted --norm none two.jsonl | jq -c '[.id, .score, .signals.fused_score]'
ev-fuse --method combmnz --norm none two.jsonl | jq -c '[.id, .score]'
ev-fuse --weight text=1e308 --weight vector=1e308 --rrf-k 1e-9 two.jsonl | jq -c '[.id, .score, .signals.rrf_score]'
