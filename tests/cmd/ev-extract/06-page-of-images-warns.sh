# Pages of images and no text are warned about (a scan: OCR it first), once a
# run of them, and the run still succeeds; each page is listed, with an empty
# range where the text stands.
python3 "$CASEDIR/mkpdf.py" images scan.pdf
ev-extract scan.pdf > out.jsonl
echo "status $?"
python3 "$CASEDIR/show.py" < out.jsonl
