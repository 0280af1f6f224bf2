# A --keep DIR that an earlier run wrote holds this run's files only: a
# run without --index after one with the vector lanes (or a plain run after
# a routed one) left the earlier vector.jsonl, vector_feedback.jsonl and
# routed.jsonl beside its own text.jsonl, as if they were its lanes' hits.
. "$CASEDIR/store.inc"
cat >routed.yaml <<'END'
routing:
  default: [text, vector]
fusion: {method: rrf}
END
"$hybrid" --db db --index idx --plan "$SAMPLES/plan.yaml" --keep kept flutter >/dev/null
echo "status $?"
ls kept | tr '\n' ' '; echo
"$hybrid" --db db --keep kept 'heat transfer' >/dev/null
echo "status $?"
ls kept | tr '\n' ' '; echo
"$hybrid" --db db --index idx --plan routed.yaml --keep kept flutter >/dev/null
echo "status $?"
ls kept | tr '\n' ' '; echo
"$hybrid" --db db --index idx --keep kept 'heat transfer' >/dev/null
echo "status $?"
ls kept | tr '\n' ' '; echo
for f in kept/*.jsonl; do
	printf '%s: %s\n' "${f#kept/}" "$(jq -r '.query? // .' "$f" | sort -u | tr '\n' ' ')"
done
