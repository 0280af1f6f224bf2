# A PDF's Title is made one line, as an HTML page's <title> is: white space
# (new lines, tabs) one space, none at either end, other control characters
# dropped.  A Title of nothing else is no title: the first heading is.
# (Such titles were written as they were: "   ", "\u0001\u0002", a title of
# three lines.)  poppler ends a Title at a NUL byte: what comes before it is
# the title, and a NUL first leaves the first heading.  Author, subject and
# keywords are made one line too.
for hex in 56616C7665004E6F746573 004E6F746573 FEFF0056006100000000 \
    FEFF00560061006C0076006500000020004E006F007400650073 \
    2020200A09 0102 0A56616C76650A094E6F7465730D0A \
    FEFF00560061006C007600650085004E006F007400650073007F0009; do
	python3 "$CASEDIR/mkpdf.py" titled doc.pdf "$hex"
	ev-extract doc.pdf > out.jsonl
	echo "status $? $hex: $(jq -c '[.title, .metadata.pdf_title]' out.jsonl)"
done
