# On a small store the default training keeps every word (min-df and the
# dimension come from the store's size: 12 chunks, min-df 1, 12
# dimensions), without a word about a --dim nobody gave: a word found in
# one note alone finds that note in the vector lane's first 3.  A query of
# no word the model knows is said once, by the vector lane, on one line.
n=0
for note in \
    "The kettle in the staff kitchen descales every Monday with citric acid." \
    "Parking permits for the east garage are renewed each January at reception." \
    "Our printer on the third floor jams when the paper tray is overfilled." \
    "Expense reports need a receipt for every purchase above twenty euros." \
    "The fire drill assembles everyone at the flagpole beside the river gate." \
    "Laptops are encrypted with a passphrase chosen at the first login." \
    "The library lends projectors for two days; book them through the intranet." \
    "Visitors sign the guestbook and wear a badge while inside the building." \
    "Holiday requests go to your manager at least three weeks ahead." \
    "The bicycle shed is locked at nine; the code changes every quarter." \
    "Plants on the terrace are watered by the volunteer rota on Fridays." \
    "Lost keys are kept by security in the drawer behind the turnstile."; do
	n=$((n + 1))
	printf '{"id":"n%02d","text":"%s"}\n' "$n" "$note"
done >notes.jsonl
ev-ingest --db kb.db --quiet notes.jsonl
ev-embed --db kb.db --train | jq -c '{dim, chunks, terms, distinct_terms}'
echo "train: $?"
ev-ingest --db kb.db --all notes.jsonl | ev-embed --db kb.db |
    ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
for pair in kettle:n01 garage:n02 printer:n03 receipts:n04 flagpole:n05 passphrase:n06 \
    projectors:n07 guestbook:n08 holiday:n09 bicycle:n10 terrace:n11 turnstile:n12; do
	q=${pair%%:*} want=${pair#*:}
	got=$(echo "\"$q\"" | ev-embed --db kb.db --role query |
	    ev-search-vec --db kb.db --index kb.faiss -k 3 | jq -r .doc_id | tr '\n' ' ')
	case " $got" in *" $want "*) echo "$q: $want in the first 3" ;; *) echo "$q: $want not in: $got" ;; esac
done
echo '"zeppelin"' | ev-embed --db kb.db --role query |
    ev-search-vec --db kb.db --index kb.faiss -k 3 2>&1
echo "no known word: $?"
