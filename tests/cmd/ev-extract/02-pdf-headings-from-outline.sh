# A PDF with an outline: its entries are the headings (the level of each its
# depth), matched to the lines of their pages, whatever the fonts say; the
# document's Title is the record's title.
python3 "$CASEDIR/mkpdf.py" outline valve.pdf
ev-extract valve.pdf | python3 "$CASEDIR/show.py"
