# Usage: no operand, an unknown flag, --password without its value, and a
# directory with nothing to extract (exit 2, each with a message).
ev-extract; echo "status $?"
ev-extract --bogus x.pdf; echo "status $?"
ev-extract --password; echo "status $?"
mkdir empty; printf x > empty/a.txt
ev-extract empty; echo "status $?"
