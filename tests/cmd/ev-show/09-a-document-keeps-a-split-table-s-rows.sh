# A document (doc:ID) left out a split table's later parts (whose text
# starts with the header rows the first part holds): every row past the
# first part was missing.  Their rows are now shown once, each part after a
# blank line (the gap the chunks leave), the header rows once.
exec 2>&1
{
	printf '# Counts\n\n| Item | Count |\n| --- | --- |\n'
	for i in $(seq 1 30); do printf '| row%02d | %d |\n' "$i" $((i * 7)); done
	printf '\nThe end.\n'
} > counts.md
ev-ingest --db kb.db --size 200 counts.md | jq -c '[.offset_start, .offset_end, (.text | .[0:14])]'
ev-show --db kb.db --format text doc:counts.md
