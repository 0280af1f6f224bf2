# --format text is a report: full ids, the title once per document, the
# snippet around its first matched word, wrapped to $COLUMNS (80 when unset
# and not a terminal), counting display columns: a Chinese character takes
# two, whatever the locale (the tests run with LC_ALL=C).
export EV_UUID_SEED=3
cat >hits.jsonl <<'END'
{"query_id":"z1","query":"密钥轮换","id":"handbook/安全.md:密钥:0","doc_id":"handbook/安全.md","title":"安全基础","section_title":"密钥管理","rank":1,"score":2.5,"lane":"text","snippet":"所有密钥都保存在密钥管理器中，绝不出现在源代码、日志、工单或聊天中。如果密钥泄露，请立即«轮换»它，并通知安全团队。轮换不需要停机：每个客户端可以同时拥有两个有效密钥。","source_uri":"handbook/安全.md"}
{"query_id":"z1","query":"密钥轮换","id":"handbook/安全.md:密钥:1","doc_id":"handbook/安全.md","title":"安全基础","section_title":"审计","rank":2,"score":1.5,"lane":"text","snippet":"Mixed text 混合文本 with «words» and 汉字 together.","source_uri":"handbook/安全.md"}
{"query_id":"z2","query":"rotate a leaked client secret","id":"samples/api/authentication.md:api-authentication/rotating-client-secrets:0","doc_id":"samples/api/authentication.md","title":"API authentication","section_title":"Rotating client secrets","rank":1,"score":0.9,"lane":"text","snippet":"Tokens expire after one hour and must be refreshed before they do; a refresh needs the client id and the client credentials of the calling service, which the platform team issues on request. Client «secrets» must be «rotated» every 90 days, and at once when a «secret» may have «leaked». Each «client» can have two active «secrets», so «rotation» needs no downtime.","source_uri":"samples/api/authentication.md"}
END
COLUMNS=40 ev-pack --format text hits.jsonl
echo "status $?"
# (display columns as Unicode's East Asian Width counts them)
ev-pack --format text hits.jsonl | /usr/bin/python3 -c '
import sys, unicodedata
lines = sys.stdin.buffer.read().decode().split("\n")
w = [sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l) for l in lines]
print(len(lines), "lines, the widest", max(w), "columns")'
ev-pack --format text hits.jsonl | grep -c 'samples/api/authentication.md:api-authentication/rotating-client-secrets:0'
# an empty pack says so
printf '"no hit for this one"\n' >q.jsonl
ev-pack --format text --queries q.jsonl </dev/null
