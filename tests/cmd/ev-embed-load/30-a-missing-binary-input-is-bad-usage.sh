# A vector file or --ids file that is not there, or is a directory, is bad
# usage (exit 2, as a missing JSON Lines input is), and changes nothing; a
# directory was read as a file cut short ("truncated after vector 0").
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
printf "\002\000\000\000\000\000\200\077\000\000\000\000" > v.fvecs
printf "d1:s1:0\n" > ids.txt
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids ids.txt --model ext v.fvecs
sha256sum kb.db kb.faiss > before
mkdir dir
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids ids.txt --model ext missing.fvecs; echo "exit $?"
ev-embed-load --db kb.db --index kb.faiss --format npy --ids ids.txt --model ext missing.npy; echo "exit $?"
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids missing.txt --model ext v.fvecs; echo "exit $?"
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids ids.txt --model ext dir; echo "exit $?"
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids dir --model ext v.fvecs; echo "exit $?"
sha256sum -c --quiet before && echo unchanged
