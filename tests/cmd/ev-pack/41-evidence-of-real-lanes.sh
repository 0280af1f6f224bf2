# Each evidence carries its evidence array: an entry per lane that found it,
# with the lane's rank and score, the text lane's snippet and matched words
# and, on a PDF, the boxes of the lines that hold them, in PDF points (bbox)
# and in fractions of the page (bbox_norm).  Entries of every hit of one id
# are merged without duplicates, in the order vector, text, then the others;
# the badges follow that order.  Real PDFs, a real store and index.
mkdir docs
python3 "$CASEDIR/../ev-extract/mkpdf.py" pagebreak docs/hive.pdf
python3 "$CASEDIR/../ev-extract/mkpdf.py" fonts docs/pump.pdf
cp -r "$SAMPLES/runbooks" docs/
ev-ingest --db kb.db --quiet docs 2>/dev/null
ev-embed --db kb.db --train --dim 8 >/dev/null
ev-ingest --db kb.db --all docs 2>/dev/null | ev-embed --db kb.db | ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
echo '{"query_id": "q", "query": "pump seal"}' > q.jsonl
ev-search-text --db kb.db -k 3 q.jsonl > text.jsonl
ev-embed --db kb.db --role query q.jsonl | ev-search-vec --db kb.db --index kb.faiss -k 3 > vector.jsonl
echo "--- fused"
ev-fuse --method rrf text.jsonl vector.jsonl > fused.jsonl
ev-pack -k 3 fused.jsonl > fused.pack
jq -c '.evidences[] | [.id, [.evidence[] | [.lane, .rank, (.score | type)]], [.badges[].badge]]' fused.pack
jq -c '.evidences[] | select(.id | endswith("seals:0")) | .evidence[] | [.matched_terms, .regions]' fused.pack
echo "--- the lanes unfused and fused given together: one entry per lane, vector first"
cat text.jsonl vector.jsonl fused.jsonl | ev-pack -k 3 > merged.pack
jq -c '.evidences[] | [.id, [.evidence[] | [.lane, .rank]], [.badges[].badge]]' merged.pack
V="/usr/bin/python3 $CASEDIR/../../../scripts/validate-evidencepack.py"
cat fused.pack merged.pack | $V
echo "--- a lane's hit without evidence: an entry from its lane, rank and score"
echo '{"query_id":"q","id":"x:0:0","score":0.5,"rank":2,"lane":"vector","source_uri":"x","snippet":"x"}' | ev-pack | jq -c '.evidences[0].evidence'
echo '{"query_id":"q","id":"x:0:0","score":0.5,"lane":"fused","signals":{"fts_score":3,"fts_rank":4,"rrf_score":0.5},"source_uri":"x","snippet":"x"}' | ev-pack | jq -c '.evidences[0].evidence'
