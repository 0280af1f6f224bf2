# A French answer is scored with French stems: "mangeaient" in the answer is
# supported by "manger" in the citation (both "mang"; English stemming keeps
# them apart), whether the language is found from the answer or given.  The
# details name the language when it is not English; a bad code is refused.
exec 2>&1
fr='{"query_id":"fr","query":"Que mangeaient les enfants au jardin ?","answer":"Les enfants mangeaient des pommes vertes au jardin.","citations":[{"id":"c1","text":"Les enfants vont manger des pommes vertes au jardin chaque matin."}]}'
echo "$fr" | ev-score | jq -c '[.query_id, .faithfulness, .coverage, .details.language, .details.claims[0].unsupported]'
echo "$fr" | jq -c '.query_id = "given-fr" | .language = "fr"' | ev-score | jq -c '[.query_id, .faithfulness, .details.language]'
echo "$fr" | jq -c '.query_id = "given-en" | .language = "en"' | ev-score | jq -c '[.query_id, .faithfulness, .details.language, .details.claims[0].unsupported]'
echo "$fr" | jq -c '.query_id = "other" | .language = "other"' | ev-score | jq -c '[.query_id, .faithfulness, .details.language]'
echo "$fr" | jq -c '.language = "français"' | ev-score; echo "exit $?"
