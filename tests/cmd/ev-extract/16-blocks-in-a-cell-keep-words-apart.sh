# The paragraphs, list items and tables inside a table's cell or a heading
# are apart on the page, and their words stay apart: "<td><p>one</p><p>two</p>"
# was the one word "onetwo", which no search for one or two found.  Inline
# elements still join ("b<b>o</b>ld" is "bold").
cat > page.html <<'HTML'
<h2><div>Part</div><div>Two</div></h2>
<p>b<b>o</b>ld</p>
<table>
<tr><th>Kind</th><th>Notes</th></tr>
<tr><td><p>one</p><p>two</p></td><td><ul><li>left</li><li>right</li></ul></td></tr>
<tr><td>outer<table><tr><td>inner</td></tr></table></td><td>x<br>y</td></tr>
</table>
HTML
ev-extract page.html | jq -r .text
