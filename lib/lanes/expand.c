/* expand.c: neighbours, timeline and links of a query's hits.  See expand.h. */
#include "expand.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "jsoncopy.h"
#include "jsonl.h"

#define SNIPPET_BYTES	240

/* One hit of the query, old or added. */
struct item {
	json_t *hit;		/* owned reference */
	double score;
	long order;		/* old hits first, then in the order added */
};

struct query {
	struct item *items;
	size_t n, cap;
	long added;
	const struct ev_expand_opts *o;
	struct ev_store *st;
	json_t *stamp;		/* when the query's expansion retrieved its chunks */
};

static struct item *
find_item(struct query *q, const char *id)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (strcmp(json_string_value(json_object_get(q->items[i].hit, "id")), id) == 0)
			return &q->items[i];
	return NULL;
}

static int
push_item(struct query *q, json_t *hit, double score, struct ev_err *err)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		struct item *more = realloc(q->items, cap * sizeof *more);

		if (more == NULL)
			return ev_err_nomem(err);
		q->items = more;
		q->cap = cap;
	}
	q->items[q->n].hit = hit;
	q->items[q->n].score = score;
	q->items[q->n].order = (long)q->n;
	q->n++;
	return 0;
}

/* Score of a hit brought by one of score src at distance d (>= 1). */
static double
brought_score(const struct ev_expand_opts *o, double src, double d)
{
	return src > 0 ? src * pow(o->decay, d) : src - d;
}

/* The first len bytes of valid UTF-8 s that fit in max, whole characters. */
static size_t
clip(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	return max;
}

/* Add chunk `rowid`'s hit, brought by `from` with evidence ev (stolen; its
 * "score" set to what the step brings, its "retrieved_at" to q's stamp),
 * or add ev to the hit already there.  *budget counts what `from` may still
 * add. */
static int
bring(struct query *q, const struct item *from, sqlite3_int64 rowid, double distance,
	json_t *ev, long *budget, struct ev_err *err)
{
	static const char sql[] =
	    "SELECT id, doc_id, section_id, chunk_index, title, section_title, section_path, text,"
	    " offset_start, offset_end FROM chunks WHERE rowid = ?1";
	sqlite3_stmt *s = ev_store_prepare(q->st, sql, err);
	const json_t *src = from->hit;
	struct item *have;
	json_t *hit;
	const char *id, *text;
	double score = brought_score(q->o, from->score, distance);
	int rc;

	if (s == NULL) {
		json_decref(ev);
		return -1;
	}
	/* the entry's own score: what this step brings, also where the
	 * chunk was found already (its hit's score is another lane's) */
	if (json_object_set_new(ev, "score", json_real(score)) == -1 ||
	    json_object_set(ev, "retrieved_at", q->stamp) == -1) {
		json_decref(ev);
		return ev_err_nomem(err);
	}
	sqlite3_bind_int64(s, 1, rowid);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW) {
		json_decref(ev);
		return rc == SQLITE_DONE ? 0 : ev_store_error(q->st, "reading a chunk", err);
	}
	id = (const char *)sqlite3_column_text(s, 0);
	if ((have = find_item(q, id)) != NULL) {
		/* found directly or brought already: one more reason */
		if (json_array_append_new(json_object_get(have->hit, "evidence"), ev) == -1)
			return ev_err_nomem(err);
		if (json_object_get(have->hit, "expanded") != NULL && score > have->score) {
			have->score = score;
			json_object_set_new(have->hit, "score", json_real(score));
		}
		return 0;
	}
	if (*budget <= 0 || q->added >= q->o->per_query) {
		json_decref(ev);
		return 0;
	}
	text = (const char *)sqlite3_column_text(s, 7);
	hit = json_pack("{s:O,s:O*,s:s,s:s,s:i,s:f,s:O,s:{s:f},s:s%,s:[o],s:b,"
	    "s:s,s:I,s:s?,s:s?,s:s?,s:s,s:I,s:I}",
	    "query_id", json_object_get(src, "query_id"), "query", json_object_get(src, "query"),
	    "id", id, "doc_id", (const char *)sqlite3_column_text(s, 1), "rank", 0, "score", score,
	    "lane", json_object_get(ev, "lane"), "signals", "expand_score", score,
	    "snippet", text, clip(text, (size_t)sqlite3_column_bytes(s, 7), SNIPPET_BYTES),
	    "evidence", ev, "expanded", 1,
	    "section_id", (const char *)sqlite3_column_text(s, 2),
	    "chunk_index", (json_int_t)sqlite3_column_int64(s, 3),
	    "title", (const char *)sqlite3_column_text(s, 4),
	    "section_title", (const char *)sqlite3_column_text(s, 5),
	    "section_path", (const char *)sqlite3_column_text(s, 6), "text", text,
	    "offset_start", (json_int_t)sqlite3_column_int64(s, 8),
	    "offset_end", (json_int_t)sqlite3_column_int64(s, 9));
	if (hit == NULL || push_item(q, hit, score, err) == -1) {
		json_decref(hit);
		return ev_err_nomem(err);
	}
	(*budget)--;
	q->added++;
	return 0;
}

/*
 * Bring to q the chunks sql finds near from (?1 its id, ?2 limit): rows of
 * (rowid, distance), the first 64 at most, a NULL rowid passed over; each
 * with the evidence {lane, from, distance}.  A "neighbour" is a whole number
 * of chunks away, which is also its step of decay; a "timeline" document is
 * a number of days away (to 1/1000), its step its rank.
 */
static int
add_near(struct query *q, const struct item *from, const char *sql, long limit,
	const char *lane, long *budget, struct ev_err *err)
{
	const char *id = json_string_value(json_object_get(from->hit, "id"));
	int timeline = strcmp(lane, "timeline") == 0;
	sqlite3_int64 rows[64];
	double dist[64];
	sqlite3_stmt *s;
	int n = 0, i, rc = SQLITE_DONE;

	if ((s = ev_store_prepare(q->st, sql, err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, limit);
	while (n < 64 && (rc = sqlite3_step(s)) == SQLITE_ROW)
		if (sqlite3_column_type(s, 0) != SQLITE_NULL) {
			rows[n] = sqlite3_column_int64(s, 0);
			dist[n++] = sqlite3_column_double(s, 1);
		}
	if (n < 64 && rc != SQLITE_DONE)
		return ev_store_error(q->st, timeline ? "reading the timeline" : "reading neighbours",
		    err);
	sqlite3_reset(s);
	for (i = 0; i < n; i++) {
		json_t *ev = timeline ?
		    json_pack("{s:s,s:s,s:f}", "lane", lane, "from", id, "distance",
			round(dist[i] * 1000) / 1000) :
		    json_pack("{s:s,s:s,s:I}", "lane", lane, "from", id, "distance",
			(json_int_t)dist[i]);

		if (ev == NULL)
			return ev_err_nomem(err);
		if (bring(q, from, rows[i], timeline ? (double)(i + 1) : dist[i], ev, budget, err) == -1)
			return -1;
	}
	return 0;
}

/* The chunks next to a chunk ?1 in its document (in text order), at most ?2
 * chunks away, nearest first: its positions are its chunks in text order. */
static const char neighbours_sql[] =
    "WITH d AS (SELECT rowid, id, row_number() OVER (ORDER BY offset_start, rowid) AS pos"
    "  FROM chunks WHERE doc_id = (SELECT doc_id FROM chunks WHERE id = ?1))"
    " SELECT n.rowid, abs(n.pos - me.pos) AS dist FROM d n, d me"
    " WHERE me.id = ?1 AND n.id != ?1 AND abs(n.pos - me.pos) <= ?2 ORDER BY dist, n.pos";

/* The first chunk of each of the ?2 documents nearest in time to chunk ?1's,
 * their dates read in every form a published_date takes (store.h). */
static const char timeline_sql[] =
    "WITH me AS (SELECT d.doc_id, evkit_date_days(d.published_date) AS t FROM chunks c"
    "  JOIN documents d ON d.doc_id = c.doc_id WHERE c.id = ?1 AND t IS NOT NULL)"
    " SELECT (SELECT min(rowid) FROM chunks WHERE doc_id = o.doc_id),"
    "  abs(evkit_date_days(o.published_date) - me.t) AS days FROM documents o, me"
    " WHERE o.doc_id != me.doc_id AND evkit_date_days(o.published_date) IS NOT NULL"
    " ORDER BY days, o.doc_id LIMIT ?2";

int
ev_expand_link_target(const char *from_doc, const char *link, size_t len, struct ev_buf *buf)
{
	const char *slash = strrchr(from_doc, '/');
	size_t n, i, j = 0;
	char *p;

	n = strcspn(link, "#?");
	if (n > len)
		n = len;
	if (n == 0 || memchr(link, ':', n) != NULL || link[0] == '/' || link[0] == '<')
		return -1;	/* a fragment alone, a URL or mail address, an absolute path */
	if (link[n - 1] == '/' || link[n - 1] == '.')
		return -1;	/* a folder ("dir/", ".", "..") is not a document */
	ev_buf_reset(buf);
	if (slash != NULL && ev_buf_add(buf, from_doc, (size_t)(slash - from_doc) + 1) == -1)
		return -1;
	if (ev_buf_add(buf, link, n) == -1 || ev_buf_addc(buf, '\0') == -1)
		return -1;
	/* fold "." and ".." segments in place; ".." past the base is refused */
	p = buf->p;
	for (i = 0; p[i] != '\0';) {
		size_t seg = strcspn(p + i, "/");

		if (seg == 1 && p[i] == '.') {
			/* skip */
		} else if (seg == 2 && p[i] == '.' && p[i + 1] == '.') {
			if (j == 0)
				return -1;
			j--;
			while (j > 0 && p[j - 1] != '/')
				j--;
		} else if (seg > 0) {
			memmove(p + j, p + i, seg);
			j += seg;
			if (p[i + seg] == '/')
				p[j++] = '/';
		}
		i += seg + (p[i + seg] == '/');
	}
	if (j > 0 && p[j - 1] == '/')
		j--;
	p[j] = '\0';
	buf->len = j;
	return j > 0 ? 0 : -1;
}

/* The destination of the Markdown link whose "](" is just before p, its
 * length in *len, or NULL when p starts no link: "b.md)", "b.md \"Title\")"
 * (a title, quoted or in parentheses, after a space) or "<b c.md>)" (in
 * angle brackets, spaces allowed).  A link with a title is as common as one
 * without, and was passed over when only the first was read. */
static const char *
link_dest(const char *p, size_t *len)
{
	const char *dest = p + (p[0] == '<'), *after;

	*len = strcspn(dest, p[0] == '<' ? ">\n" : ") \t\n");
	if (p[0] == '<' && dest[*len] != '>')
		return NULL;
	after = dest + *len + (p[0] == '<');
	if (*after == ')')
		return dest;
	after += strspn(after, " \t\n");
	return after > dest + *len + (p[0] == '<') && (*after == '"' || *after == '\'' ||
	    *after == '(') ? dest : NULL;
}

/* Append to *ids (a JSON array of doc ids) the documents doc links to: its
 * Markdown links between ingested documents and its metadata's "links". */
static int
links_of(struct query *q, const char *doc, json_t *ids, struct ev_err *err)
{
	static const char text_sql[] = "SELECT text FROM chunks WHERE doc_id = ?1 ORDER BY chunk_index";
	static const char meta_sql[] =
	    "SELECT json_extract(metadata, '$.links') FROM documents WHERE doc_id = ?1"
	    " AND json_valid(metadata)";
	static const char exists_sql[] = "SELECT 1 FROM documents WHERE doc_id = ?1";
	struct ev_buf target = EV_BUF_INIT;
	json_t *found = json_array();
	sqlite3_stmt *s;
	size_t i;
	int rc = -1, r;

	if (found == NULL)
		return ev_err_nomem(err);
	if ((s = ev_store_prepare(q->st, text_sql, err)) == NULL)
		goto out;
	sqlite3_bind_text(s, 1, doc, -1, SQLITE_STATIC);
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);

		while ((t = strstr(t, "](")) != NULL) {
			const char *dest;
			size_t n;

			if ((dest = link_dest(t + 2, &n)) != NULL &&
			    ev_expand_link_target(doc, dest, n, &target) == 0)
				json_array_append_new(found, json_string(target.p));
			t += 2;
		}
	}
	if (r != SQLITE_DONE) {
		ev_store_error(q->st, "reading links", err);
		goto out;
	}
	sqlite3_reset(s);
	if ((s = ev_store_prepare(q->st, meta_sql, err)) == NULL)
		goto out;
	sqlite3_bind_text(s, 1, doc, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_TEXT) {
		json_t *links = json_loads((const char *)sqlite3_column_text(s, 0), 0, NULL);
		json_t *v;

		json_array_foreach(links, i, v)
			if (json_is_string(v))
				json_array_append(found, v);
		json_decref(links);
	}
	sqlite3_reset(s);
	/* keep the ingested ones, once each, in the order found */
	for (i = 0; i < json_array_size(found); i++) {
		const char *t = json_string_value(json_array_get(found, i));
		size_t k;
		int dup = strcmp(t, doc) == 0;

		for (k = 0; !dup && k < json_array_size(ids); k++)
			dup = strcmp(json_string_value(json_array_get(ids, k)), t) == 0;
		if (dup || (s = ev_store_prepare(q->st, exists_sql, err)) == NULL) {
			if (!dup)
				goto out;
			continue;
		}
		sqlite3_bind_text(s, 1, t, -1, SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_ROW && json_array_append_new(ids, json_string(t)) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		sqlite3_reset(s);
	}
	rc = 0;
out:
	json_decref(found);
	ev_buf_release(&target);
	return rc;
}

/* The first chunk of each document linked from from's, up to hops away. */
static int
add_links(struct query *q, const struct item *from, long *budget, struct ev_err *err)
{
	static const char first_sql[] =
	    "SELECT rowid FROM chunks WHERE doc_id = ?1 ORDER BY chunk_index LIMIT 1";
	const char *id = json_string_value(json_object_get(from->hit, "id"));
	const char *doc = json_string_value(json_object_get(from->hit, "doc_id"));
	json_t *seen, *frontier;
	long hop;
	int rc = -1;

	if (q->o->hops <= 0 || doc == NULL)
		return 0;
	seen = json_pack("[s]", doc);
	frontier = json_pack("[s]", doc);
	if (seen == NULL || frontier == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	for (hop = 1; hop <= q->o->hops && json_array_size(frontier) > 0 && *budget > 0; hop++) {
		json_t *next = json_array();
		size_t i;

		if (next == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		for (i = 0; i < json_array_size(frontier); i++) {
			json_t *linked = ev_jsoncopy_shallow(seen);

			if (linked == NULL) {
				ev_err_nomem(err);
				json_decref(next);
				goto out;
			}
			if (links_of(q, json_string_value(json_array_get(frontier, i)), linked, err) == -1) {
				json_decref(linked);
				json_decref(next);
				goto out;
			}
			/* the new ones are after what was seen */
			while (json_array_size(linked) > json_array_size(seen)) {
				json_t *t = json_array_get(linked, json_array_size(seen));
				sqlite3_stmt *s = ev_store_prepare(q->st, first_sql, err);
				json_t *ev;

				json_array_append(seen, t);
				json_array_append(next, t);
				if (s == NULL) {
					json_decref(linked);
					json_decref(next);
					goto out;
				}
				sqlite3_bind_text(s, 1, json_string_value(t), -1, SQLITE_STATIC);
				if (sqlite3_step(s) == SQLITE_ROW) {
					sqlite3_int64 row = sqlite3_column_int64(s, 0);

					sqlite3_reset(s);
					ev = json_pack("{s:s,s:s,s:I}", "lane", "link", "from", id,
					    "hops", (json_int_t)hop);
					if (ev == NULL || bring(q, from, row, (double)hop, ev, budget,
						err) == -1) {
						json_decref(linked);
						json_decref(next);
						goto out;
					}
				} else {
					sqlite3_reset(s);
				}
			}
			json_decref(linked);
		}
		json_decref(frontier);
		frontier = next;
	}
	rc = 0;
out:
	json_decref(seen);
	json_decref(frontier);
	return rc;
}

static int
item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

long
ev_expand_query(struct ev_store *st, const struct ev_expand_opts *o, json_t *hits,
	struct ev_buf *out, const char *where, struct ev_err *err)
{
	struct query q = { NULL, 0, 0, 0, o, st, NULL };
	size_t i, nold = json_array_size(hits);
	long rc = -1;
	char now[EV_CLOCK_STAMP_MAX];

	ev_clock_stamp(now, sizeof now);	/* once for what the query's expansion adds */
	if ((q.stamp = json_string(now)) == NULL)
		return ev_err_nomem(err);

	for (i = 0; i < nold; i++) {
		json_t *h = json_array_get(hits, i), *sc = json_object_get(h, "score");

		if (!json_is_string(json_object_get(h, "id")) || !json_is_number(sc)) {
			ev_err_set(err, EV_EXIT_USAGE, where,
			    "a hit to expand needs a string 'id' and a numeric 'score'");
			goto out;
		}
		if (!json_is_array(json_object_get(h, "evidence")) &&
		    json_object_set_new(h, "evidence", json_array()) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		if (push_item(&q, json_incref(h), json_number_value(sc), err) == -1) {
			json_decref(h);
			goto out;
		}
	}
	for (i = 0; i < nold && (long)i < o->from; i++) {
		struct item from = q.items[i];	/* a copy: items may move */
		long budget = o->per_hit;

		if ((o->neighbours > 0 && add_near(&q, &from, neighbours_sql, o->neighbours,
		    "neighbour", &budget, err) == -1) ||
		    add_links(&q, &from, &budget, err) == -1 ||
		    (o->timeline > 0 && add_near(&q, &from, timeline_sql,
		    o->timeline < 64 ? o->timeline : 64, "timeline", &budget, err) == -1))
			goto out;
	}
	qsort(q.items, q.n, sizeof *q.items, item_cmp);
	for (i = 0; i < q.n; i++) {
		json_t *h = q.items[i].hit;

		json_object_del(h, "expanded");
		if (json_object_set_new(h, "rank", json_integer((json_int_t)i + 1)) == -1 ||
		    ev_json_dump(out, h) == -1 || ev_buf_addc(out, '\n') == -1) {
			ev_err_nomem(err);
			goto out;
		}
	}
	rc = q.added;
out:
	for (i = 0; i < q.n; i++)
		json_decref(q.items[i].hit);
	free(q.items);
	json_decref(q.stamp);
	return rc;
}
