# The late-interaction lanes in the pack: a page hit of the visual lane is
# semantic, says its modality (visual), falls in the group visual, earns a
# semantic_match badge, and keeps the metadata a caller cites it by
# (document_id, page, authority_id, asset_type); a region lane's hit
# carries its page and box (PDF points, and fractions of the page) in its
# evidence, and joins its page's evidence when the page was found too.
# Packs of such hits alone are valid.  Real multi-vector indexes.
printf '%s\n' \
    '{"id":"doc::plan::page-1","vectors":[[1,0,0],[0,1,0]],"model":"colpali-test","doc_id":"plan","page":1,"authority_id":"LPA-7","metadata":{"asset_type":"page"}}' \
    '{"id":"doc::plan::page-2","vectors":[[0,0,1]],"model":"colpali-test","doc_id":"plan","page":2,"authority_id":"LPA-7","metadata":{"asset_type":"page"}}' >pages.jsonl
printf '%s\n' \
    '{"id":"doc::plan::page-1::r1","vectors":[[1,0,0]],"model":"colpali-test","doc_id":"plan","page":1,"bbox":[72,90,306,400],"bbox_norm":[0.1176,0.1136,0.5,0.5051],"metadata":{"asset_type":"region"}}' \
    '{"id":"doc::plan::page-2::r1","vectors":[[0,0,1]],"model":"colpali-test","doc_id":"plan","page":2,"bbox":[1,2,3]}' >regions.jsonl
ev-mv-load --index pages.mvi pages.jsonl 2>/dev/null
ev-mv-load --index regions.mvi --lane region regions.jsonl 2>/dev/null
echo '{"query_id":"q","query":"site plan","vectors":[[1,0,0],[0,1,0]]}' >q.jsonl
ev-search-mv --index pages.mvi q.jsonl >visual.jsonl
ev-search-mv --index regions.mvi q.jsonl >region.jsonl
echo "--- the region lane's evidence (a box that is not four numbers is left out)"
jq -c '[.id, .evidence[0].page, .evidence[0].bbox, .evidence[0].bbox_norm]' region.jsonl
echo "--- visual pages packed"
ev-pack --group-by modality visual.jsonl >visual.pack
jq -c '.evidences[] | [.id, .provenance.mode, .provenance.modality, .group, [.badges[].badge], .metadata]' visual.pack
echo "--- both lanes fused"
ev-fuse --method rrf visual.jsonl region.jsonl | ev-pack >fused.pack
jq -c '.evidences[] | [.id, .provenance.mode, .provenance.modality, [.evidence[] | [.lane, .rank, .page]]]' fused.pack
V="/usr/bin/python3 $CASEDIR/../../../scripts/validate-evidencepack.py"
cat visual.pack fused.pack | $V
ev-pack region.jsonl | $V
