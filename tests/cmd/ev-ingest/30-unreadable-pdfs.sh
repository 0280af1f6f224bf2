# A PDF that ev-extract cannot read (truncated beyond repair, encrypted
# without the password) stops ev-ingest with ev-extract's message about the
# file, exit 2, and the store exactly as it was (the good files named with
# it are not stored either); --skip-invalid skips it and stores the rest.
# The password is handed to ev-extract with --password.  Pages of images
# only are warned about, and the rest of the PDF is stored.
. "$SKIPLIB"
command -v qpdf >/dev/null 2>&1 || skip "qpdf is not installed (scripts/install-deps.sh)"
M="$CASEDIR/../ev-extract/mkpdf.py"
python3 "$M" outline good.pdf
head -c 1500 good.pdf > truncated.pdf
qpdf --encrypt secret owner 256 -- good.pdf locked.pdf
python3 "$M" images scan.pdf
printf '# Notes\n\nPlain notes.\n' > notes.md
ev-ingest --db kb.db --quiet notes.md
sqlite3 kb.db .dump > before.sql
ev-ingest --db kb.db notes.md truncated.pdf good.pdf
echo "status $?"
ev-ingest --db kb.db locked.pdf
echo "status $?"
sqlite3 kb.db .dump | cmp -s - before.sql && echo "store unchanged"
ev-ingest --db kb.db --password wrong locked.pdf
echo "status $?"
ev-ingest --db kb.db --skip-invalid truncated.pdf good.pdf | jq -c '[.id, .page]'
echo "status $?"
ev-ingest --db kb.db --password secret locked.pdf | jq -c '[.id, .section_path, .page]'
echo "status $?"
ev-ingest --db kb.db scan.pdf | jq -c '[.id, .page, .page_end]'
echo "status $?"
