# The store the ev-rerank cases share: five short documents about bees, one
# with the query's words side by side, one with them in its title, one with
# them far apart, one of two sections (Markdown), one that only shares one word.
ev-ingest --db kb.db --quiet <<'JSONL'
{"id":"apart","title":"Notes","text":"Varroa numbers matter. Many other things happen in a colony over the year, and much later the mites are treated."}
{"id":"adjacent","title":"Counting","text":"A varroa mite count tells a beekeeper when to treat the colony."}
{"id":"titled","title":"Varroa mites","text":"How to count them with an alcohol wash, and when to treat."}
{"id":"long","title":"Hive year","source_type":"markdown","text":"# Spring\n\nThe colony grows and the queen lays.\n\n# Autumn\n\nVarroa mites are counted before winter bees are raised."}
{"id":"honey","title":"Honey","text":"Honey is extracted in summer; varroa is not discussed here."}
JSONL
