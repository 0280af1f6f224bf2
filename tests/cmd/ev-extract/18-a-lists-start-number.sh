# An ordered list's start is read as a browser reads an integer and held to
# the nine digits of a Markdown list number: a start past the int's range
# was atoi()'s (undefined; -1 here), and counting on from 2147483647
# overflowed (undefined behaviour; -2147483648 here).
for start in 3 ' 7th' x -3 2147483647 99999999999999999999; do
	printf '<ol start="%s"><li>a</li><li>b</li></ol>\n' "$start" > list.html
	ev-extract list.html | jq -c .text
done
