# A badge's label reads an evidence entry's hops and distance as numbers:
# 2.0 (as a JavaScript writer writes 2) is 2, and a count that is not a
# number is left out of the label.  The pack read them as JSON integers
# alone: "linked from d:_top:0 (0 hops)" for hops 2.0 or "2", and a typo
# repair's edit distance of 1.0 was dropped from the badge.
q='"query_id":"q","query":"mitse","score":1'
for n in 2 2.0 '"2"' 2.5; do
	echo "-- $n"
	printf '%s\n' "{$q,\"id\":\"d:_top:1\",\"doc_id\":\"d\",\"lane\":\"link\",\"rank\":1,\"evidence\":[{\"lane\":\"link\",\"score\":1,\"from\":\"d:_top:0\",\"hops\":$n}]}" \
	    "{$q,\"id\":\"d:_top:2\",\"doc_id\":\"d\",\"lane\":\"neighbour\",\"rank\":2,\"evidence\":[{\"lane\":\"neighbour\",\"score\":1,\"from\":\"d:_top:0\",\"distance\":$n}]}" \
	    "{$q,\"id\":\"e:_top:0\",\"doc_id\":\"e\",\"lane\":\"timeline\",\"rank\":3,\"evidence\":[{\"lane\":\"timeline\",\"score\":1,\"from\":\"d:_top:0\",\"distance\":$n}]}" |
		ev-pack | jq -c '.evidences[].badges[] | .label'
done
echo "-- a repair's edit distance"
for d in 1 1.0 1.5; do
	printf '%s\n' "{$q,\"id\":\"d:_top:0\",\"doc_id\":\"d\",\"lane\":\"text\",\"rank\":1,\"evidence\":[{\"lane\":\"text\",\"score\":1,\"matched_terms\":[\"mite\"],\"fuzzy\":[{\"term\":\"mitse\",\"word\":\"mites\",\"distance\":$d}]}]}" |
		ev-pack | grep -o '"repairs":\[[^]]*\]'	# (as written: jq shows 1.0 as 1)
done
