/* packloop.c: hits grouped by request, written as EvidencePacks.  See
 * packloop.h. */
#include "packloop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonl.h"
#include "show.h"

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int
ev_packloop_init(struct ev_packloop *r, struct ev_pack *p, FILE *out, enum ev_pack_format format,
    size_t width, struct ev_err *err)
{
	memset(r, 0, sizeof *r);
	r->p = p;
	r->out = out;
	r->format = format;
	r->width = width;
	if ((r->done = json_object()) == NULL || (r->seen = json_object()) == NULL)
		return ev_err_nomem(err);
	return 0;
}

/* The key of a request: "r" and its request_id, else "q" and its one
 * query's id (so that the two never meet), into b.  Returns its text, or
 * NULL when out of memory. */
static const char *
request_key(struct ev_buf *b, const char *request_id, const char *query_id)
{
	ev_buf_reset(b);
	if (ev_buf_addc(b, request_id ? 'r' : 'q') == -1 ||
	    ev_buf_adds(b, request_id ? request_id : query_id) == -1 ||
	    ev_buf_reserve(b, 1) == -1)
		return NULL;
	return ev_buf_str(b);
}

/* The request (its text, after the key's first letter) as messages name it. */
static const char *
key_name(const char *key)
{
	return key + 1;
}

/* Check the request fields of query record q read at where. */
static int
check_query_fields(json_t *q, const char *where, struct ev_err *err)
{
	json_t *v;

	if ((v = json_object_get(q, "request_id")) != NULL && !json_is_null(v) &&
	    !json_is_string(v))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'request_id' must be a string");
	if (ev_json_whole_member(q, "query_index") == -1)	/* 1.0 is 1 */
		return ev_err_nomem(err);
	if ((v = json_object_get(q, "query_index")) != NULL && !json_is_null(v) &&
	    (!json_is_integer(v) || json_integer_value(v) < 0))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'query_index' must be a whole number from 0");
	if ((v = json_object_get(q, "routing")) != NULL && !json_is_null(v) && !json_is_object(v))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'routing' must be an object");
	if ((v = json_object_get(q, "filters")) != NULL && !json_is_null(v) && !json_is_object(v))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'filters' must be an object");
	return 0;
}

/* Put query position pos (its id text id, record q, read at where) into its
 * request, making the request when it is the first of it.  Returns 0 or -1. */
static int
file_request(struct ev_packloop *r, size_t pos, const char *id, json_t *q, const char *where,
    struct ev_err *err)
{
	const char *req = json_string_value(json_object_get(q, "request_id")), *key;
	json_t *qi = json_object_get(q, "query_index"), *members, *k;
	size_t i, j, *nq;

	if ((key = request_key(&r->b, req, id)) == NULL)
		return ev_err_nomem(err);
	json_array_foreach(r->reqkeys, i, k)
		if (strcmp(json_string_value(k), key) == 0)
			break;
	if (i == json_array_size(r->reqkeys) &&
	    (json_array_append_new(r->reqkeys, json_string(key)) == -1 ||
	    json_array_append_new(r->reqs, json_array()) == -1))
		return ev_err_nomem(err);
	members = json_array_get(r->reqs, i);
	if (json_is_integer(qi)) {
		json_array_foreach(members, j, k) {
			json_t *o = json_array_get(r->queries, (size_t)json_integer_value(k));
			json_t *oi = json_object_get(o, "query_index");
			struct ev_buf other = EV_BUF_INIT;

			if (!json_is_integer(oi) || json_integer_value(oi) != json_integer_value(qi))
				continue;
			/* (the other's id as it was read: a string, or an integer) */
			if (ev_json_id_buf(json_object_get(o, "query_id"), &other) == -2)
				return ev_err_nomem(err);
			ev_err_set(err, EV_EXIT_USAGE, where, "queries '%s' and '%s' of request '%s'"
			    " both have query_index %lld: each query of a request needs its own",
			    ev_buf_str(&other), id, key_name(key), (long long)json_integer_value(qi));
			ev_buf_release(&other);
			return -1;
		}
	}
	if (json_array_append_new(members, json_integer((json_int_t)pos)) == -1)
		return ev_err_nomem(err);
	if ((nq = realloc(r->qreq, (pos + 1) * sizeof *nq)) == NULL)
		return ev_err_nomem(err);
	r->qreq = nq;
	r->qreq[pos] = i;
	return 0;
}

int
ev_packloop_queries(struct ev_packloop *r, const char *path, struct ev_err *err)
{
	char *paths[1] = { (char *)path };
	struct ev_buf idb = EV_BUF_INIT;
	struct ev_jsonl *in;
	json_t *v, *q;
	const char *id;
	size_t pos;
	int rc;

	r->queries_path = path;
	if ((r->queries = json_array()) == NULL || (r->index = json_object()) == NULL ||
	    (r->reqs = json_array()) == NULL || (r->reqkeys = json_array()) == NULL)
		return ev_err_nomem(err);
	if ((in = ev_jsonl_open(paths, 1, err)) == NULL)
		return -1;
	while ((rc = ev_jsonl_next(in, &v, err)) == 1) {
		q = ev_query_record(v, ev_jsonl_seqno(in), ev_jsonl_where(in), err);
		json_decref(v);
		if (q == NULL) {
			rc = -1;
			break;
		}
		if ((rc = ev_json_id_buf(json_object_get(q, "query_id"), &idb)) != 0) {
			json_decref(q);
			rc = rc == -2 ? ev_err_nomem(err) : ev_err_query_id(err, ev_jsonl_where(in));
			break;
		}
		if (check_query_fields(q, ev_jsonl_where(in), err) == -1) {
			json_decref(q);
			rc = -1;
			break;
		}
		id = ev_buf_str(&idb);
		if (json_object_get(r->index, id) != NULL) {
			json_decref(q);
			rc = ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(in),
			    "query '%s' is given twice: query ids must be unique", id);
			break;
		}
		pos = json_array_size(r->queries);
		if (json_object_set_new(r->index, id, json_integer((json_int_t)pos)) == -1 ||
		    json_array_append_new(r->queries, q) == -1) {
			rc = ev_err_nomem(err);
			break;
		}
		if (file_request(r, pos, id, q, ev_jsonl_where(in), err) == -1) {
			rc = -1;
			break;
		}
	}
	ev_jsonl_close(in);
	ev_buf_release(&idb);
	return rc == 0 ? 0 : -1;
}

static int
write_pack(struct ev_packloop *r, const json_t *pack, struct ev_err *err)
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
	if (r->reported != NULL)	/* (not one JSON line, which a reader of the output parses) */
		r->reported(r->reported_ctx, pack);
	return 0;
}

/* Build and write the pack of the request begun (its queries named with
 * ev_pack_query(), or by its hits). */
static int
emit(struct ev_packloop *r, struct ev_err *err)
{
	char now[64];
	int fixed = ev_pack_now(now, sizeof now), rc;
	json_t *pack;

	pack = ev_pack_build(r->p, NULL, NULL, 0, now, fixed ? 0 : now_ms() - r->started, err);
	if (pack == NULL)
		return -1;
	rc = write_pack(r, pack, err);
	json_decref(pack);
	if (rc == 0)
		r->packs++;
	return rc;
}

/* Begin request i of the queries file: a new pack, with its queries named
 * in the file's order. */
static int
begin_file_request(struct ev_packloop *r, size_t i, const char *where, struct ev_err *err)
{
	json_t *k, *q, *qi;
	size_t j;

	r->started = now_ms();
	if (ev_pack_begin(r->p, err) == -1)
		return -1;
	json_array_foreach(json_array_get(r->reqs, i), j, k) {
		q = json_array_get(r->queries, (size_t)json_integer_value(k));
		if (j == 0 && json_is_string(json_object_get(q, "request_id")) &&
		    ev_pack_request(r->p, json_string_value(json_object_get(q, "request_id")),
		    err) == -1)
			return -1;
		qi = json_object_get(q, "query_index");
		if (ev_pack_query(r->p, json_object_get(q, "query_id"),
		    json_string_value(json_object_get(q, "query")),
		    json_is_integer(qi) ? json_integer_value(qi) : -1,
		    json_object_get(q, "routing"), where, err) == -1)
			return -1;
		ev_pack_query_filters(r->p, json_object_get(q, "filters"));
	}
	return 0;
}

/* The end of cur's hits: write its pack, then the packs of the requests of
 * the queries file no hit answered, up to request upto (exclusive). */
static int
flush(struct ev_packloop *r, size_t upto, const char *where, struct ev_err *err)
{
	if (r->cur != NULL) {
		if (emit(r, err) == -1)
			return -1;
		if (json_object_set_new(r->done, r->cur, json_true()) == -1)
			return ev_err_nomem(err);
		free(r->cur);
		free(r->curq);
		r->cur = r->curq = NULL;
	}
	for (; r->queries != NULL && r->nextreq < upto; r->nextreq++)
		if (begin_file_request(r, r->nextreq, where, err) == -1 || emit(r, err) == -1)
			return -1;
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

/* The first hit of request key: write the packs before it and begin its
 * own.  pos is its query's position in the queries file (when there is
 * one). */
static int
new_request(struct ev_packloop *r, const char *key, const char *qid, size_t pos, const char *where,
    struct ev_err *err)
{
	size_t want = 0;

	if (json_object_get(r->done, key) != NULL) {
		if (key[0] == 'q')
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "query '%s' comes back after its pack was written: hits must be "
			    "grouped by query", qid);
		return ev_err_set(err, EV_EXIT_USAGE, where, "request '%s' comes back after its "
		    "pack was written: the hits of a request's queries must come together",
		    key_name(key));
	}
	if (r->queries != NULL && (want = r->qreq[pos]) < r->nextreq)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "hits of query '%s' come after those of a query %s gives later: hits "
		    "must be in the order of the queries", qid, r->queries_path);
	if (flush(r, want, where, err) == -1)
		return -1;
	if ((r->cur = strdup(key)) == NULL)
		return ev_err_nomem(err);
	if (r->queries != NULL) {
		r->nextreq = want + 1;
		return begin_file_request(r, want, where, err);
	}
	r->started = now_ms();
	return ev_pack_begin(r->p, err);
}

int
ev_packloop_line(struct ev_packloop *r, const char *line, size_t len, const char *where,
    struct ev_err *err)
{
	struct ev_pack_line li;
	const char *key, *req;
	json_t *ix = NULL, *q = NULL, *was, *id;
	size_t pos = 0;
	int rc = -1;

	if (blank(line, len))
		return 0;
	r->records++;
	if (ev_pack_scan_line(r->p, line, len, where, &li, err) == -1)
		return -1;
	if (r->queries != NULL) {
		if ((ix = json_object_get(r->index, li.query_id)) == NULL)
			return ev_err_set(err, EV_EXIT_USAGE, where, "query '%s' is not in %s",
			    li.query_id, r->queries_path);
		pos = (size_t)json_integer_value(ix);
		q = json_array_get(r->queries, pos);
		req = json_string_value(json_object_get(q, "request_id"));
	} else {
		req = li.request_id;
	}
	if (req == NULL && (was = json_object_get(r->seen, li.query_id)) != NULL) {
		/* a hit without request_id (one an expansion added) belongs to
		 * its query's request */
		key = json_string_value(was);
	} else if ((key = request_key(&r->kb, req, li.query_id)) == NULL) {
		return ev_err_nomem(err);
	}
	if (req != NULL && r->cur != NULL && r->cur[0] == 'q' && strcmp(r->cur + 1, li.query_id) == 0 &&
	    json_object_get(r->done, key) == NULL) {
		/* the query's first hits did not say its request: they are of
		 * this one */
		char *k = strdup(key);
		if (k == NULL || json_object_set_new(r->seen, li.query_id, json_string(key)) == -1) {
			free(k);
			return ev_err_nomem(err);
		}
		free(r->cur);
		r->cur = k;
	}
	if (r->cur == NULL || strcmp(r->cur, key) != 0) {
		if (new_request(r, key, li.query_id, pos, where, err) == -1)
			goto out;
	}
	if (r->curq == NULL || strcmp(r->curq, li.query_id) != 0) {
		/* the first hit of another query of the request */
		if ((was = json_object_get(r->seen, li.query_id)) != NULL &&
		    strcmp(json_string_value(was), key) != 0) {
			ev_err_set(err, EV_EXIT_USAGE, where, "query '%s' has hits in two requests "
			    "('%s' and '%s'): a query belongs to one request", li.query_id,
			    key_name(json_string_value(was)), key_name(key));
			goto out;
		}
		if (was == NULL && json_object_set_new(r->seen, li.query_id, json_string(key)) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		free(r->curq);
		if ((r->curq = strdup(li.query_id)) == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		if (q != NULL) {
			json_t *qi = json_object_get(q, "query_index");
			if (ev_pack_query(r->p, json_object_get(q, "query_id"),
			    json_string_value(json_object_get(q, "query")),
			    json_is_integer(qi) ? json_integer_value(qi) : li.query_index,
			    json_object_get(q, "routing"), where, err) == -1)
				goto out;
			ev_pack_query_filters(r->p, json_object_get(q, "filters"));
		} else {
			id = li.query_id_int ? json_integer(strtoll(li.query_id, NULL, 10)) :
			    json_string(li.query_id);
			if (id == NULL) {
				ev_err_nomem(err);
				goto out;
			}
			rc = ev_pack_query(r->p, id, NULL, li.query_index, NULL, where, err);
			json_decref(id);
			if (rc == -1)
				goto out;
		}
	}
	rc = ev_pack_add_line(r->p, where, err);
out:
	return rc;
}

int
ev_packloop_end(struct ev_packloop *r, struct ev_err *err)
{
	return flush(r, r->queries != NULL ? json_array_size(r->reqs) : 0, "", err);
}

void
ev_packloop_release(struct ev_packloop *r)
{
	free(r->cur);
	free(r->curq);
	free(r->qreq);
	r->cur = r->curq = NULL;
	r->qreq = NULL;
	json_decref(r->queries);
	json_decref(r->index);
	json_decref(r->reqs);
	json_decref(r->reqkeys);
	json_decref(r->done);
	json_decref(r->seen);
	r->queries = r->index = r->reqs = r->reqkeys = r->done = r->seen = NULL;
	ev_buf_release(&r->b);
	ev_buf_release(&r->kb);
}

int
ev_packloop_store_text(void *texts, const char *ref, struct ev_buf *out, struct ev_err *err)
{
	const struct ev_packloop_texts *t = texts;
	struct ev_ref r;
	json_t *rec = NULL;
	const char *text;
	int found;

	if (ev_ref_parse(ref, strlen(ref), &r, ref, err) == -1)
		return err->code == EV_EXIT_USAGE ? 0 : -1;	/* (an id no reference names) */
	found = ev_show_resolve(t->st, &r, ref, t->note, t->note_ctx, &rec, err);
	free(r.id);
	if (found == 1) {
		text = json_string_value(json_object_get(rec, "text"));
		found = text == NULL ? 0 : ev_buf_adds(out, text) == -1 ? ev_err_nomem(err) : 1;
	}
	json_decref(rec);
	return found;
}
