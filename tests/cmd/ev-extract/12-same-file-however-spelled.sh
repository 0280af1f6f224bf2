# A file named twice is extracted once, however the second name spells it:
# sub/../sub/a.html, ./sub//a.html and the directory sub are one file, as
# ev-ingest's ids take it (its directory resolved, its own name kept).
# (A spelling through '..' gave a second record of the same file under
# another id, which ev-ingest stored as a second document.)  A link under
# another name is another file name, and is written under its own id.
exec 2>&1
mkdir sub
printf '<html><head><title>A page</title></head><body><p>Its text.</p></body></html>\n' > sub/a.html
ln -s a.html sub/b.html
ev-extract sub/a.html sub/../sub/a.html ./sub//a.html sub > out.jsonl; echo "exit $?"
jq -r .id out.jsonl
