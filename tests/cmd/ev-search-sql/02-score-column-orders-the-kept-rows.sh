# A column named score ranks the first k rows, highest first, ties in the
# statement's order; -k keeps the first k rows of the statement; a string id
# column names the hit; --snippet-columns chooses the snippet.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
sqlite3 p.db <"$CASEDIR/policies.sql"
echo '"varroa"' | ev-search-sql --db p.db --id-column code --snippet-columns txt \
	--sql "SELECT code, txt, instr(txt, :query) > 0 AS score FROM note ORDER BY code"
echo '"moisture"' | ev-search-sql --db p.db -k 3 \
	--sql "SELECT rowid, name, (criterion LIKE '%' || :query || '%') * 2.5 AS score FROM policy ORDER BY id" |
	jq -c '[.id, .rank, .score, .snippet]'
