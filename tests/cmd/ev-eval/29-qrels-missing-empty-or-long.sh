# A qrels file that cannot be read exits 1; an empty one, one with only a
# comment, one with a line over 64 KiB or a NUL byte exits 2.
{
ev-eval --qrels nosuch </dev/null; echo "status $?"
: >empty; ev-eval --qrels empty </dev/null; echo "status $?"
printf '# only a comment\n\n' >comment; ev-eval --qrels comment </dev/null; echo "status $?"
awk 'BEGIN { printf "q1 "; for (i = 0; i < 70000; i++) printf "d"; print " 1" }' >long
ev-eval --qrels long </dev/null; echo "status $?"
printf 'q1 d1 1\nq1 d\000x 1\n' >nul; ev-eval --qrels nul </dev/null; echo "status $?"
printf 'q1 d1 1\nq\351 d1 1\n' >latin1; ev-eval --qrels latin1 </dev/null; echo "status $?"
} 2>&1
