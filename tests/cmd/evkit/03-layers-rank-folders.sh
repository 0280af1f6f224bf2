# make layers ranks lib/'s folders too (base < cli < store < lanes < merge <
# judge): an include that runs up them is refused even when the layer numbers
# of lib/LAYERS allow it, so that a module's folder says how high it stands.
# A scratch lib/ whose LAYERS would pass: a store/ module including a lanes/
# header, a merge/ module including a judge/ header, a module in a folder of
# no rank; and includes that keep to the order, which pass.
check=$CASEDIR/../../../scripts/check-layers.sh
# mk FILE LINE...: lib/FILE holding these lines
mk() { mkdir -p "lib/$(dirname "$1")" && f=$1 && shift && printf '%s\n' "$@" >"lib/$f"; }
mk base/err.h '/* err */'
mk lanes/vsearch.h '#include "err.h"'
mk store/ingest.c '#include "err.h"' '#include "vsearch.h"' '#include "ingest.h"'
mk store/ingest.h '#include "err.h"'
mk judge/score.h '#include "err.h"' '#include "vsearch.h"'
mk merge/fuse.c '#include "score.h"' '#include "vsearch.h"' '#include "ingest.h"'
cat >lib/LAYERS <<'LAYERS'
# bottom-up
0 err
1 vsearch
2 ingest score
3 fuse
LAYERS
echo "up the folders:"
sh "$check" "$PWD/lib"
echo "status $?"
echo "the same modules in the folders of their rank:"
mv lib/store/ingest.c lib/store/ingest.h lib/merge/ && mv lib/merge/fuse.c lib/judge/ && rmdir lib/store
sh "$check" "$PWD/lib"
echo "status $?"
echo "a folder of no rank:"
mkdir lib/misc && mv lib/judge/fuse.c lib/misc/
sh "$check" "$PWD/lib"
echo "status $?"
