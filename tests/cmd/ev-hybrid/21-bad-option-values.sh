# Values of ev-hybrid's own options are checked before anything runs, and
# the message names the option as it was given to ev-hybrid (not the -k of
# the stage that takes it): an empty value too, which would otherwise leave
# the default in effect without a word.
hybrid=$CASEDIR/../../../scripts/ev-hybrid
for a in "--lane-k abc" "--lane-k 0" "--lane-k 100001" "--lane-k ''" "--lane-k 99999999999999999999" \
	"-k -1" "--k 1e3" "-k ''" "--format xml"; do
	eval "\"\$hybrid\" --db nowhere.db $a flutter" >out 2>&1
	echo "status $?: $(head -1 out)"
done
# (a store not there: the values were good, the next stage says so)
"$hybrid" --db nowhere.db --lane-k +007 -k 0 --format text flutter 2>&1 | head -1
