# On a terminal, ev-ingest shows ev-extract's progress (pages read) while a
# long PDF is extracted, then its own; elsewhere (a file, a pipe) neither
# prints anything.
. "$SKIPLIB"
command -v script >/dev/null 2>&1 || skip "script (bsdutils) is not installed"
python3 "$CASEDIR/../ev-extract/mkpdf.py" many long.pdf 400
script -qec "ev-ingest --db kb.db --quiet long.pdf" /dev/null > tty.txt
echo "status $?"
tr '\r' '\n' < tty.txt | grep -q '^ev-extract: [0-9]*/800 page reads' && echo "ev-extract's progress shown"
ev-ingest --db kb2.db --quiet long.pdf 2> err.txt
echo "status $?"
wc -c < err.txt
