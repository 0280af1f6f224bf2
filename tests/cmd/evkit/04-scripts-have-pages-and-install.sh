# The commands that are shell scripts, scripts/ev-hybrid and scripts/ev-shard,
# have man pages as the others do, whose OPTIONS name every flag their --help
# names; make install installs both scripts and both pages with the rest.
top=$CASEDIR/../../..
for s in ev-hybrid ev-shard; do
	man=$top/man/$s.1
	[ -f "$man" ] || { echo "$s: no man page"; continue; }
	# the flags of the usage lines, and those an option line starts with
	missing=$( { sh "$top/scripts/$s" --help | grep -E "^ *$s " | grep -oE -- '[ []--?[a-z][a-z-]*' | tr -d ' ['
	    sh "$top/scripts/$s" --help | grep -oE -- '^ *--?[a-z][a-z-]*(, --?[a-z][a-z-]*)?' |
	    tr ',' '\n' | tr -d ' '; } | sort -u | while read -r flag; do
		grep -qE "^\\.It Fl ${flag#-}( |\$)|^\\.It Fl .*, Fl ${flag#-}( |\$)" "$man" ||
		    printf '%s ' "$flag"
	done)
	echo "$s: flags of --help without an item in the man page: ${missing:-none}"
done
make -s -n -C "$top" install DESTDIR=/nonexistent/root PREFIX=/usr 2>&1 |
    grep -oE 'scripts/ev-(hybrid|shard)|man/ev-(hybrid|shard)\.1' | sort -u
