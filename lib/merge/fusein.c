/* fusein.c: reading hit records grouped by query from several inputs in
 * step.  See fuse.h. */
#include "fuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fuseint.h"
#include "jscan.h"
#include "jsonl.h"

struct head {
	struct ev_jsonl *r;
	struct ev_jscan js;	/* the members of its line */
	const char *line;	/* the next record (in the reader's buffer), or NULL */
	size_t len;
	char *qid;		/* its query id (in qb), or NULL */
	struct ev_buf qb;
	int eof;
};

struct ev_fuse_in {
	struct head *h;
	int n;
	json_t *done;		/* query ids fused: an object used as a set */
	char *cur;		/* the query being gathered, or NULL */
	int pos;		/* the input being read for it */
	long long records;
	struct ev_buf tmp;
	struct ev_buf query;	/* the query text of the query being gathered */
	struct ev_buf qraw;	/* ... as it was written (JSON, quotes and escapes) */
	char qwhere[EV_WHERE_MAX];	/* where it was first read, or "" when not yet */
};

struct ev_fuse_in *
ev_fuse_in_open(char *const *paths, int n, struct ev_err *err)
{
	static char *const stdin_only[] = { "-" };
	struct ev_fuse_in *in;
	int i;

	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	if (ev_jsonl_stdin_once(paths, n, err) == -1)
		return NULL;
	if ((in = calloc(1, sizeof *in)) == NULL ||
	    (in->h = calloc((size_t)n, sizeof *in->h)) == NULL ||
	    (in->done = json_object()) == NULL)
		goto nomem;
	in->n = n;
	for (i = 0; i < n; i++)
		if ((in->h[i].r = ev_jsonl_open(&paths[i], 1, err)) == NULL)
			goto fail;
	return in;
nomem:
	ev_err_nomem(err);
fail:
	ev_fuse_in_close(in);
	return NULL;
}

void
ev_fuse_in_close(struct ev_fuse_in *in)
{
	int i;

	if (in == NULL)
		return;
	for (i = 0; in->h != NULL && i < in->n; i++) {
		ev_jsonl_close(in->h[i].r);
		ev_jscan_release(&in->h[i].js);
		ev_buf_release(&in->h[i].qb);
	}
	free(in->h);
	json_decref(in->done);
	free(in->cur);
	ev_buf_release(&in->tmp);
	ev_buf_release(&in->query);
	ev_buf_release(&in->qraw);
	free(in);
}

long long
ev_fuse_in_records(const struct ev_fuse_in *in)
{
	return in->records;
}

static void
head_drop(struct head *h)
{
	h->line = NULL;
	h->qid = NULL;
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* Make sure input i has its next record at its head (unless at its end).
 * Returns 0, or -1 with *err (a bad record is dropped). */
static int
head_fill(struct ev_fuse_in *in, int i, struct ev_err *err)
{
	struct head *h = &in->h[i];
	const struct ev_jmem *q;
	const char *line, *where;
	size_t len;
	int r, t, iq;

	if (h->line != NULL || h->eof)
		return 0;
	do {
		r = ev_jsonl_next_line(h->r, &line, &len, err);
	} while (r == 1 && blank(line, len));
	if (r == 0) {
		h->eof = 1;
		return 0;
	}
	if (r == -1)
		return -1;
	in->records++;
	if ((t = ev_jscan_value(&h->js, line, len, NULL, err)) == -1) {
		where = ev_jsonl_where(h->r);
		ev_err_set_where(err, where);
		ev_json_refused(line, len, where, err);
		return -1;
	}
	if (t != EV_JOBJ)
		return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r), "hit must be a JSON object");
	iq = ev_fuse_member(h->js.top.m, (int)h->js.top.n, "query_id");
	if (iq < 0)
		return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r), "missing field 'query_id'");
	q = &h->js.top.m[iq];
	ev_buf_reset(&h->qb);
	if (q->type == EV_JSTR) {
		if (ev_jscan_decode(&h->qb, q->val + 1, q->vlen - 2) == -1)
			return ev_err_nomem(err);
	} else if (q->type == EV_JINT) {
		if (ev_buf_printf(&h->qb, "%lld", ev_jscan_integer(q->val, q->vlen)) == -1)
			return ev_err_nomem(err);
	} else {
		return ev_err_query_id(err, ev_jsonl_where(h->r));
	}
	h->qid = (char *)ev_buf_str(&h->qb);
	/* the query being gathered is not done yet: no need to look */
	if ((in->cur == NULL || strcmp(h->qid, in->cur) != 0) &&
	    json_object_get(in->done, h->qid) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r),
		    "query '%s' comes back after its hits were fused: each input must be grouped "
		    "by query, and several inputs must list the queries in the same order", h->qid);
		h->qid = NULL;
		return -1;
	}
	h->line = line;
	h->len = len;
	return 0;
}

/* Whether the record at h's head gives the query being gathered another
 * query text than a record before it (runs of different queries under one
 * query_id): returns 1 with *err set (code 2, naming both places), else 0
 * with the text noted when it is the first, or -1 out of memory. */
static int
query_differs(struct ev_fuse_in *in, const struct head *h, struct ev_err *err)
{
	int i = ev_fuse_member(h->js.top.m, (int)h->js.top.n, "query");
	const struct ev_jmem *m = i >= 0 ? &h->js.top.m[i] : NULL;
	struct ev_buf *t = in->qwhere[0] == '\0' ? &in->query : &in->tmp;

	if (m == NULL || m->type != EV_JSTR)	/* none, or a bad one that ev_fuse_add refuses */
		return 0;
	if (t == &in->tmp && m->vlen == in->qraw.len && memcmp(m->val, in->qraw.p, m->vlen) == 0)
		return 0;	/* written as the first was: the same */
	ev_buf_reset(t);
	if (ev_jscan_decode(t, m->val + 1, m->vlen - 2) == -1 || ev_buf_addc(t, '\0') == -1)
		return ev_err_nomem(err);
	if (t == &in->query) {
		ev_buf_reset(&in->qraw);
		if (ev_buf_add(&in->qraw, m->val, m->vlen) == -1)
			return ev_err_nomem(err);
		snprintf(in->qwhere, sizeof in->qwhere, "%s", ev_jsonl_where(h->r));
		return 0;
	}
	if (t->len == in->query.len && memcmp(t->p, in->query.p, t->len) == 0)
		return 0;
	ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r), "query '%s' is '%s' here but '%s' at"
	    " %s: runs of different queries cannot be fused; give each query its own query_id",
	    in->cur, t->p, in->query.p, in->qwhere);
	return 1;
}

int
ev_fuse_in_next(struct ev_fuse_in *in, struct ev_fuse *f, struct ev_err *err)
{
	struct head *h;
	int i, r, first;

	if (in->cur == NULL) {
		/* the next query: the head of the first input with records left */
		for (i = 0; i < in->n; i++) {
			if (head_fill(in, i, err) == -1)
				return -1;
			if (in->h[i].line != NULL)
				break;
		}
		if (i == in->n)
			return 0;
		if ((in->cur = strdup(in->h[i].qid)) == NULL)
			return ev_err_nomem(err);
		if (ev_fuse_begin(f, in->cur, err) == -1)
			return -1;
		in->pos = 0;
		in->qwhere[0] = '\0';
	}
	for (; in->pos < in->n; in->pos++) {
		h = &in->h[in->pos];
		for (;;) {
			if (head_fill(in, in->pos, err) == -1)
				return -1;
			if (h->line == NULL || strcmp(h->qid, in->cur) != 0)
				break;
			first = in->qwhere[0] == '\0';
			if ((r = query_differs(in, h, err)) != 0) {
				head_drop(h);	/* skipped with --skip-invalid */
				return -1;
			}
			r = ev_fuse_add_scanned(f, h->line, h->len, h->js.top.m, h->js.top.n, NULL, err);
			if (r == -1 && first)	/* a hit refused (skipped) names no text */
				in->qwhere[0] = '\0';
			if (r == -1 && err->code == EV_EXIT_USAGE)
				ev_err_set_where(err, ev_jsonl_where(h->r));
			head_drop(h);
			if (r == -1)
				return -1;
		}
	}
	if (json_object_set_new(in->done, in->cur, json_true()) == -1)
		return ev_err_nomem(err);
	free(in->cur);
	in->cur = NULL;
	return 1;
}
