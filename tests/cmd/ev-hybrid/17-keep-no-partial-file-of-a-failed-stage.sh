# A stage that fails leaves no file of its own in a --keep DIR, and the exit
# status says the run failed: each kept file is put there whole once its
# stage has succeeded.  The text lane stopped by a bad third query line left
# DIR/text.jsonl with the first two queries' hits (and the vector lane's
# scratch query-vectors.jsonl) as if complete; a reranker that failed left
# fused.jsonl unreranked, passing for the final ranking, beside its own
# half-written reranked.jsonl.
. "$CASEDIR/store.inc"
printf '"flutter"\n"heat transfer"\n{"query": 5}\n' >bad.jsonl
"$hybrid" --db db --index idx --keep kept -f bad.jsonl >packs.jsonl 2>err.txt
echo "status $?"
cat err.txt
ls -A kept | tr '\n' ' '; echo
wc -l <packs.jsonl
# a reranker that writes one hit, then fails
mkdir stub
cat >stub/ev-rerank <<'END'
#!/bin/sh
for a; do last=$a; done
head -n 1 "$last"
echo "ev-rerank: out of memory" >&2
exit 1
END
chmod +x stub/ev-rerank
printf 'fusion:\n  method: rrf\nrerank:\n  top_n: 3\n' >plan.yaml
EV_BIN=$PWD/stub "$hybrid" --db db --index idx --plan plan.yaml --keep kept flutter >packs.jsonl 2>err.txt
echo "status $?"
cat err.txt
ls -A kept | tr '\n' ' '; echo
wc -l <packs.jsonl
# the same run, the real reranker: every file, fused.jsonl reranked
"$hybrid" --db db --index idx --plan plan.yaml --keep kept flutter >packs.jsonl
echo "status $?"
ls -A kept | tr '\n' ' '; echo
jq -c '[.rank, .rerank.top_n]' kept/fused.jsonl | head -n 1
