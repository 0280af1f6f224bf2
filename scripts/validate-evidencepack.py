#!/usr/bin/python3
"""Validate EvidencePacks (JSON Lines on stdin, or pretty JSON documents)
against schema/evidencepack-0.1.schema.json.  Prints "N packs valid" and exits
0, or names each invalid pack and exits 1.  Needs python3-jsonschema."""
import json
import os
import sys

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "schema", "evidencepack-0.1.schema.json")) as f:
    schema = json.load(f)
validator = jsonschema.Draft202012Validator(schema)
text = sys.stdin.read()
packs, pos, dec = [], 0, json.JSONDecoder()
try:
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            break
        pack, pos = dec.raw_decode(text, pos)
        packs.append(pack)
except ValueError as e:
    print("not JSON: %s" % e)
    sys.exit(1)
bad = 0
for i, pack in enumerate(packs, 1):
    for err in validator.iter_errors(pack):
        bad += 1
        path = "/".join(str(p) for p in err.absolute_path)
        print("pack %d: /%s: %s" % (i, path, err.message))
if bad:
    sys.exit(1)
print("%d pack%s valid" % (len(packs), "" if len(packs) == 1 else "s"))
