#!/usr/bin/python3
"""Validate EvidencePacks (JSON Lines, or pretty JSON documents, in the
files named or on stdin)
against schema/evidencepack-0.1.schema.json.  Prints "N packs valid" and exits
0, or names each invalid pack and exits 1.  With --toolrun, the records are
the lines of a --log file, checked against schema/toolrun-0.1.schema.json
("N ToolRun lines valid").  Needs python3-jsonschema."""
import json
import os
import sys

import jsonschema

args = sys.argv[1:]
toolrun = args[:1] == ["--toolrun"]
files = args[1:] if toolrun else args
if any(f.startswith("--") for f in files):
    print("usage: validate-evidencepack.py [--toolrun] [FILE ...]", file=sys.stderr)
    sys.exit(2)
name, what = ("toolrun", "ToolRun line") if toolrun else ("evidencepack", "pack")
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "schema", name + "-0.1.schema.json")) as f:
    schema = json.load(f)
validator = jsonschema.Draft202012Validator(schema)
text = ""
for path in files or ["-"]:
    if path == "-":
        text += sys.stdin.read()
    else:
        with open(path) as f:
            text += f.read() + "\n"
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
        print("%s %d: /%s: %s" % (what, i, path, err.message))
if bad:
    sys.exit(1)
print("%d %s%s valid" % (len(packs), what, "" if len(packs) == 1 else "s"))
