# A message about a file of a long path names its line: the "FILE:LINE" was
# made in a buffer of 300 bytes, and a path of more cut both the file's name
# and the line.  A where too long for a message keeps its beginning and its
# end, the file's name and line, " ... " between.
d=$(printf 'd%.0s' $(seq 150))
mkdir -p "$d/$d"
printf '{"id":"a","text":"fine"}\n{"id":5}\n' > "$d/$d/bad.jsonl"
ev-ingest --db kb.db "$d/$d/bad.jsonl" 2>err
echo "exit $?"
sed 's/dddddddddd*/D/g' err
printf '"fine"\n"unterminated\n' > "$d/$d/q.jsonl"
echo '{"id":"a","text":"fine"}' | ev-ingest --db kb.db --quiet
ev-search-text --db kb.db "$d/$d/q.jsonl" 2>&1 >/dev/null | sed 's/dddddddddd*/D/g'
