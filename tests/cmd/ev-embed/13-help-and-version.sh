ev-embed --help | head -2
ev-embed --version | sed 's/ .*//'
