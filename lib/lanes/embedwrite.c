/* embedwrite.c: records embedded by the built-in model.  See embedwrite.h. */
#include "embedwrite.h"

#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "langid.h"
#include "note.h"
#include "hitfields.h"
#include "vfile.h"

/* Write the JSON line o (NULL: out of memory); returns 0 or -1. */
static int
write_line(FILE *out, json_t *o, struct ev_err *err)
{
	int rc = o == NULL ? ev_err_nomem(err) : ev_jsonl_write(out, o, err);

	json_decref(o);
	return rc;
}

static void
zero_note(const char *model, long long zero, const struct ev_embedwrite_io *io)
{
	if (zero > 0)
		ev_note(io->note, io->ctx, "%lld record%s had no term in the vocabulary of model '%s'; %s all zeros",
		    zero, zero == 1 ? "" : "s", model, zero == 1 ? "its vector is" :
		    "their vectors are");
}

void
ev_embedwrite_zero_note(const struct ev_embedwrite *r, const struct ev_embedwrite_io *io)
{
	if (r->e != NULL)
		zero_note(ev_embed_model_id(r->e), r->zero, io);
}

int
ev_embedwrite_open(struct ev_embedwrite *r, struct ev_store *st, struct ev_err *err)
{
	memset(r, 0, sizeof *r);
	r->st = st;
	if ((r->e = ev_embed_open(st, err)) == NULL)
		return -1;
	if ((r->vec = malloc((size_t)ev_embed_dim(r->e) * sizeof *r->vec)) == NULL)
		return ev_err_nomem(err);
	return 0;
}

void
ev_embedwrite_close(struct ev_embedwrite *r)
{
	free(r->vec);
	ev_qidset_release(&r->qids);
	ev_lex_close(r->lex);
	r->lex = NULL;
	ev_embed_close(r->e);
	r->vec = NULL;
	r->e = NULL;
}

/* The text fields of a chunk record, or its query. */
static int
record_texts(json_t *rec, int is_query, const char *texts[3], size_t lens[3], const char *where,
	struct ev_err *err)
{
	static const char *const fields[] = { "title", "section_title", "text" };

	memset(texts, 0, 3 * sizeof *texts);
	memset(lens, 0, 3 * sizeof *lens);
	if (is_query) {
		if (ev_field_str(rec, "query", 1, &texts[2], where, err) == -1)
			return -1;
		lens[2] = json_string_length(json_object_get(rec, "query"));
		return 0;
	}
	for (int f = 0; f < 3; f++) {
		if (ev_field_str(rec, fields[f], f == 2, &texts[f], where, err) == -1)
			return -1;
		if (texts[f] != NULL)
			lens[f] = json_string_length(json_object_get(rec, fields[f]));
	}
	return 0;
}

/* The language of the chunk id in the store into code: 1, 0 when the store
 * has no such chunk or it has no language, -1 with *err set. */
static int
stored_lang(struct ev_store *st, const char *id, char code[EV_ANALYZE_CODE_MAX],
	struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT language FROM chunks WHERE id = ?", err);
	const char *c;
	int r, found = 0;

	if (s == NULL)
		return -1;
	/* (a bind that fails, out of memory, would find no row: not "no language") */
	if (sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		sqlite3_reset(s);
		return ev_store_error(st, "reading a chunk's language", err);
	}
	if ((r = sqlite3_step(s)) == SQLITE_ROW && (c = (const char *)sqlite3_column_text(s, 0)) != NULL)
		found = ev_analyze_norm(c, strlen(c), code) == 0;
	sqlite3_reset(s);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return ev_store_error(st, "reading a chunk's language", err);
	return found;
}

/* Set the language rec is embedded in (ev_embedwrite_add()).  Returns 0, or
 * -1 with *err set. */
static int
record_lang(struct ev_embedwrite *r, json_t *rec, int is_query, const char *text, size_t len,
	const char *where, struct ev_err *err)
{
	json_t *l = json_object_get(rec, "language"), *id = json_object_get(rec, "id");
	char code[EV_ANALYZE_CODE_MAX];
	int got;

	if (l != NULL && !json_is_null(l)) {
		if (!json_is_string(l) || ev_analyze_norm(json_string_value(l), json_string_length(l),
		    code) == -1)
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'language' must be a"
			    " language code such as \"en\", \"fr\" or \"zh\"");
		return ev_embed_set_lang(r->e, code);
	}
	if (is_query)
		return ev_embed_set_lang(r->e, NULL);
	if (json_is_string(id) && r->st != NULL) {
		if ((got = stored_lang(r->st, json_string_value(id), code, err)) == -1)
			return -1;
		if (got)
			return ev_embed_set_lang(r->e, code);
	}
	if (r->lex == NULL && (r->lex = ev_lex_open(NULL, err)) == NULL)
		return -1;
	ev_langid(r->lex, text != NULL ? text : "", text != NULL ? len : 0, code);
	return ev_embed_set_lang(r->e, code);
}

int
ev_embedwrite_add(struct ev_embedwrite *r, json_t *rec, int is_query, const char *where,
	struct ev_err *err)
{
	const char *texts[3];
	size_t lens[3];
	json_t *arr;
	int got, dim = ev_embed_dim(r->e);

	if (record_texts(rec, is_query, texts, lens, where, err) == -1 ||
	    record_lang(r, rec, is_query, texts[2], lens[2], where, err) == -1)
		return -1;
	if ((got = ev_embed_texts(r->e, texts, lens, 3,
	    is_query ? EV_EMBED_QUERY : EV_EMBED_DOCUMENT, r->vec, err)) == -1)
		return -1;
	if (got == 0 && !is_query)	/* (a query's is said by ev-search-vec, which reads it) */
		r->zero++;
	if ((arr = json_array()) == NULL)
		return ev_err_nomem(err);
	for (int d = 0; d < dim; d++)
		if (json_array_append_new(arr, json_real(r->vec[d])) == -1) {
			json_decref(arr);
			return ev_err_nomem(err);
		}
	if (json_object_set_new(rec, "vector", arr) == -1 ||
	    json_object_set_new(rec, "model", json_string(ev_embed_model_id(r->e))) == -1)
		return ev_err_nomem(err);
	return 0;
}

json_t *
ev_embedwrite_one(struct ev_embedwrite *r, json_t *v, int role, size_t lineno, const char *where,
	struct ev_err *err)
{
	json_t *rec;
	int is_query;

	if (json_is_string(v)) {
		is_query = 1;
	} else if (!json_is_object(v)) {
		ev_err_set(err, EV_EXIT_USAGE, where,
		    "a record must be an object (a chunk or a query) or a string (a query)");
		return NULL;
	} else if (role != EV_EMBEDWRITE_AUTO) {
		is_query = role == EV_EMBED_QUERY;
	} else if (json_object_get(v, "text") != NULL) {
		is_query = 0;
	} else if (json_object_get(v, "query") != NULL) {
		is_query = 1;
	} else {
		ev_err_set(err, EV_EXIT_USAGE, where,
		    "record has no 'text' (a chunk) or 'query' (a query) to embed");
		return NULL;
	}
	if (is_query) {
		if ((rec = ev_query_record(v, lineno, where, err)) == NULL)
			return NULL;
		if (ev_qidset_add(&r->qids, json_object_get(rec, "query_id"), lineno, where, err) == -1) {
			json_decref(rec);
			return NULL;
		}
	} else {
		rec = json_incref(v);
	}
	if (ev_embedwrite_add(r, rec, is_query, where, err) == -1) {
		if (is_query)
			ev_qidset_drop_last(&r->qids);
		json_decref(rec);
		return NULL;
	}
	return rec;
}

int
ev_embedwrite_stream(struct ev_embedwrite *r, struct ev_jsonl *in, int role,
	const struct ev_embedwrite_io *io,
	int (*skip)(void *ctx, struct ev_err *err), void *ctx, long long *nread,
	long long *nwritten, struct ev_err *err)
{
	json_t *v, *rec;
	int got;

	ev_qidset_release(&r->qids);	/* (the ids of this input's queries) */
	while ((got = ev_jsonl_next(in, &v, err)) != 0) {
		rec = NULL;
		if (got == 1) {
			(*nread)++;
			rec = ev_embedwrite_one(r, v, role, ev_jsonl_seqno(in), ev_jsonl_where(in), err);
			json_decref(v);
		}
		got = rec != NULL && ev_jsonl_write(io->out, rec, err) == 0;
		json_decref(rec);
		if (got)
			(*nwritten)++;
		else if (err->code != EV_EXIT_USAGE || skip == NULL || !skip(ctx, err))
			return -1;
		else
			ev_err_clear(err);
	}
	return 0;
}

/* The chunk of rowid id as a chunk record, with its vector when r is open. */
static int
pending_one(struct ev_store *st, struct ev_embedwrite *r, int64_t id, FILE *out,
	struct ev_err *err)
{
	json_t *rec = json_object();
	char *text = NULL, where[64];
	int rc = -1;

	if (rec == NULL)
		return ev_err_nomem(err);
	if (ev_hitfields_add(st, id, rec, &text, err) == -1)
		goto out;
	if (json_object_set_new(rec, "text", json_string(text ? text : "")) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	snprintf(where, sizeof where, "chunk rowid %lld", (long long)id);
	if (r->e != NULL && ev_embedwrite_add(r, rec, 0, where, err) == -1)
		goto out;
	rc = ev_jsonl_write(out, rec, err);
out:
	free(text);
	json_decref(rec);
	return rc;
}

int
ev_embedwrite_pending(struct ev_store *st, int embed, const char *model,
	const struct ev_embedwrite_io *io, struct ev_embedwrite_pending *res, struct ev_err *err)
{
	struct ev_embedwrite r = { 0 };
	struct ev_err ignored = { 0 };
	int64_t *ids = NULL;
	size_t n = 0, i;
	int rc = -1, began = 0;

	memset(res, 0, sizeof *res);
	if (embed) {
		if (ev_embedwrite_open(&r, st, err) == -1)	/* begins the read transaction */
			goto out;
		res->dim = ev_embed_dim(r.e);
		if ((res->model = strdup(ev_embed_model_id(r.e))) == NULL) {
			ev_err_nomem(err);
			goto out;
		}
	} else {
		if (ev_store_exec(st, "BEGIN", err) == -1)	/* one snapshot */
			goto out;
		began = 1;
		if (model != NULL && (res->model = strdup(model)) == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		if (model == NULL && ev_store_meta_get(st, "vindex.model", &res->model, err) == -1)
			goto out;
	}
	if (ev_vfile_pending(st, res->model, &ids, &n, err) == -1)
		goto out;
	for (i = 0; i < n; i++) {
		if (pending_one(st, &r, ids[i], io->out, err) == -1)
			goto out;
		res->written++;
	}
	if (embed)
		zero_note(res->model, r.zero, io);
	if (res->model != NULL)
		ev_note(io->note, io->ctx, "%lld chunk%s without a vector of model '%s'", res->written,
		    res->written == 1 ? "" : "s", res->model);
	else
		ev_note(io->note, io->ctx, "%lld chunk%s: the store has no vectors yet", res->written,
		    res->written == 1 ? "" : "s");
	rc = 0;
out:
	res->zero = r.zero;
	free(ids);
	ev_embedwrite_close(&r);
	if (began)
		ev_store_exec(st, "ROLLBACK", &ignored);	/* it only read */
	return rc;
}

/* x rounded to 4 decimals. */
static double
round4(double x)
{
	return (double)(long long)(x * 1e4 + 0.5) / 1e4;
}

int
ev_embedwrite_train(struct ev_store *st, const char *db, const struct ev_embed_params *p,
	const struct ev_embedwrite_io *io, struct ev_embed_info *info, struct ev_err *err)
{
	if (ev_embed_train(st, p, info, err) == -1)
		return -1;
	if (info->dim < info->dim_asked)
		ev_note(io->note, io->ctx, "%s: --dim %d is more than %lld chunks and %d terms support; "
		    "the model has %d dimensions", db, info->dim_asked, info->chunks, info->terms,
		    info->dim);
	if (info->empty > 0)
		ev_note(io->note, io->ctx, "%s: %lld of %lld chunks have no term of the vocabulary; their vectors will"
		    " be zero", db, info->empty, info->chunks);
	return write_line(io->out, json_pack("{s:s,s:i,s:I,s:i,s:I,s:f,s:f,s:f,s:f}",
	    "model", info->model_id, "dim", info->dim, "chunks", (json_int_t)info->chunks,
	    "terms", info->terms, "distinct_terms", (json_int_t)info->distinct,
	    "energy", round4(info->energy),
	    "read_ms", (double)(long long)info->ms_read, "svd_ms", (double)(long long)info->ms_svd,
	    "save_ms", (double)(long long)info->ms_save), err);
}

int
ev_embedwrite_drift(struct ev_store *st, const char *db, double max_drift,
	const struct ev_embedwrite_io *io, struct ev_embed_drift *d, struct ev_err *err)
{
	if (ev_embed_drift(st, d, err) == -1 ||
	    write_line(io->out, json_pack("{s:o,s:f,s:f,s:I,s:I,s:I,s:I,s:I}",
	    "model", d->model_id[0] ? json_string(d->model_id) : json_null(),
	    "drift", round4(d->drift), "max_drift", max_drift,
	    "new_terms", (json_int_t)d->new_terms, "unseen_occurrences", (json_int_t)d->unseen,
	    "occurrences", (json_int_t)d->occurrences, "chunks", (json_int_t)d->chunks,
	    "trained_chunks", (json_int_t)d->trained_chunks), err) == -1)
		return -1;
	if (d->drift <= max_drift)
		return 0;
	if (d->model_id[0])
		ev_note(io->note, io->ctx, "drift %.4f is above %g: retrain with 'ev-embed --db %s --train', then "
		    "'ev-embed --db %s --pending | ev-embed-load --db %s --index FILE'", d->drift,
		    max_drift, db, db, db);
	else
		ev_note(io->note, io->ctx, "no embedding model: train one with 'ev-embed --db %s --train'", db);
	return 1;
}

int
ev_embedwrite_copy_model(struct ev_store *st, const char *from,
	const struct ev_embedwrite_io *io, struct ev_err *err)
{
	struct ev_store *src = ev_store_open(from, EV_STORE_READ, err);
	char id[EV_EMBED_ID_SIZE];
	json_t *line;
	int r = -1;

	if (src == NULL)
		return -1;
	if (ev_embed_copy(st, src, id, err) == 0) {
		if ((line = json_pack("{s:s,s:s}", "model", id, "from", from)) == NULL)
			ev_err_nomem(err);
		else
			r = ev_jsonl_write(io->out, line, err);
		json_decref(line);
	}
	ev_store_close(src);
	return r;
}

json_t *
ev_embedwrite_log_model(const char *id, int dim)
{
	json_t *m = json_pack("{s:s,s:s}", "method", "lsa", "model", id);

	if (m != NULL && dim > 0 && json_object_set_new(m, "dim", json_integer(dim)) == -1) {
		json_decref(m);
		return NULL;
	}
	return m;
}
