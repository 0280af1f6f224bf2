# Vectors carry the model id; retraining on changed chunks changes it, so
# vectors of the old model can be told apart (ev-embed-load refuses them).
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
echo '"wing"' | ev-embed --db kb.db | jq -r .model > old
printf '%s\n' '{"id":"wing2","title":"Wing flutter","text":"Flutter of a swept wing in supersonic flow."}' |
	ev-ingest --db kb.db --quiet
ev-embed --db kb.db --train --dim 4 > /dev/null
echo '"wing"' | ev-embed --db kb.db | jq -r .model > new
cmp -s old new && echo "same model" || echo "model changed"
[ "$(cat new)" = "$(sqlite3 kb.db "SELECT value FROM meta WHERE key = 'embed.model'")" ] && echo "current"
