# A Markdown link may carry a title ([b](b.md "The B page"), or 'B' or (B))
# and may put its destination in angle brackets (<c d.md>, spaces allowed):
# both are followed as plain links are; they were passed over, since only a
# destination right before ')' was read.  Text that is not a link -- words
# after the path, a parenthesis never closed -- still is not followed.
mkdir docs
printf '# A\n\nAbout hives: [b](b.md "The B page"), [c](<c d.md>), [e](e.md (E)).\n' >docs/a.md
printf '# B\n\nB page.\n' >docs/b.md
printf '# C\n\nC page.\n' >"docs/c d.md"
printf '# E\n\nE page.\n' >docs/e.md
printf '# F\n\nAbout hives: [x](b.md is good) and [y](c d.md) and [z](e.md\n' >docs/f.md
ev-ingest --db kb.db --quiet docs
echo '"hives"' | ev-search-text --db kb.db -k 2 --feedback 0 | ev-expand --db kb.db --neighbours 0 |
	jq -c '[.rank, .id, .lane, .evidence[-1].from]'
