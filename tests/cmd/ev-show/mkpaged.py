# mkpaged.py KIND: a paged JSON Lines record (metadata.pages and .lines, as
# ev-ingest(1) reads them) on stdout, each line of its text a line of a page.
#   rows      40 rows, 20 a page, in one paragraph (cut between words)
#   sentences sentences that wrap across lines, 6 lines a page
#   table     a Markdown table of 40 rows, 20 a page (split into parts that
#             carry its header rows)
import json
import sys

kind = sys.argv[1]
if kind == "rows":
    rows = ["row%02d alpha %d beta %d" % (i, i * 7, i * 13) for i in range(1, 41)]
    per, doc = 20, "rows"
elif kind == "sentences":
    words = " ".join("Sentence %d ends here." % i for i in range(1, 25)).split(" ")
    rows = [" ".join(words[i:i + 7]) for i in range(0, len(words), 7)]
    per, doc = 6, "wrap"
else:
    rows = ["| Item | Count |", "| --- | --- |"] + \
        ["| row%02d | %d |" % (i, i * 7) for i in range(1, 39)]
    per, doc = 20, "table.md"
text, lines, pages = "", [], []
for p in range(1, (len(rows) + per - 1) // per + 1):
    ps = len(text)
    for r in rows[(p - 1) * per:p * per]:
        y = 10 * (len(lines) % per)
        lines.append({"page": p, "offset_start": len(text), "offset_end": len(text) + len(r),
                      "bbox": [10, y, 300, y + 8]})
        text += r + "\n"
    pages.append({"page": p, "offset_start": ps, "offset_end": len(text)})
print(json.dumps({"id": doc, "text": text, "metadata": {"pages": pages, "lines": lines}}))
