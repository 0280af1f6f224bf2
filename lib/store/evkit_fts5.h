/* evkit_fts5.h: the loadable extension's entry point (evkit_fts5.c).
 *
 * Middle layer: includes analyze.h and SQLite. */
#ifndef EV_EVKIT_FTS5_H
#define EV_EVKIT_FTS5_H

#include <sqlite3.h>

/* SQLite's entry point for "evkit_fts5.so": registers the "evkit"
 * tokeniser on db.  Returns SQLITE_OK, or SQLITE_ERROR with *errmsg set
 * (sqlite3_malloc'd). */
int sqlite3_evkitfts_init(sqlite3 *db, char **errmsg, const void *api);

#endif
