# --help is the header comment, and only that; --version as the commands
# print theirs; unknown options and missing values are usage errors.
hybrid=$CASEDIR/../../../scripts/ev-hybrid
"$hybrid" --help | head -2
"$hybrid" --help | tail -1
"$hybrid" --help | grep -c 'set -eu'
"$hybrid" --version | sed 's/[0-9][0-9.]*$/VERSION/'
"$hybrid" --frobnicate 2>&1; echo "status $?"
"$hybrid" --db 2>&1; echo "status $?"
"$hybrid" --db db -f q.jsonl "and an argument" 2>&1; echo "status $?"
