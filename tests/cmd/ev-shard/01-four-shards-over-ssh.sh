# scripts/ev-shard over ssh: a real sshd on 127.0.0.1 (a port of its own, keys
# made here), GNU parallel running every shard's jobs through it; four shards
# split, indexed and searched there, and both lanes' merged hits equal to
# those of one store holding every document (text lane with --feedback 0;
# exact vectors, --pairwise), byte for byte: the time the lanes' hits say
# they were retrieved, pinned here, goes with the jobs to the host.  Skipped
# (77) when sshd cannot be started.
export EV_FIXED_TIME=2026-11-29T08:40:00.000Z
here=$PWD
shard=$CASEDIR/../../../scripts/ev-shard
skip() { echo "$1" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root to start sshd and log in over ssh"
if ! command -v parallel >/dev/null || [ ! -x /usr/sbin/sshd ] || ! command -v rsync >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		parallel openssh-server openssh-client rsync >/dev/null 2>&1
fi
command -v parallel >/dev/null && [ -x /usr/sbin/sshd ] && command -v rsync >/dev/null ||
	skip "GNU parallel, rsync or sshd missing and not installable"
ssh-keygen -q -t ed25519 -N '' -f host_key && ssh-keygen -q -t ed25519 -N '' -f id || skip "no ssh-keygen"
cp id.pub authorized_keys
mkdir -p /run/sshd
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait' EXIT
for try in 1 2 3 4 5; do
	port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 20000))
	cat > sshd_config <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $here/host_key
PidFile $here/sshd.pid
AuthorizedKeysFile $here/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
LogLevel ERROR
CONF
	/usr/sbin/sshd -D -f "$here/sshd_config" -E "$here/sshd.log" &
	pid=$!
	ssh="ssh -i $here/id -p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=5"
	for i in 1 2 3 4 5 6 7 8 9 10; do
		$ssh root@127.0.0.1 true 2>/dev/null && break 2
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
done
[ -n "$pid" ] || skip "sshd did not start: $(tail -n 1 sshd.log 2>/dev/null)"

bindir=$(dirname "$(command -v ev-search-text)")
cat "$CASEDIR"/../ev-search-text/docs.jsonl "$CASEDIR"/../ev-search-text/bees.jsonl \
	"$CASEDIR"/../ev-embed/docs.jsonl > corpus.jsonl
printf '%s\n' '"flat plate boundary layer"' '"honey bees in winter"' '"heat transfer"' \
	'"wing lift at high angle of attack"' '"varroa mites"' > q.jsonl
run() { "$@" 2>>log || { cat log >&2; exit 1; }; }
run "$shard" split -n 4 corpus.jsonl shards
echo "documents: $(cat shards/shard-*.jsonl | wc -l) in $(ls shards | grep -c 'jsonl$') shards"
# one model, trained once on the whole collection, for every shard
run ev-ingest --db one.db --quiet corpus.jsonl
run ev-embed --db one.db --train > /dev/null
run "$shard" index --hosts root@127.0.0.1 --ssh "$ssh" --remote-dir "$here/remote" \
	--remote-bin "$bindir" --model one.db shards
echo "stores on the host: $(ls remote | grep -c '^shard-[0-9]\.db$'), indexes: $(ls remote | grep -c '^shard-[0-9]\.faiss$')"
echo "stores here: $(ls shards | grep -c '\.db$') (the model only)"
run "$shard" search -k 5 shards q.jsonl -- --feedback 0 > text.jsonl
run "$shard" search -k 5 --lane vector shards q.jsonl > vector.jsonl
jq -c '[.query_id, .id, .rank, .score]' text.jsonl
jq -c '[.query_id, .id, .rank, .score]' vector.jsonl | head -5

# one store holding every document, with that model
ev-embed --db one.db --pending 2>/dev/null | run ev-embed-load --db one.db --index one.faiss --factory IDMap,Flat
run ev-search-text --db one.db -k 5 --feedback 0 q.jsonl | ev-fuse --method merge > one-text.jsonl
run ev-embed --db one.db --role query q.jsonl |
	run ev-search-vec --db one.db --index one.faiss -k 5 --pairwise | ev-fuse --method merge > one-vector.jsonl
jq -e -s 'all(.[].evidence[]; .retrieved_at == env.EV_FIXED_TIME)' text.jsonl vector.jsonl >/dev/null &&
	echo "every hit says the time pinned here, the host's lanes too"
cmp text.jsonl one-text.jsonl && echo "text lane: the hits of one store, byte for byte ($(wc -l < text.jsonl) hits)"
cmp vector.jsonl one-vector.jsonl && echo "vector lane: the hits of one store, byte for byte ($(wc -l < vector.jsonl) hits)"
