# Numbered clauses are chunks of their own under their heading, with the
# clause id in section_path, section_id and metadata.clause_id; a lettered
# clause belongs to the numbered one before it; prose that starts with
# "Section 5 of" and a decimal number are not clauses.  Ingested again after
# an edit elsewhere, the clauses keep their chunk ids; the text lane's hits
# carry the clause id.
cat >plan.md <<'DOC'
# Local Plan

Introduction.

## Housing

Policy H2.1 Affordable housing
New homes must include affordable units.

(a) at least 30% on sites of 10 homes or more;
(b) on site, unless justified.

Policy H2.2: Housing mix
A mix of sizes is required.

Section 5 of the Act does not apply.

1.5 million homes are planned.
DOC
ev-ingest --db kb.db plan.md | jq -c '[.id, .section_path, .metadata.clause_id]'
sed 's/^Introduction\./A longer introduction./' plan.md >plan2.md && mv plan2.md plan.md
ev-ingest --db kb.db --all plan.md | jq -r '.id'
# the text lane's hits carry the clause id too
echo '"affordable units"' | ev-search-text --db kb.db -k 1 | jq -c '[.id, .metadata.clause_id]'
