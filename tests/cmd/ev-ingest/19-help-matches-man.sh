# --help prints the synopsis of the man page (same options, same order).
ev-ingest --help | sed -n '1,4p' | tr -s ' ' | sed 's/^usage: //'
ev-ingest --version | sed 's/ [0-9].*//'
