# A "language" that is no language code ("english", "123", "") is refused
# as ev-embed refuses it: exit 2, the file and line named, the store left as
# it was.  (ev-ingest took the language the text shows instead, silently.)
# A code ("fr-CA", "fra", "EN") is stored, its chunks in its primary
# language.  An HTML page whose <html lang> is no code is still read, its
# language found in its text, as a page without one is.
exec 2>&1
printf '%s\n' '{"id":"ok","text":"kept"}' > first.jsonl
ev-ingest --db kb.db --quiet first.jsonl; echo "exit $?"
for l in '"english"' '"123"' '""' '"e"' '"en gb"'; do
	printf '{"id":"new","text":"new"}\n{"id":"l","text":"le chat est sur la table","language":%s}\n' \
	    "$l" > lang.jsonl
	ev-ingest --db kb.db --quiet lang.jsonl; echo "exit $?"
done
sqlite3 kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
printf '%s\n' '{"id":"ca","text":"bonjour","language":"fr-CA"}' \
    '{"id":"fra","text":"bonjour","language":"fra"}' '{"id":"up","text":"hello","language":"EN"}' \
    '{"id":"none","text":"le chat est sur la table et le chien est dans le jardin","language":null}' > good.jsonl
printf '<html lang="english"><body><p>Le chat est sur la table et le chien est dans le jardin.</p></body></html>\n' > page.html
ev-ingest --db kb.db --quiet good.jsonl page.html; echo "exit $?"
sqlite3 kb.db "SELECT d.doc_id, d.language, c.language FROM documents d JOIN chunks c USING (doc_id) ORDER BY d.doc_id"
ev-extract page.html | jq -c '{id, language}'
