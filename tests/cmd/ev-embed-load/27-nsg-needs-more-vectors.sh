# Faiss builds an NSG graph (NSG32, NSG16,Flat) of 101 vectors at least:
# below that it divided by zero and the load died (exit 136).  The string is
# fine for more vectors, so a load of too few is a runtime failure, exit 1,
# refused before Faiss is called, naming the count and what to use; the
# store and the index are left exactly as they were, new or loaded.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
. "$CASEDIR/tryload"
for f in NSG32 NSG16,Flat; do tryload "$f"; done
[ -e kb.faiss ] || echo "no index written"
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl"
for f in NSG32 NSG64; do tryload "$f"; done
