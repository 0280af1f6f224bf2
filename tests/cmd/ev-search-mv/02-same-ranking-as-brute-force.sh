# 40 pages of 2 to 9 random vectors of 6 dimensions and 5 queries of 3
# vectors, made here (a fixed-seed generator in awk), and MaxSim computed by
# brute force in awk: ev-search-mv ranks every query's pages as it does,
# by the Faiss candidate path (enough token vectors found to cover the best
# pages) and by --exact; and with few candidates, its first hit is still
# the best page.
exec 2>&1
awk 'function r() { s = (s * 1103515245 + 12345) % 2147483648; return int(s / 65536) % 2001 / 1000 - 1 }
BEGIN { s = 12345
	for (p = 0; p < 40; p++) {
		n = 2 + int(-r() * 4 + 4) % 8; line = sprintf("{\"id\":\"pg%02d\",\"model\":\"m\",\"vectors\":[", p)
		for (j = 0; j < n; j++) { line = line (j ? "," : "") "["
			for (d = 0; d < 6; d++) line = line (d ? "," : "") sprintf("%.3f", r())
			line = line "]" }
		print line "]}" > "pages.jsonl" }
	for (q = 0; q < 5; q++) { line = sprintf("{\"query_id\":\"q%d\",\"vectors\":[", q)
		for (j = 0; j < 3; j++) { line = line (j ? "," : "") "["
			for (d = 0; d < 6; d++) line = line (d ? "," : "") sprintf("%.3f", r())
			line = line "]" }
		print line "]}" > "queries.jsonl" } }'
ev-mv-load --index pages.mvi pages.jsonl 2>/dev/null
# brute force: "query_id page maxsim" for every pair, best first, ties by id
jq -r '.id as $p | .vectors | map(map(tostring) | join(" ")) | $p + "|" + join("|")' pages.jsonl > p.txt
jq -r '.query_id as $q | .vectors | map(map(tostring) | join(" ")) | $q + "|" + join("|")' queries.jsonl > q.txt
awk -F'|' 'NR == FNR { np++; pid[np] = $1; pn[np] = NF - 1; for (j = 2; j <= NF; j++) pv[np, j - 1] = $j; next }
	{ for (p = 1; p <= np; p++) { sum = 0
		for (i = 2; i <= NF; i++) { split($i, a, " "); best = -1e30
			for (j = 1; j <= pn[p]; j++) { split(pv[p, j], b, " "); d = 0
				for (t = 1; t <= 6; t++) d += a[t] * b[t]
				if (d > best) best = d }
			sum += best }
		printf "%s %s %.4f\n", $1, pid[p], sum } }' p.txt q.txt | sort -k1,1 -k3,3gr -k2,2 > brute.txt
ranked() { jq -r '"\(.query_id) \(.id) \(.score)"'; }
# same pages in the same order, scores within 1e-4 (float products)
same() { paste -d ' ' "$1" "$2" | awk '$1 != $4 || $2 != $5 || $3 - $6 > 1e-4 || $6 - $3 > 1e-4 { bad++ }
	END { exit bad > 0 || NR == 0 }'; }
ev-search-mv --index pages.mvi -k 40 --token-k 1000 queries.jsonl | ranked > faiss.txt
ev-search-mv --index pages.mvi -k 40 --exact queries.jsonl | ranked > exact.txt
same brute.txt faiss.txt && echo "candidate path: the brute-force ranking, every page of every query"
same brute.txt exact.txt && echo "--exact: the brute-force ranking"
wc -l < brute.txt
# Few candidates: the pages of each query vector's nearest token only; each
# is still scored exactly (its brute-force MaxSim), and the best page of a
# query of one vector is always among them.
ev-search-mv --index pages.mvi -k 40 --token-k 1 --candidates 3 queries.jsonl | ranked > few.txt
wc -l < few.txt
awk 'NR == FNR { s[$1 " " $2] = $3; next } { d = s[$1 " " $2] - $3; if (d > 1e-4 || d < -1e-4) bad++ }
	END { exit bad > 0 }' brute.txt few.txt && echo "few candidates: each scored exactly"
jq -c '{query_id, vectors: .vectors[:1]}' queries.jsonl | ev-search-mv --index pages.mvi -k 1 --token-k 1 --candidates 1 | ranked > one.txt
jq -c '{query_id, vectors: .vectors[:1]}' queries.jsonl | ev-search-mv --index pages.mvi -k 1 --exact | ranked | same - one.txt &&
    echo "one query vector, one token found: the best page"
