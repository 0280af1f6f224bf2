# A postings file whose dictionary is damaged (here every term's entry
# overwritten) is named in the message, which gives the command that makes
# it again, exit 1; the message named no file and left out the store.  Made
# again, the searches answer as before.
exec 2>&1
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
. "$CASEDIR/mkstore"; mksearched kb.db
u64() { od -An -t u8 -j "$1" -N 8 kb.db.postings | tr -d ' '; }
terms=$(u64 72) strings=$(u64 80)
head -c $((strings - terms)) /dev/zero | tr '\0' '\377' |
	dd of=kb.db.postings bs=1 seek="$terms" conv=notrunc 2>/dev/null
ev-search-text --db kb.db -k 2 q.jsonl; echo "exit $?"
ev-ingest --db kb.db --postings; echo "exit $?"
ev-search-text --db kb.db -k 2 q.jsonl | cmp - before.jsonl && echo "the same hits"
