# --help prints the synopsis (the man page's) on stdout, exit 0.
ev-fuse --help | head -3
ev-fuse --version | sed "s/[0-9][0-9.]*/VERSION/"
