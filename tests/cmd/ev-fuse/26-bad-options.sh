# Absurd options: exit 2 with a message and nothing read.
for args in "-k 0" "-k -3" "--rrf-k 0" "--rrf-k nan" "--method borda" "--weight vector" \
	"--weight vector=-1" "--weight vec/tor=1" "--norm l2" "--group section" "--frobnicate"; do
	ev-fuse $args </dev/null
	echo "status $?"
done 2>&1
