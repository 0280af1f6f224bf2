/* evkit_fts5.c: the "evkit" tokeniser as a SQLite loadable extension, so
 * that the sqlite3 shell can read a store's full-text index:
 *
 *	sqlite3 -cmd '.load /usr/local/lib/evkit/evkit_fts5' kb.db \
 *	    "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')"
 *
 * Built alone into evkit_fts5.so (see the Makefile), linked with the
 * system's libsqlite3 (the one Debian's sqlite3 shell uses), not through
 * sqlite3ext.h's routine table. */
#include "evkit_fts5.h"

#include "analyze.h"

int
sqlite3_evkitfts_init(sqlite3 *db, char **errmsg, const void *api)
{
	struct ev_err err = { 0 };

	(void)api;
	if (ev_analyze_register(db, &err) == NULL) {
		*errmsg = sqlite3_mprintf("%s", err.msg);
		return SQLITE_ERROR;
	}
	return SQLITE_OK;
}
