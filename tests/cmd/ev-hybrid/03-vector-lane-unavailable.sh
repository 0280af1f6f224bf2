# The vector lane fails (an index file that is not there; a model retrained
# after the index was loaded): ev-search-vec says why on stderr and exits 1,
# ev-hybrid answers from the text lane alone, exits 0, and every pack says so
# in its warnings; --keep holds text.jsonl, an empty vector.jsonl, fused.jsonl.
. "$CASEDIR/store.inc"
printf '"flutter"\n' | ev-embed --db db --role query 2>/dev/null |
	ev-search-vec --db db --index no-such-index >/dev/null 2>&1
echo "ev-search-vec alone: status $?"
"$hybrid" --db db --index no-such-index --keep lanes "flutter" "zzzz" >packs.jsonl 2>err.txt
echo "status $?"
sed 's/[0-9a-f]\{16\}/HASH/g' err.txt
/usr/bin/python3 "$top/scripts/validate-evidencepack.py" <packs.jsonl
jq -c '[.query_id, (.evidences | length), .warnings]' packs.jsonl
for f in text vector fused; do printf '%s %s\n' $f "$(wc -l <lanes/$f.jsonl)"; done
# retrained: the store's model is no longer the one the index was built with
ev-embed --db db --train --dim 3 --min-df 1 >/dev/null
"$hybrid" --db db --index idx "flutter" >packs2.jsonl 2>err2.txt
echo "status $?"
sed 's/lsa[0-9]*-[0-9a-f]*/MODEL/g' err2.txt
jq -c '[(.evidences | length > 0), (.warnings | map(gsub("lsa[0-9]*-[0-9a-f]*"; "MODEL")))]' packs2.jsonl
