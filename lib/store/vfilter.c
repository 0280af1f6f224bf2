/* vfilter.c: the chunks a vector query's filters allow (see vfilter.h). */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "vfile.h"
#include "vfilter.h"

int
ev_vindex_filter_ids(struct ev_store *st, const json_t *filters, const char *where, int64_t **out,
	size_t *nout, struct ev_err *err)
{
	struct ev_buf sql = EV_BUF_INIT;
	sqlite3_stmt *s = NULL;
	struct ev_vfile_ids a = { 0 };
	const char *key;
	json_t *val, *docs = NULL;
	char *docs_text = NULL;
	int nb = 0, ret = -1, bad = 0;

	*out = NULL;
	*nout = 0;
	if (!json_is_object(filters))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'filters' must be an object");
	if ((docs = json_array()) == NULL)
		return ev_err_nomem(err);
	ev_buf_adds(&sql, "SELECT c.rowid FROM chunks c LEFT JOIN documents d ON d.doc_id = c.doc_id"
		" WHERE 1");
	json_object_foreach((json_t *)filters, key, val) {
		if (strcmp(key, "doc_id") == 0 || strcmp(key, "doc_ids") == 0) {
			size_t i;
			json_t *x;
			if (json_is_string(val))
				json_array_append(docs, val);
			else if (json_is_array(val)) {
				json_array_foreach(val, i, x) {
					if (!json_is_string(x)) {
						ev_err_set(err, EV_EXIT_USAGE, where,
							"filter '%s' must be a string or an array of strings", key);
						goto out;
					}
					json_array_append(docs, x);
				}
			} else {
				ev_err_set(err, EV_EXIT_USAGE, where,
					"filter '%s' must be a string or an array of strings", key);
				goto out;
			}
		} else if (strcmp(key, "metadata") == 0) {
			const char *mk;
			json_t *mv;
			if (!json_is_object(val)) {
				ev_err_set(err, EV_EXIT_USAGE, where, "filter 'metadata' must be an object");
				goto out;
			}
			json_object_foreach(val, mk, mv) {
				if (strchr(mk, '"') || strchr(mk, '\\')) {
					ev_err_set(err, EV_EXIT_USAGE, where,
						"metadata filter key '%s' must not hold quotes or backslashes", mk);
					goto out;
				}
				if (json_is_object(mv) || json_is_array(mv)) {
					ev_err_set(err, EV_EXIT_USAGE, where,
						"metadata filter '%s' must be a string, number, boolean or null", mk);
					goto out;
				}
				ev_buf_adds(&sql, json_is_null(mv) ?
					" AND json_extract(d.metadata, ?) IS NULL" :
					" AND json_extract(d.metadata, ?) = ?");
			}
		} else if (strcmp(key, "published_date") == 0) {
			json_t *from, *to;
			const char *k2;
			json_t *v2;
			if (!json_is_object(val)) {
				ev_err_set(err, EV_EXIT_USAGE, where,
					"filter 'published_date' must be an object with 'from' and/or 'to'");
				goto out;
			}
			json_object_foreach(val, k2, v2) {
				if ((strcmp(k2, "from") != 0 && strcmp(k2, "to") != 0) || !json_is_string(v2)) {
					ev_err_set(err, EV_EXIT_USAGE, where,
						"filter 'published_date' takes 'from' and 'to' as strings, not '%s'",
						k2);
					goto out;
				}
			}
			from = json_object_get(val, "from");
			to = json_object_get(val, "to");
			if (from)
				ev_buf_adds(&sql, " AND d.published_date >= ?");
			if (to)
				ev_buf_adds(&sql, " AND substr(d.published_date, 1, length(?)) <= ?");
		} else {
			ev_err_set(err, EV_EXIT_USAGE, where,
				"unknown filter '%s' (known: doc_id, doc_ids, metadata, published_date)", key);
			goto out;
		}
	}
	if (json_array_size(docs) > 0 || json_object_get(filters, "doc_id") ||
	    json_object_get(filters, "doc_ids"))
		ev_buf_adds(&sql, " AND c.doc_id IN (SELECT value FROM json_each(?))");
	if (ev_buf_adds(&sql, " ORDER BY c.rowid") == -1) {
		ev_err_nomem(err);
		goto out;
	}
	if (sqlite3_prepare_v2(ev_store_db(st), ev_buf_str(&sql), -1, &s, NULL) != SQLITE_OK) {
		ev_store_error(st, "preparing a filter", err);
		goto out;
	}
	/* Bind in the order the clauses were written; a failed bind (a copy
	 * refused under memory pressure) must not leave a parameter NULL. */
	json_object_foreach((json_t *)filters, key, val) {
		if (strcmp(key, "metadata") == 0) {
			const char *mk;
			json_t *mv;
			json_object_foreach(val, mk, mv) {
				char *path = sqlite3_mprintf("$.\"%s\"", mk);
				if (path == NULL) {
					ev_err_nomem(err);
					goto out;
				}
				bad |= sqlite3_bind_text(s, ++nb, path, -1, sqlite3_free) != SQLITE_OK;
				if (json_is_null(mv))
					continue;
				if (json_is_string(mv))
					bad |= sqlite3_bind_text(s, ++nb, json_string_value(mv), -1,
						SQLITE_TRANSIENT) != SQLITE_OK;
				else if (json_is_integer(mv))
					bad |= sqlite3_bind_int64(s, ++nb, json_integer_value(mv)) != SQLITE_OK;
				else if (json_is_real(mv))
					bad |= sqlite3_bind_double(s, ++nb, json_real_value(mv)) != SQLITE_OK;
				else
					bad |= sqlite3_bind_int(s, ++nb, json_is_true(mv)) != SQLITE_OK;
			}
		} else if (strcmp(key, "published_date") == 0) {
			json_t *from = json_object_get(val, "from"), *to = json_object_get(val, "to");
			if (from)
				bad |= sqlite3_bind_text(s, ++nb, json_string_value(from), -1,
					SQLITE_TRANSIENT) != SQLITE_OK;
			if (to) {
				bad |= sqlite3_bind_text(s, ++nb, json_string_value(to), -1,
					SQLITE_TRANSIENT) != SQLITE_OK;
				bad |= sqlite3_bind_text(s, ++nb, json_string_value(to), -1,
					SQLITE_TRANSIENT) != SQLITE_OK;
			}
		}
	}
	if (json_object_get(filters, "doc_id") || json_object_get(filters, "doc_ids")) {
		if ((docs_text = json_dumps(docs, JSON_COMPACT)) == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		bad |= sqlite3_bind_text(s, ++nb, docs_text, -1, SQLITE_STATIC) != SQLITE_OK;
	}
	if (bad) {
		ev_err_nomem(err);
		goto out;
	}
	{
		int rc;
		while ((rc = sqlite3_step(s)) == SQLITE_ROW)
			if (ev_vfile_ids_push(&a, sqlite3_column_int64(s, 0)) == -1) {
				ev_err_nomem(err);
				goto out;
			}
		if (rc != SQLITE_DONE) {
			ev_store_error(st, "applying a filter", err);
			goto out;
		}
	}
	*out = a.v;
	*nout = a.n;
	a.v = NULL;
	ret = 0;
out:
	sqlite3_finalize(s);
	free(a.v);
	free(docs_text);
	json_decref(docs);
	ev_buf_release(&sql);
	return ret;
}
