# A store without a model: the message says what to run.
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
echo '"wing lift"' | ev-embed --db kb.db
echo "exit $?"
