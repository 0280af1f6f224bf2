# --help prints the synopsis of man/ev-eval.1, and exits 0; --version too.
ev-eval --help >help; echo "status $?"
sed -n '1,/^$/p' help | sed 's/^usage: //' | tr -s ' \n' '  ' | sed 's/ *$//' >from-help
sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p' "$CASEDIR/../../../man/ev-eval.1" | sed '1d;$d' |
	sed -e 's/^\.Nm$/ev-eval/' -e 's/^\.Op \(.*\)$/[\1]/' -e 's/^\.//' -e 's/ Ns = Ns /=/g' \
	    -e 's/Fl /-/g' -e 's/Ar //g' | tr -s ' \n' '  ' | sed 's/ *$//' >from-man
cat from-help; echo
cmp from-help from-man && echo "identical"
ev-eval --version | sed 's/[0-9][0-9.]*$/VERSION/'
