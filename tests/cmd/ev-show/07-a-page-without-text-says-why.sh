# A page of a PDF that the store holds no text of (a scan, images alone) was
# "not in the store (deleted, or stored again under another id)", as was a
# page past the document's last and a page of a document without pages: the
# page is there, nothing was deleted.  Each now says why it shows nothing,
# exit 1; the pages with text are shown.
exec 2>&1
python3 "$CASEDIR/../ev-extract/mkpdf.py" images scan.pdf
printf '# Notes\n\nNo pages here.\n' > notes.md
ev-ingest --db kb.db --quiet scan.pdf notes.md 2>/dev/null
ev-show --db kb.db 'doc::scan.pdf::page-1' 'doc::scan.pdf::page-4' | jq -c '[.page, .text]'
ev-show --db kb.db 'doc::scan.pdf::page-2' 'doc::scan.pdf::page-5' 'doc::scan.pdf::page-6' \
	'doc::scan.pdf::page-1::bbox-0,300,10,400' 'doc::notes.md::page-1' 'doc::gone.pdf::page-1'
echo "status $?"
