# countervailing, measured: 24 pairs written for this test (a first evidence
# and a second one, and whether the second contradicts the first: 14 do, 10
# do not), each pair one query.  Printed: each pair's verdict and cue, then
# precision and recall.  The misses and false alarms are the rule's known
# limits: a contradiction in other words (12, 14), different numbers (13),
# "not only" (20), a negation of another claim about the same subject (22).
cat >cases.tsv <<'CASES'
1	Varroa mites are counted with an alcohol wash.	Varroa mites are not counted with an alcohol wash; use a sugar roll.
1	Client secrets must be rotated every 90 days.	Client secrets never need to be rotated.
1	Raising the hive temperature increases brood survival.	Raising the hive temperature decreases brood survival.
1	Open flames are allowed in the apiary shed.	Open flames are prohibited in the apiary shed.
1	The backup job is required before each deployment.	The backup job is optional before a deployment.
1	Queen excluders improve honey yield.	Queen excluders do not improve honey yield.
1	Token caching is safe for service-to-service calls.	Token caching is unsafe for service-to-service calls.
1	The failover replica is enabled by default.	The failover replica is disabled by default.
1	Oxalic acid treatment is effective against mites in winter.	Oxalic acid treatment is ineffective against mites in winter.
1	Retries fix an expired token.	Retries can't fix an expired token.
1	Feeding sugar syrup in autumn helps colonies survive.	Colonies survive better without sugar syrup in autumn.
1	The hive was abandoned when inspected in March.	In March the inspection found a thriving colony in the hive.
1	Client secrets must be rotated every 90 days.	Client secrets must be rotated every 30 days.
1	Smoke calms the bees during an inspection.	During an inspection, smoke agitates the bees.
0	Varroa mites are counted with an alcohol wash.	An alcohol wash is the usual way to count varroa mites.
0	Open flames are not allowed in the shed.	Open flames are prohibited in the shed.
0	Client secrets must be rotated every 90 days.	Do not store passwords in the source repository.
0	Tokens are not cached by the gateway.	The gateway does not cache tokens.
0	Temperatures rise in July.	Honey prices fall when the harvest is large.
0	Queen excluders improve honey yield.	Queen excluders not only keep the queen out but also improve honey yield.
0	Backups run nightly at 02:00.	Backups run nightly and are kept for 30 days.
0	The failover replica is enabled by default.	The failover replica is not located in the same region.
0	Bees forage less in cold weather.	Bees forage more in warm weather.
0	The API returns 401 for expired tokens.	For expired tokens the API returns 401 and a hint.
CASES
awk -F'\t' '{
	printf "{\"query_id\":\"c%02d\",\"id\":\"best:%d\",\"doc_id\":\"b%d\",\"score\":1,\"source_uri\":\"b\",\"snippet\":\"%s\"}\n", NR, NR, NR, $2
	printf "{\"query_id\":\"c%02d\",\"id\":\"cand:%d\",\"doc_id\":\"c%d\",\"score\":0.5,\"source_uri\":\"c\",\"snippet\":\"%s\"}\n", NR, NR, NR, $3
}' cases.tsv >hits.jsonl
ev-pack --no-dedupe hits.jsonl | jq -r '[.query_id, (.evidences[0].countervailing | tostring),
    (.evidences[1].countervailing | tostring),
    ([.evidences[1].badges[] | select(.badge == "countervailing") | .cue + " " + .words + ": " + .subject] | join(""))] | @tsv' >verdicts.tsv
cut -f1 cases.tsv | paste verdicts.tsv - | awk -F'\t' '
	{ printf "%s first=%s second=%s label=%s %s\n", $1, $2, $3, $5, $4
	  if ($3 == "true" && $5 == 1) tp++; else if ($3 == "true") fp++; else if ($5 == 1) fn++ }
	END { printf "tp %d fp %d fn %d precision %.2f recall %.2f\n", tp, fp, fn, tp / (tp + fp), tp / (tp + fn) }'
