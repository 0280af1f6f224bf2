# Found by type, a heading holds two letters at least and no dot leaders: the
# lines of a table of contents and a page number set in a heading's type are
# body text.
python3 "$CASEDIR/mkpdf.py" toc book.pdf
ev-extract book.pdf | python3 "$CASEDIR/show.py"
