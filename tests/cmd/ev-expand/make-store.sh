# The store the ev-expand cases share: three linked Markdown documents (one
# of three sections) and four dated notes, one listing a link in metadata.
mkdir -p docs/sub
printf '# Alpha\n\nAlpha talks about hives. See [beta](beta.md), [web](http://x.org) and [mail](mailto:a@b).\n\n## Part two\n\nMore alpha text about mites.\n\n## Part three\n\nThird part of alpha.\n' >docs/alpha.md
printf '# Beta\n\nBeta covers varroa. Back to [alpha](./alpha.md#part-two), on to [gamma](sub/../gamma.md), [missing](nope.md).\n' >docs/beta.md
printf '# Gamma\n\nGamma is about honey.\n' >docs/gamma.md
ev-ingest --db kb.db --quiet docs
ev-ingest --db kb.db --quiet <<'JSONL'
{"id":"news-1","text":"Mites rose in March.","published_date":"2026-03-01"}
{"id":"news-2","text":"Mites fell in April.","published_date":"2026-04-02"}
{"id":"news-3","text":"Honey flow in June.","published_date":"2026-06-20"}
{"id":"news-4","text":"Old report on mites.","published_date":"2020-01-01","metadata":{"links":["news-3"]}}
JSONL
