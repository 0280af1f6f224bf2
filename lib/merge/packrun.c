/* packrun.c: hits grouped by query, written as EvidencePacks.  See
 * packrun.h. */
#include "packrun.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonl.h"

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int
ev_packrun_init(struct ev_packrun *r, struct ev_pack *p, FILE *out, enum ev_pack_format format,
    size_t width, struct ev_err *err)
{
	memset(r, 0, sizeof *r);
	r->p = p;
	r->out = out;
	r->format = format;
	r->width = width;
	if ((r->done = json_object()) == NULL)
		return ev_err_nomem(err);
	return 0;
}

int
ev_packrun_queries(struct ev_packrun *r, const char *path, struct ev_err *err)
{
	char *paths[1] = { (char *)path }, idbuf[64];
	struct ev_jsonl *in;
	json_t *v, *q, *qid;
	const char *id;
	int rc;

	r->queries_path = path;
	if ((r->queries = json_array()) == NULL || (r->index = json_object()) == NULL)
		return ev_err_nomem(err);
	if ((in = ev_jsonl_open(paths, 1, err)) == NULL)
		return -1;
	while ((rc = ev_jsonl_next(in, &v, err)) == 1) {
		q = ev_query_record(v, ev_jsonl_lineno(in), ev_jsonl_where(in), err);
		json_decref(v);
		if (q == NULL) {
			rc = -1;
			break;
		}
		qid = json_object_get(q, "query_id");
		if (ev_json_id_text(qid, idbuf, sizeof idbuf) < 0 && !json_is_string(qid)) {
			json_decref(q);
			rc = ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(in),
			    "field 'query_id' must be a string or an integer");
			break;
		}
		id = json_is_string(qid) ? json_string_value(qid) : idbuf;
		if (json_object_get(r->index, id) != NULL) {
			rc = ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(in),
			    "query '%s' is given twice: query ids must be unique", id);
			json_decref(q);	/* id is q's */
			break;
		}
		if (json_object_set_new(r->index, id,
		    json_integer((json_int_t)json_array_size(r->queries))) == -1 ||
		    json_array_append_new(r->queries, q) == -1) {
			rc = ev_err_nomem(err);
			break;
		}
	}
	ev_jsonl_close(in);
	return rc == 0 ? 0 : -1;
}

static int
write_pack(struct ev_packrun *r, const json_t *pack, struct ev_err *err)
{
	struct ev_buf *b = &r->b;
	char *s;

	if (r->format == EV_PACK_JSONL)
		return ev_jsonl_write(r->out, pack, err);
	ev_buf_reset(b);
	if (r->format == EV_PACK_JSON) {
		if ((s = json_dumps(pack, JSON_INDENT(2) | JSON_REAL_PRECISION(10))) == NULL)
			return ev_err_nomem(err);
		if (ev_buf_adds(b, s) == -1 || ev_buf_addc(b, '\n') == -1) {
			free(s);
			return ev_err_nomem(err);
		}
		free(s);
	} else if (ev_pack_render_text(pack, r->width, b) == -1) {
		return ev_err_nomem(err);
	}
	if (fwrite(ev_buf_str(b), 1, b->len, r->out) != b->len || fflush(r->out) == EOF)
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	return 0;
}

/* Build and write the pack of the hits added since ev_pack_begin().  query
 * (a query record of the queries, or NULL: the hits name it) gives the
 * pack's query_id and query; a pack holds one query, so its query_index is
 * 0. */
static int
emit(struct ev_packrun *r, const json_t *query, struct ev_err *err)
{
	char now[64];
	int fixed = ev_pack_now(now, sizeof now), rc;
	json_t *pack;

	pack = ev_pack_build(r->p, query ? json_object_get(query, "query_id") : NULL,
	    query ? json_string_value(json_object_get(query, "query")) : NULL, 0, now,
	    fixed ? 0 : now_ms() - r->started, err);
	if (pack == NULL)
		return -1;
	rc = write_pack(r, pack, err);
	json_decref(pack);
	if (rc == 0)
		r->packs++;
	return rc;
}

/* The end of cur's hits: write its pack, then the packs of the queries no
 * hit answered, up to position upto (exclusive) of the queries. */
static int
flush(struct ev_packrun *r, size_t upto, struct ev_err *err)
{
	if (r->cur != NULL) {
		if (emit(r, r->queries ? json_array_get(r->queries, r->nextq - 1) : NULL, err) == -1)
			return -1;
		if (json_object_set_new(r->done, r->cur, json_true()) == -1)
			return ev_err_nomem(err);
		free(r->cur);
		r->cur = NULL;
	}
	for (; r->queries != NULL && r->nextq < upto; r->nextq++) {
		r->started = now_ms();
		if (ev_pack_begin(r->p, err) == -1 ||
		    emit(r, json_array_get(r->queries, r->nextq), err) == -1)
			return -1;
	}
	return 0;
}

/* A line of blanks only (skipped, as JSON Lines readers do). */
static int
blank(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n == 0;
}

int
ev_packrun_line(struct ev_packrun *r, const char *line, size_t len, const char *where,
    struct ev_err *err)
{
	const char *qid;
	json_t *ix;
	size_t want = 0;	/* with queries: the position of qid */

	if (blank(line, len))
		return 0;
	r->records++;
	if (ev_pack_scan_line(r->p, line, len, where, &qid, err) == -1)
		return -1;
	if (r->cur == NULL || strcmp(r->cur, qid) != 0) {
		/* the first hit of another query */
		if (json_object_get(r->done, qid) != NULL)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "query '%s' comes back after its pack was written: hits must be "
			    "grouped by query", qid);
		if (r->queries != NULL && (ix = json_object_get(r->index, qid)) == NULL)
			return ev_err_set(err, EV_EXIT_USAGE, where, "query '%s' is not in %s", qid,
			    r->queries_path);
		if (r->queries != NULL && (want = (size_t)json_integer_value(ix)) < r->nextq)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "hits of query '%s' come after those of a query %s gives later: hits "
			    "must be in the order of the queries", qid, r->queries_path);
		if (flush(r, want, err) == -1)
			return -1;
		if (r->queries != NULL)
			r->nextq++;
		if ((r->cur = strdup(qid)) == NULL)
			return ev_err_nomem(err);
		if (ev_pack_begin(r->p, err) == -1)
			return -1;
		r->started = now_ms();
	}
	return ev_pack_add_line(r->p, where, err);
}

int
ev_packrun_end(struct ev_packrun *r, struct ev_err *err)
{
	return flush(r, r->queries != NULL ? json_array_size(r->queries) : 0, err);
}

void
ev_packrun_release(struct ev_packrun *r)
{
	free(r->cur);
	r->cur = NULL;
	json_decref(r->queries);
	json_decref(r->index);
	json_decref(r->done);
	r->queries = r->index = r->done = NULL;
	ev_buf_release(&r->b);
}
