# A page's main content is every <main> (else every <article>) however many
# there are: an archive page of 300 articles kept the first 256 only, the
# rest of its text lost without a word.
i=1
{ printf '<html><body><nav>menu</nav>\n'
  while [ $i -le 300 ]; do printf '<article><h2>Post %d</h2><p>word%d</p></article>\n' $i $i; i=$((i + 1)); done
  printf '</body></html>\n'; } > archive.html
ev-extract archive.html | jq -r .text > text
grep -c '^## Post' text
grep -c '^word' text
tail -n 3 text
