# A file that cannot be opened: a message naming it, exit 2 (as lib/base/jsonl.c rules).
ev-fuse "$CASEDIR/text.jsonl" no-such-file.jsonl
