# A record's page (its own, or its metadata's) written as a real that is a
# whole number (3.0, as a JavaScript writer writes 3) is page 3: the hit
# gets its content_ref and its evidence the page, and the hit's page is 3.
# They were dropped unsaid, the page read as an integer alone.  A page of
# "3" is no page (the hit keeps it as loaded).
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z
for p in 3 3.0 '"3"'; do
	echo "-- page $p"
	printf '%s\n' "{\"id\":\"r1\",\"vectors\":[[1,0,0]],\"model\":\"m\",\"doc_id\":\"d\",\"page\":$p,\"bbox\":[1,2,3,4]}" \
	    "{\"id\":\"p1\",\"vectors\":[[0,1,0]],\"model\":\"m\",\"doc_id\":\"d\",\"metadata\":{\"page\":$p}}" >r.jsonl
	rm -f i.mvi
	ev-mv-load --index i.mvi --lane region r.jsonl 2>/dev/null
	echo '{"query_id":"q","vectors":[[2,1,0]]}' | ev-search-mv --index i.mvi -k 3 >hits.jsonl
	echo "exit $?"
	# as written: jq would show 3.0 as 3
	grep -o '"id":"[a-z0-9]*"\|"page":[^,}]*\|"content_ref":"[^"]*"' hits.jsonl | paste -s -d ' ' -
done
