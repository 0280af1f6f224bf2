# A store that the searching user may only read (file and directory) can be
# searched: ev-search-text, ev-embed, ev-search-vec and ev-score --db read it.
# Twice: as ev-ingest leaves it (with its -wal and -shm files), and with only
# the store file (as a copy or an older evkit leaves it).  Root writes
# through any mode bits, so as root the searches run as user 65534; the
# store's bytes are unchanged.
. "$SKIPLIB"; need_reader
dir=$(mktemp -d "${TMPDIR:-/tmp}/evkit-ro.XXXXXX")
trap 'chmod -R u+w "$dir"; rm -rf "$dir"' EXIT
printf '%s\n' '{"id":"d1","text":"Rotate the client secret every ninety days."}' \
    '{"id":"d2","text":"Backups run nightly at two."}' '{"id":"d3","text":"Secrets live in the vault."}' >docs.jsonl
ev-ingest --db "$dir/kb.db" --quiet docs.jsonl
ev-embed --db "$dir/kb.db" --train --dim 2 >/dev/null 2>&1
ev-ingest --db "$dir/kb.db" --all docs.jsonl | ev-embed --db "$dir/kb.db" 2>/dev/null |
    ev-embed-load --db "$dir/kb.db" --index "$dir/kb.faiss" 2>/dev/null
echo '"client secret"' >"$dir/q.jsonl"
echo '{"query":"rotate","answer":"Rotate the secret.","citations":["Rotate the client secret every ninety days."]}' >"$dir/a.jsonl"
chmod 555 "$dir"
chmod 444 "$dir"/kb.*
search() {
	as_reader ev-search-text --db "$dir/kb.db" -k 1 "$dir/q.jsonl" | jq -c '[.id, .rank]'
	echo "text: $?"
	as_reader ev-embed --db "$dir/kb.db" --role query "$dir/q.jsonl" |
	    as_reader ev-search-vec --db "$dir/kb.db" --index "$dir/kb.faiss" -k 1 | jq -c '[.id, .rank]'
	echo "vector: $?"
	as_reader ev-score --db "$dir/kb.db" "$dir/a.jsonl" | jq -c '.faithfulness > 0'
	echo "score: $?"
}
before=$(cksum <"$dir/kb.db")
ls "$dir" | grep -c 'kb.db-'
search
chmod 755 "$dir"
rm "$dir/kb.db-wal" "$dir/kb.db-shm"
chmod 555 "$dir"
search
[ "$(cksum <"$dir/kb.db")" = "$before" ] && echo "store unchanged"
