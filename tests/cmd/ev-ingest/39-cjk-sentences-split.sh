# A long paragraph of Chinese or Japanese, which puts no space after a
# sentence, is split between its sentences (after 。, ！ or ？) like any
# other: no chunk is larger than --size, and each ends a sentence.
awk 'BEGIN { for (i = 0; i < 40; i++) printf "风洞试验测量机翼的升力。"; print "" }' >zh.txt
awk 'BEGIN { for (i = 0; i < 20; i++) printf "翼の揚力を測りますか？はい！"; print "" }' >ja.txt
ev-ingest --db kb.db --size 200 --overlap 0 zh.txt ja.txt |
	jq -r '[.doc_id, .chunk_index, (.text | utf8bytelength), (.text | .[-1:])] | @tsv'
