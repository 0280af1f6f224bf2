# --raw-fts passes an FTS5 expression on purpose.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
printf '%s\n' '"plate NOT shear"' '"title:wing"' '"bound*"' '"\"boundary layer\" AND heat"' |
	ev-search-text --db kb.db --raw-fts | jq -r '[.query_id, .doc_id] | @tsv'
