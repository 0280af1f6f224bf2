# A PDF that cannot be read (truncated beyond repair, random bytes, encrypted
# without the right password, not a PDF at all by its name) is reported as
# FILE: what, and left out; the files after it are extracted, and the exit
# status is 2.  The right --password opens the encrypted one; one encrypted
# with an empty user password needs none.  A PDF that lost only its last
# bytes (startxref) is repaired, as readers do, and read.
. "$SKIPLIB"
command -v qpdf >/dev/null 2>&1 || skip "qpdf is not installed (scripts/install-deps.sh)"
python3 "$CASEDIR/mkpdf.py" outline good.pdf
head -c 1500 good.pdf > truncated.pdf
printf 'RANDOMBYTES\001\002\377\376 %%PDF-1.4 no xref at all' > random.pdf
qpdf --encrypt secret owner 256 -- good.pdf locked.pdf
qpdf --encrypt "" owner 256 -- good.pdf owner-only.pdf
printf 'x' > notes.txt
ev-extract truncated.pdf random.pdf locked.pdf notes.txt missing.pdf good.pdf > out.jsonl
echo "status $?"
jq -r .id out.jsonl
ev-extract --password secret locked.pdf owner-only.pdf > out2.jsonl
echo "status $?"
jq -c '[.id, .title, .metadata.page_count]' out2.jsonl
ev-extract --password wrong locked.pdf
echo "status $?"
n=$(wc -c < good.pdf)
head -c $((n - 20)) good.pdf > cut.pdf
ev-extract cut.pdf | jq -c '[.id, .title, .metadata.page_count]'
