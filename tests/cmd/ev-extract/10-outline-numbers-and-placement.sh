# Outline entries match their lines without the section numbers the lines
# carry ("1.1 Limits" is the entry "Limits"); an entry no line holds is
# written as a heading where its destination points on its page, not at the
# top.
python3 "$CASEDIR/mkpdf.py" numbered valve.pdf
ev-extract valve.pdf | python3 "$CASEDIR/show.py"
