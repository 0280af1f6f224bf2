# The text format is for a terminal: control characters a document holds
# (an escape sequence that retitles the window or colours what follows, a
# carriage return and backspaces that write over text) are left out of the
# text and its fields, but a tab; they were written as they were, for the
# terminal to obey.  jsonl keeps them.  (ev-ingest itself drops C1
# characters such as U+009B.)
printf '%s\n' '{"id":"a","title":"T\u001b[2J\u009b1m","text":"\u001b]0;pwned\u0007\u001b[31mred\ttext\r\u0008\u0008over\r\nnext line\u009b0m"}' > doc.jsonl
ev-ingest --db kb.db --quiet doc.jsonl
ev-show --db kb.db --format text a:_top:0 | cat -A
ev-show --db kb.db a:_top:0 | jq -c '[.title, .text]'
