# --help prints the synopsis (the man page's) on stdout, exit 0.
ev-pack --help | head -4
ev-pack --version | sed "s/[0-9][0-9.]*/VERSION/"
