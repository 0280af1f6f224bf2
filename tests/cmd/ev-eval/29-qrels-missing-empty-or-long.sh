# A qrels file that is missing or a directory is bad usage, exit 2 (finding
# F4: it exited 1, unlike the run files); so is an empty one, one with only a
# comment, one with a line over 64 KiB or a NUL byte.
{
ev-eval --qrels nosuch </dev/null; echo "status $?"
mkdir qdir; ev-eval --qrels qdir </dev/null; echo "status $?"
: >empty; ev-eval --qrels empty </dev/null; echo "status $?"
printf '# only a comment\n\n' >comment; ev-eval --qrels comment </dev/null; echo "status $?"
awk 'BEGIN { printf "q1 "; for (i = 0; i < 70000; i++) printf "d"; print " 1" }' >long
ev-eval --qrels long </dev/null; echo "status $?"
printf 'q1 d1 1\nq1 d\000x 1\n' >nul; ev-eval --qrels nul </dev/null; echo "status $?"
printf 'q1 d1 1\nq\351 d1 1\n' >latin1; ev-eval --qrels latin1 </dev/null; echo "status $?"
} 2>&1
