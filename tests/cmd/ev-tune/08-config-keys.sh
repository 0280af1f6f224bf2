# Every flag but -o is a config key too, checked as the flag is (with the
# config's message), before anything is opened.
exec 2>&1
printf 'folds: 1\n' >bad.yaml
ev-tune --config bad.yaml --db none.db; echo "status $?"
printf 'budget: 0\n' >bad.yaml
ev-tune --config bad.yaml --db none.db; echo "status $?"
printf 'level: 0\n' >bad.yaml
ev-tune --config bad.yaml --db none.db; echo "status $?"
printf 'pseudo: 1\n' >bad.yaml
ev-tune --config bad.yaml; echo "status $?"
ev-tune --seed -1; echo "status $?"
