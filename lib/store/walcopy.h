/* walcopy.h: a store's write-ahead log copied into the store by a thread of
 * its own while the writer goes on writing.
 *
 * Low layer: includes err.h.
 *
 * A connection in WAL mode copies its log into the database itself, once a
 * commit leaves the log long enough (SQLite's automatic checkpoint), and
 * the commit waits for the copy.  A bulk load is one writer committing
 * batch after batch, and the copy is a part of its time (at 1 million
 * documents, 6% of ev-ingest's writing thread).  A walcopy takes the copy
 * to a second connection on a thread of its own: the writer's commits only
 * say how long the log is, and the thread copies what is committed (a
 * passive checkpoint, which waits for no reader or writer) while the writer
 * fills its next batch.  Once the copy has caught up, the writer's next
 * transaction starts the log again from its beginning, as after SQLite's
 * own checkpoints.  What a killed run leaves is what SQLite's own would:
 * committed transactions are in the log or the database, or both. */
#ifndef EV_WALCOPY_H
#define EV_WALCOPY_H

#include <sqlite3.h>

#include "err.h"

struct ev_walcopy;

/* Copy the log of db (a connection in WAL mode, to the database file path)
 * on a thread of its own each time a commit of db leaves it at least pages
 * pages long, in place of db's automatic checkpoint.  Returns the walcopy,
 * or NULL when the thread or its connection cannot be had (*err says why;
 * the caller goes on with SQLite's own checkpoints, nothing changed).
 * Stop it with ev_walcopy_stop() before db is closed. */
struct ev_walcopy *ev_walcopy_start(sqlite3 *db, const char *path, int pages, struct ev_err *err);

/* Wait for a copy under way, end the thread and its connection, and give
 * db its automatic checkpoint back (every pages pages, as given to
 * ev_walcopy_start()).  NULL is ignored. */
void ev_walcopy_stop(struct ev_walcopy *wc);

/* The copies wc has made so far (for tests). */
long long ev_walcopy_copies(struct ev_walcopy *wc);

#endif
