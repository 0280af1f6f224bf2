#!/usr/bin/env python3
"""Show ev-extract's records readably: each page's and each line's text as
its offsets give it (bytes of the UTF-8 text), with the boxes, then the text.
usage: show.py < records.jsonl"""
import json
import sys

for raw in sys.stdin:
    r = json.loads(raw)
    text = r["text"].encode("utf-8")
    m = r.get("metadata", {})
    print("id %s | title %s | language %s | format %s" %
          (r["id"], r.get("title"), r.get("language"), m.get("format")))
    rest = {k: v for k, v in m.items() if k not in ("pages", "lines", "format")}
    if rest:
        print("metadata", json.dumps(rest, sort_keys=True))
    lines = m.get("lines", [])
    for p in m.get("pages", []):
        s, e = p["offset_start"], p["offset_end"]
        print("page %d [%d,%d) %gx%g: %r" % (p["page"], s, e, p["width"], p["height"],
                                          text[s:e].decode()[:60]))
        for ln in lines:
            if ln["page"] == p["page"]:
                assert s <= ln["offset_start"] <= ln["offset_end"] <= e, ln
                print("  [%d,%d) %s %r" % (ln["offset_start"], ln["offset_end"],
                                           " ".join("%g" % v for v in ln["bbox"]),
                                           text[ln["offset_start"]:ln["offset_end"]].decode()))
    print("--- text")
    print(r["text"])
    print("---")
