# A chunk by its content_ref and by its bare id, a document (its chunks in
# order), a clause's chunk with its clause id, as JSON Lines and as text; a
# reference the store no longer holds is named on stderr, the others still
# shown, and the exit status is 1.
exec 2>&1
cat >plan.md <<'DOC'
# Local Plan

Introduction.

## Housing

Policy H2.1 Affordable housing
New homes must include affordable units.

(a) at least 30% on sites of 10 homes or more;
DOC
ev-ingest --db kb.db --quiet plan.md
ev-show --db kb.db 'chunk:plan.md:local-plan/housing/policy-h2-1-a:0' plan.md:local-plan:0 |
	jq -c '[.ref, .kind, .id, .section_path, .text, .offset_start, .offset_end, .metadata]'
ev-show --db kb.db doc:plan.md | jq -c '[.kind, .title, .text]'
ev-show --db kb.db --format text plan.md:local-plan/housing/policy-h2-1:0 chunk:plan.md:gone:0 doc:plan.md
echo "status $?"
