# Two runs at once share no scratch file, into one --keep DIR too: each has
# a directory of its own (mktemp; inside DIR with --keep, under TMPDIR
# without).  With --keep, the scratch files were DIR/stage.err, plan.k,
# vector.err, query-vectors.jsonl ... and the lanes wrote DIR/text.jsonl as
# they went, so that two runs into one DIR wrote the same files at once (the
# second run answered the first one's query, its queries.jsonl overwritten):
# files of those names that were there are now left alone.  Here each run's
# text lane waits, holding its output open, until the other's has started.
. "$CASEDIR/store.inc"
mkdir kept tmp stub
for f in stage.err stage-text.err plan.k vector.err vector.said query-vectors.jsonl; do
	echo "not ev-hybrid's" >"kept/$f"
done
cat kept/* | cksum >before.txt
real=$(command -v ev-search-text)
cat >stub/ev-search-text <<END
#!/bin/sh
# where this run writes its hits, then wait for the other run (20 s at most)
out=\$(readlink /proc/\$\$/fd/1)
echo "\$out" >>"$PWD/scratch.txt"
echo >>"$PWD/arrived"
i=0
while [ \$(wc -l <"$PWD/arrived") -lt 2 ] && [ \$i -lt 200 ]; do sleep 0.1; i=\$((i + 1)); done
exec "$real" "\$@"
END
chmod +x stub/ev-search-text
two() {	# two runs at once, with the arguments $@
	rm -f arrived scratch.txt
	EV_BIN=$PWD/stub TMPDIR=$PWD/tmp "$hybrid" --db db --index idx "$@" flutter >a.jsonl 2>a.err &
	EV_BIN=$PWD/stub TMPDIR=$PWD/tmp "$hybrid" --db db --index idx "$@" 'heat transfer' >b.jsonl 2>b.err
	sb=$?
	wait $!
	echo "status $? $sb"
	cat a.err b.err
	echo "runs met: $(wc -l <arrived)"
	sed "s|^$PWD/||; s|\.ev-hybrid\.[^/]*/|.ev-hybrid.XXXXXX/|; s|ev-hybrid\.[^/.]*/|ev-hybrid.XXXXXX/|" scratch.txt | sort -u
	echo "scratch directories: $(sed 's|/[^/]*$||' scratch.txt | sort -u | wc -l)"
	jq -c '[.query, (.evidences | length > 0)]' a.jsonl b.jsonl
}
two --plan "$SAMPLES/plan.yaml" --keep kept
cat kept/stage.err kept/stage-text.err kept/plan.k kept/vector.err kept/vector.said \
	kept/query-vectors.jsonl | cksum | cmp -s - before.txt && echo "files of the old names untouched"
ls -A kept | tr '\n' ' '; echo
two
ls -A tmp | wc -l
