#!/bin/sh
# Install the Debian packages evkit needs; do nothing when all are present.
set -eu
pkgs="build-essential pkg-config libsqlite3-dev sqlite3 libjansson-dev libyaml-dev
libfaiss-dev libopenblas-dev liblapack-dev libcriterion-dev libomp-dev
clang libclang-rt-14-dev valgrind jq python3 python3-faiss python3-numpy
libjson-c-dev libcjson-dev python3-jsonschema hyperfine wamerican wfrench"
# the tokeniser: ICU's word break iterator (Chinese, Japanese; Unicode licence)
# and libstemmer's Snowball stemmers (BSD)
pkgs="$pkgs libicu-dev libstemmer-dev"
# ev-extract: poppler (PDF; GPL, ev-extract alone links it), libxml2 (HTML)
# and uchardet (the encoding of a page that declares none; MPL-1.1, GPL-2+
# or LGPL-2.1+); qpdf makes the encrypted PDF its tests read
pkgs="$pkgs libpoppler-glib-dev libxml2-dev libuchardet-dev qpdf"
# scripts/ev-shard: GNU parallel runs the shards' jobs over ssh (rsync moves the
# files); its test starts a real sshd on 127.0.0.1
pkgs="$pkgs parallel rsync openssh-client openssh-server"
# benchmark peers only (make bench-scale): Xapian indexes the same documents
# and its quest answers the same queries; nothing of evkit links or runs them
pkgs="$pkgs python3-xapian xapian-tools"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing
