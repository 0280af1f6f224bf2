# A PDF without an outline: headings found from font size and weight (the
# title at 20 pt bold, headings at 15 pt bold and at 11 pt bold over 11 pt
# body text give levels 1, 2 and 3; a heading set on two lines is one); body
# lines that Markdown would read as a heading or a setext underline are
# escaped; the pages and the lines' boxes map back to the text.
python3 "$CASEDIR/mkpdf.py" fonts manual.pdf
ev-extract ./manual.pdf > out.jsonl
echo "status $?"
cat out.jsonl
python3 "$CASEDIR/show.py" < out.jsonl
