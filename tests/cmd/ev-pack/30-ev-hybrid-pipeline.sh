# scripts/ev-hybrid end to end on a small store: both lanes, fused by the
# sample plan (weighted sum), packed; every pack valid against the schema.
top=$CASEDIR/../../..
cat >docs.jsonl <<'END'
{"id":"d1","title":"Flutter of swept wings","text":"The flutter of swept wings at high subsonic speed was measured in a wind tunnel. Flutter speed falls with sweep."}
{"id":"d2","title":"Panel flutter","text":"Panel flutter at supersonic speed: thin panels flutter when the dynamic pressure exceeds a critical value."}
{"id":"d3","title":"Heat transfer in laminar boundary layers","text":"Heat transfer through a laminar boundary layer on a flat plate with suction, compared with experiments."}
{"id":"d4","title":"Boundary layer transition","text":"Transition of the boundary layer from laminar to turbulent flow depends on roughness and heat transfer."}
{"id":"d5","title":"Wing loads in gusts","text":"Loads on a swept wing flying through gusts, with the wing treated as an elastic beam."}
END
ev-ingest --db db --quiet docs.jsonl
ev-embed --db db --train --dim 4 --min-df 1 >/dev/null
ev-ingest --db db --all docs.jsonl | ev-embed --db db --role document |
	ev-embed-load --db db --index idx 2>/dev/null
"$top/scripts/ev-hybrid" --db db --index idx --plan "$SAMPLES/plan.yaml" -k 2 --keep lanes \
	"flutter of swept wings" "heat transfer" >packs.jsonl
echo "status $?"
/usr/bin/python3 "$top/scripts/validate-evidencepack.py" <packs.jsonl
jq -c "[.explain.fusion.method, .explain.fusion.weights, (.evidences | length), .stats.returned, .plan.fusion.normalization]" packs.jsonl
jq -r ".lane" lanes/text.jsonl lanes/vector.jsonl lanes/fused.jsonl | sort -u
"$top/scripts/ev-hybrid" --db db 2>&1
echo "status $?"
