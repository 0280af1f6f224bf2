# A query given as an argument is one query whatever it holds: lines (a
# paragraph pasted as a question) were cut into one query a line, and a CR
# (a line of a Windows file) or another control character made an invalid
# query line, refused as bad input of "(query arguments)".  Each is one
# query now, its characters escaped, with quotes, backslashes and tabs as
# before.
. "$CASEDIR/store.inc"
for q in "$(printf 'flutter of\nswept wings')" "$(printf 'panel flutter\r')" \
	"$(printf 'panel\001flutter')" "$(printf 'a "swept" \\wing\\\tflutter')"; do
	"$hybrid" --db db --index idx -k 2 --keep keep "$q" >packs.jsonl
	echo "status $?"
	cat keep/queries.jsonl
	jq -c '[.query_id, .query, [.evidences[].id]]' packs.jsonl
done
