# --ids: blank lines (a new line too many, or spaces) at the end of the file
# of ids are its end, as an editor or 'echo >>' leaves them; they were taken
# as one more id ("more ids than vectors").  A blank line before an id is
# refused at its line, as is a NUL byte, and so is an id too many: exit 2,
# the store and index as they were.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
# two 2-dimensional vectors: (1, 0) and (0, 1)
printf "\002\000\000\000\000\000\200\077\000\000\000\000\002\000\000\000\000\000\000\000\000\000\200\077" > v.fvecs
load() {
	ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids "$1" --model ext v.fvecs
	echo "exit $?"
}
printf "d1:s1:0\nd2:s1:1\n" > ids.txt
load ids.txt > /dev/null
sqlite3 kb.db .dump > before
cp kb.faiss before.faiss
printf "d2:s1:0\n\nd1:s1:1\n" > middle.txt
printf "d2:s1:0\nd1:s1:1\nd3:s1:0\n\n" > extra.txt
printf "d2:s1:0\nd1\000:s1:1\n" > nul.txt
printf "d2:s1:0\n" > short.txt
for f in middle extra nul short; do
	load $f.txt
done
sqlite3 kb.db .dump | cmp -s - before && cmp -s kb.faiss before.faiss && echo "store and index unchanged"
printf "d2:s1:0\nd1:s1:1\n\n \n\t\n" > trailing.txt
load trailing.txt
sqlite3 kb.db "SELECT c.id, hex(v.vector) FROM vec_vectors v JOIN chunks c USING (rowid) ORDER BY c.id"
printf "d3:s1:0\r\nd3:s1:1\r\n\r\n" > crlf.txt
load crlf.txt | grep exit
