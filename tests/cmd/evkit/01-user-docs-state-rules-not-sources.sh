# What a user reads (README, HACKING, docs/, man pages, --help and the
# commands' sources, the headers of lib/, the scripts a user runs, samples/)
# states each format and rule itself: it names no design note ("seed 002",
# seeds/), no CONTRACT.md and no ../shared directory, which a user of a clone
# does not have.  And the comments of samples/plan.yaml quote no measured
# figure (three decimals or more): those live in docs/ only, each beside the
# command that measures it again.
top=$CASEDIR/../../..
cd "$top" || exit 1
echo "design notes named:"
grep -rniE 'seed 0[0-9]{2}|seeds/|CONTRACT\.md|\.\./shared' README.md HACKING.md docs man \
	samples cmd lib/*/*.h scripts/ev-hybrid scripts/external-embed-example || echo none
echo "figures in the comments of samples/plan.yaml:"
sed -n 's/^[^#]*#//p' samples/plan.yaml | grep -nE '[0-9]\.[0-9]{3}' || echo none
