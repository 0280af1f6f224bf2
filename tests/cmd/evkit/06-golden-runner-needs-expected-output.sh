# The golden runner fails a case without its expected output (NN-what.out):
# one that compares nothing would pass whatever it did, as a file the cases
# share would if it were named .sh.  A scratch tree with the runner, one
# case with its .out and one without.
top=$CASEDIR/../../..
mkdir -p t/tests/cmd/x t/bin
cp "$top/tests/runner.sh" t/tests/
cp "$top/tests/cmd/run.sh" "$top/tests/cmd/skip.sh" t/tests/cmd/
echo 'echo hello' >t/tests/cmd/x/01-with-output.sh
echo hello >t/tests/cmd/x/01-with-output.out
echo 'echo hello' >t/tests/cmd/x/helper.sh
sh t/tests/cmd/run.sh t/bin
echo "exit $?"
