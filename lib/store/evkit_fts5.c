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

/* A store's chunk languages, the most frequent first, as the text lane
 * reads them (store.h, EV_STORE_LANGS_SQL): a query is stemmed for them,
 * and its words searched as themselves for those it is not (analyze.h). */
static void
store_langs(sqlite3 *db, struct ev_analyzer *an)
{
	char held[EV_ANALYZE_MAX_QUERY_LANGS][EV_ANALYZE_CODE_MAX];
	const char *codes[EV_ANALYZE_MAX_QUERY_LANGS];
	sqlite3_stmt *s = NULL;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT language FROM chunks WHERE language IS NOT NULL"
	    " GROUP BY language ORDER BY count(*) DESC, language", -1, &s, NULL) == SQLITE_OK)
		while (n < EV_ANALYZE_MAX_QUERY_LANGS && sqlite3_step(s) == SQLITE_ROW)
			if (sqlite3_column_text(s, 0) != NULL && ev_analyze_norm((const char *)
			    sqlite3_column_text(s, 0), (size_t)sqlite3_column_bytes(s, 0), held[n]) == 0) {
				codes[n] = held[n];
				n++;
			}
	sqlite3_finalize(s);
	ev_analyze_set_query_langs(an, codes, n);
	ev_analyze_set_store_langs(an, codes, n);
}

int
sqlite3_evkitfts_init(sqlite3 *db, char **errmsg, const void *api)
{
	struct ev_err err = { 0 };
	struct ev_analyzer *an;
	sqlite3_stmt *s = NULL;

	(void)api;
	if ((an = ev_analyze_register(db, &err)) == NULL) {
		*errmsg = sqlite3_mprintf("%s", err.msg);
		return SQLITE_ERROR;
	}
	/* a store's index is read as the analysis it was made with (store.h:
	 * meta's analysis_version; a store made before it was recorded, 1) */
	if (sqlite3_prepare_v2(db, "SELECT (SELECT value FROM meta WHERE key = '"
	    EV_ANALYZE_META_KEY "')", -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		ev_analyze_set_index(an, sqlite3_column_type(s, 0) == SQLITE_NULL ? 1 :
		    sqlite3_column_int(s, 0));
	sqlite3_finalize(s);
	store_langs(db, an);
	return SQLITE_OK;
}
