# A cue matches in any case of its letters, the Latin-1 ones too: "École"
# and "ÉCOLE" match the cue "école" (and the cue "ÉTÉ" the word "été"), as
# "Map" matches "map"; only "école" did, its capital É being left as it was.
cat >plan.yaml <<'END'
routing:
  default: [text]
  rules:
    - lanes: [vector]
      cues: [école, ÉTÉ, map]
END
printf '{"query_id":%d,"query":"%s"}\n' 1 "École du soir" 2 "ÉCOLE" 3 "cours d'été" 4 "a Map of" \
	5 "écoles" 6 "ÀÉ×" >q.jsonl
ev-route --config plan.yaml q.jsonl | jq -c '[.query, .lanes, .routing]'
