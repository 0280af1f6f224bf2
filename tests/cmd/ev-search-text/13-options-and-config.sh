# Field weights, marks and snippet length from flags and --config; a flag
# overrides the file; unknown config keys are warned about; bad values exit 2.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"boundary"' | ev-search-text --db kb.db --weight title=0 | jq -r .doc_id | tr '\n' ' '; echo
echo '"boundary"' | ev-search-text --db kb.db --weight title=50 | jq -r .doc_id | tr '\n' ' '; echo
cat >c.yaml <<'Y'
db: kb.db
k: 1
text:
  weights:
    title: 0
  snippet:
    open: "<b>"
    close: "</b>"
    tokens: 4
  colour: blue
Y
echo '"boundary"' | ev-search-text --config c.yaml | jq -r '[.doc_id, .snippet] | @tsv'
echo '"boundary"' | ev-search-text --config c.yaml --mark '**,**' --snippet-tokens 6 -k 2 | jq -r '[.doc_id, .snippet] | @tsv'
printf 'text:\n  fuzzy: 7\n' >bad.yaml
echo '"x"' | ev-search-text --db kb.db --config bad.yaml; echo "status $?"
for a in '--weight title' '--weight nosuch=1' '--weight text=-1' '--mark x' '--fuzzy 4' '--snippet-tokens 0' '--threads 3'; do
	echo '"x"' | ev-search-text --db kb.db $a; echo "status $?"
done
echo '"x"' | ev-search-text --db kb.db --weight title=0 --weight section_title=0 --weight text=0; echo "status $?"
# one thread or two: the same hits
[ "$(echo '"boundary layer"' | ev-search-text --db kb.db --threads 1)" = "$(echo '"boundary layer"' | ev-search-text --db kb.db)" ] && echo "threads: same hits"
