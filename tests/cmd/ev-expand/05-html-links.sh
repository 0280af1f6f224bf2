# Links between HTML pages are followed: ev-extract keeps a relative link
# (<a href="feeding.html">) as a Markdown link in the page's text, so the
# page it leads to comes in by a link hop; a link with a scheme (a URL) or
# to a fragment of the page keeps only its text and is not followed.
mkdir site
printf '<html><body><main><h1>Hives</h1><p>Read the <a href="guides/feeding.html">feeding guide</a>, the <a href="https://example.com/bees.html">bee site</a> and the <a href="#top">top</a>.</p></main></body></html>\n' >site/hives.html
mkdir site/guides
printf '<html><body><main><h1>Feeding</h1><p>Feed sugar syrup in autumn.</p></main></body></html>\n' >site/guides/feeding.html
ev-extract site/hives.html | jq -r .text
ev-ingest --db kb.db --quiet site
echo '"hives"' | ev-search-text --db kb.db -k 1 --feedback 0 | ev-expand --db kb.db |
	jq -c '[.rank, .doc_id, .lane, .evidence[-1].lane, .evidence[-1].from]'
