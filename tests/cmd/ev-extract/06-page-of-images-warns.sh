# A page of images and no text is warned about (a scan: OCR it first), and the
# run still succeeds; the page is listed, with an empty range at the end of
# the text.
python3 "$CASEDIR/mkpdf.py" images scan.pdf
ev-extract scan.pdf > out.jsonl
echo "status $?"
python3 "$CASEDIR/show.py" < out.jsonl
