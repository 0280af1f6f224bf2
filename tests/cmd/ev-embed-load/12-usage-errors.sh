exec 2>&1
ev-embed-load --index x.faiss; echo "exit $?"
ev-embed-load --db kb.db; echo "exit $?"
ev-embed-load --db kb.db --index x --format csv; echo "exit $?"
ev-embed-load --db kb.db --index x --ids ids.txt; echo "exit $?"
ev-embed-load --db kb.db --index x --factory ""; echo "exit $?"
ev-embed-load --db missing.db --index x < /dev/null; echo "exit $?"
ev-embed-load --bogus; echo "exit $?"
