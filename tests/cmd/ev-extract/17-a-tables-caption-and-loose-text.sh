# A table's caption, and text a page leaves inside a table but outside its
# rows (a browser shows it before the table), are read before the table:
# they were left out, and a table of a caption alone lost all its text.
cat > page.html <<'HTML'
<p>before</p>
<table><caption>Pump ratings</caption>
<colgroup><col><col></colgroup>
<p>Figures from the 2021 tests.</p>
<tbody><tr><th>Model</th><th>Flow</th></tr><tr><td>P1</td><td>20</td></tr></tbody>
</table>
<table><caption>A caption alone</caption></table>
<p>after</p>
HTML
ev-extract page.html | jq -r .text
