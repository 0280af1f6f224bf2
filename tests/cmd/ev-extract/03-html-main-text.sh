# HTML: the text of <main> only (navigation, the site's header and footer,
# scripts, styles, asides, forms and hidden elements left out; main's own
# header kept); headings, a nested list, a fenced code block (its language
# from the class), a pipe table with an escaped '|', a quote and a <br>; the
# title from <title>, the language from <html lang>.
cat > page.html <<'HTML'
<!DOCTYPE html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Pump  guide | Acme</title>
<style>body { color: red }</style><script>var x = "<h1>no</h1>";</script></head>
<body>
<header><nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav><h1>Site banner</h1></header>
<main>
<header><p class="byline">By the pump team</p></header>
<h1>Pump   guide</h1>
<p>The pump moves <em>water</em> from the well.<br>
It needs no priming.</p>
<aside>Related: valves</aside>
<h2>Install &amp; wire</h2>
<ol start="3"><li>Mount the pump.</li><li>Wire it:<ul><li>live</li><li>neutral</li></ul></li></ol>
<pre><code class="language-sh">ev-extract doc.pdf |
    ev-ingest --db kb.db
</code></pre>
<h3>Ratings</h3>
<table><thead><tr><th>Model</th><th>Flow | l/min</th></tr></thead>
<tbody><tr><td>P1</td><td>20</td></tr><tr><td>P2</td><td><b>35</b></td></tr></tbody></table>
<blockquote><p>Never run it dry.</p></blockquote>
<form><input name="q"><button>Search</button></form>
<p hidden>secret</p><div aria-hidden="true">also secret</div>
<p># not a heading</p>
<h4>Café</h4><p>Ünïcode &eacute; &#x2014; kept.</p>
</main>
<footer>Copyright 2026</footer>
</body></html>
HTML
ev-extract page.html > out.jsonl
echo "status $?"
cat out.jsonl
python3 "$CASEDIR/show.py" < out.jsonl
# no <main>: the articles; no article either: the body, header and footer out
printf '<body><nav>menu</nav><article><h2>One</h2><p>first</p></article><p>between</p><article><p>second</p></article></body>' > articles.html
printf '<html><body><header>top</header><h1>Only h1</h1><p>body text</p><footer>foot</footer></body></html>' > bare.htm
ev-extract articles.html bare.htm | python3 "$CASEDIR/show.py"
# nothing but navigation and scripts: an empty text, and a warning
printf '<nav>menu</nav><script>x()</script>' > furniture.html
ev-extract furniture.html | jq -c '[.id, .text]'
