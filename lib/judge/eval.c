/* eval.c: retrieval quality against qrels.  See eval.h. */
#include "eval.h"

#include "buf.h"
#include "jscan.h"
#include "jsonl.h"
#include "strmap.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define QRELS_MAX_LINE	65536

/* A pair key: the query's number, then the document id. */
static int
pair_key(struct ev_buf *b, long qi, const char *doc)
{
	ev_buf_reset(b);
	if (ev_buf_add(b, &qi, sizeof qi) == -1 || ev_buf_adds(b, doc) == -1)
		return -1;
	return 0;
}

/* ---- Judgements ---- */

struct qquery {
	const char *id;		/* the key in qmap */
	long *rels;		/* relevance of each judged document */
	size_t nrels, caprels;
};

struct ev_qrels {
	struct ev_strmap qmap;	/* the query ids, numbered as in qs */
	struct ev_strmap judged;	/* the pair keys judged, numbered as in rel */
	long *rel;		/* relevance of each pair judged */
	size_t caprel;
	struct qquery *qs;
	size_t nq, capq;
	struct ev_buf key;
};

struct ev_qrels *
ev_qrels_new(struct ev_err *err)
{
	struct ev_qrels *q = calloc(1, sizeof *q);

	if (q == NULL)
		ev_err_nomem(err);
	return q;
}

size_t
ev_qrels_count(const struct ev_qrels *q)
{
	return q ? q->nq : 0;
}

void
ev_qrels_free(struct ev_qrels *q)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->nq; i++)
		free(q->qs[i].rels);
	free(q->qs);
	ev_strmap_release(&q->qmap);
	ev_strmap_release(&q->judged);
	free(q->rel);
	ev_buf_release(&q->key);
	free(q);
}

/* Does s[0..len) hold valid UTF-8 (no overlong form, surrogate or code
 * point past U+10FFFF: what Jansson accepts) without a NUL byte?  Checked
 * here rather than through Jansson, which allocates: an allocation failure
 * must not read as bad text. */
static int
text_ok(const char *str, size_t len)
{
	return ev_utf8_bad(str, len) == len;
}

/* Find or add the query qid; returns its index or -1 (out of memory). */
static long
qrels_query(struct ev_qrels *q, const char *qid, size_t len)
{
	int32_t n = ev_strmap_find(&q->qmap, qid, len);

	if (n >= 0)
		return n;
	if (ev_grow(&q->qs, &q->capq, q->nq, sizeof *q->qs, 64) == -1 ||
	    (n = ev_strmap_add(&q->qmap, qid, len, NULL)) == -1)
		return -1;
	memset(&q->qs[q->nq], 0, sizeof q->qs[q->nq]);
	q->qs[q->nq].id = ev_strmap_key(&q->qmap, n);
	return (long)q->nq++;
}

int
ev_qrels_add_line(struct ev_qrels *q, const char *line, size_t len, const char *where,
	struct ev_err *err)
{
	const char *f[5];
	size_t fl[5], nf = 0, i = 0;
	const char *qid, *doc, *rel;
	size_t qlen, dlen;
	char num[32], *end, docbuf[QRELS_MAX_LINE + 1];
	long long r;
	long qi;
	int32_t j;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > QRELS_MAX_LINE)
		return ev_err_set(err, EV_EXIT_USAGE, where, "qrels line longer than %d bytes",
		    QRELS_MAX_LINE);
	if (!text_ok(line, len))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "qrels line is not valid UTF-8 text (or holds a NUL byte)");
	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		if (nf == 5)
			break;
		f[nf] = line + i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		fl[nf] = (size_t)(line + i - f[nf]);
		nf++;
	}
	if (nf == 0 || f[0][0] == '#')
		return 0;
	if (nf != 3 && nf != 4)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "expected 'QUERY_ID DOC_ID RELEVANCE' or 'QUERY_ID 0 DOC_ID RELEVANCE', "
		    "found %s%zu fields", nf == 5 ? "more than " : "", nf == 5 ? (size_t)4 : nf);
	qid = f[0];
	qlen = fl[0];
	doc = f[nf - 2];
	dlen = fl[nf - 2];
	rel = f[nf - 1];
	if (fl[nf - 1] >= sizeof num)
		return ev_err_set(err, EV_EXIT_USAGE, where, "relevance '%.20s...' is not an integer", rel);
	memcpy(num, rel, fl[nf - 1]);
	num[fl[nf - 1]] = '\0';
	errno = 0;
	r = strtoll(num, &end, 10);
	if (end == num || *end != '\0' || errno != 0 || r < -EV_EVAL_REL_MAX || r > EV_EVAL_REL_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where, "relevance '%s' is not an integer", num);
	if ((qi = qrels_query(q, qid, qlen)) == -1)
		return ev_err_nomem(err);
	memcpy(docbuf, doc, dlen);
	docbuf[dlen] = '\0';
	if (pair_key(&q->key, qi, docbuf) == -1)
		return ev_err_nomem(err);
	if ((j = ev_strmap_find(&q->judged, q->key.p, q->key.len)) >= 0) {
		if (q->rel[j] == (long)r)
			return 0;
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "document '%s' judged again for query '%s' with another relevance (%ld, then %lld)",
		    docbuf, q->qs[qi].id, q->rel[j], r);
	}
	if (ev_grow(&q->rel, &q->caprel, ev_strmap_count(&q->judged), sizeof *q->rel, 64) == -1 ||
	    (j = ev_strmap_add(&q->judged, q->key.p, q->key.len, NULL)) == -1)
		return ev_err_nomem(err);
	q->rel[j] = (long)r;
	{
		struct qquery *qq = &q->qs[qi];
		if (qq->nrels == qq->caprels) {
			size_t cap = qq->caprels ? qq->caprels * 2 : 16;
			long *nr = realloc(qq->rels, cap * sizeof *nr);
			if (nr == NULL)
				return ev_err_nomem(err);
			qq->rels = nr;
			qq->caprels = cap;
		}
		qq->rels[qq->nrels++] = (long)r;
	}
	return 0;
}

struct ev_qrels *
ev_qrels_load(const char *path, struct ev_err *err)
{
	FILE *fp;
	struct ev_qrels *q = NULL;
	struct ev_buf line = EV_BUF_INIT;
	const char *name = strcmp(path, "-") == 0 ? "stdin" : path;
	char where[EV_WHERE_MAX];
	size_t lineno = 0, skip;
	int c, failed = 0, judged = 0;

	if (strcmp(path, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(path, "r")) == NULL) {
		/* A file that is not there (or not readable) is bad usage, as
		 * for the run files; only memory running out is a runtime error. */
		int e = errno;
		ev_err_set(err, e == ENOMEM ? EV_EXIT_RUNTIME : EV_EXIT_USAGE, path,
		    "cannot open qrels: %s", strerror(e));
		return NULL;
	} else {
		struct stat sb;
		if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
			fclose(fp);
			ev_err_set(err, EV_EXIT_USAGE, path, "cannot open qrels: %s", strerror(EISDIR));
			return NULL;
		}
	}
	if ((q = ev_qrels_new(err)) == NULL)
		goto fail;
	for (;;) {
		int eof = 0, toolong = 0;

		ev_buf_reset(&line);
		for (;;) {
			if ((c = getc(fp)) == EOF) {
				eof = 1;
				break;
			}
			if (c == '\n')
				break;
			if (line.len > QRELS_MAX_LINE) {
				toolong = 1;
				continue;
			}
			if (ev_buf_addc(&line, c) == -1) {
				ev_err_nomem(err);
				goto fail;
			}
		}
		if (ferror(fp)) {
			ev_err_set(err, EV_EXIT_RUNTIME, name, "read error: %s", strerror(errno));
			goto fail;
		}
		if (eof && line.len == 0)
			break;
		lineno++;
		snprintf(where, sizeof where, "%s:%zu", name, lineno);
		if (toolong) {
			ev_err_set(err, EV_EXIT_USAGE, where, "qrels line longer than %d bytes",
			    QRELS_MAX_LINE);
			goto fail;
		}
		/* A byte order mark (as Windows editors save a file) is no part
		 * of the first query's id. */
		skip = lineno == 1 && line.len >= 3 && memcmp(line.p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		if (ev_qrels_add_line(q, line.len ? line.p + skip : "", line.len - skip, where,
		    err) == -1)
			goto fail;
		judged = 1;
		if (eof)
			break;
	}
	if (!judged || q->nq == 0) {
		ev_err_set(err, EV_EXIT_USAGE, name, "no judgements in the qrels file");
		goto fail;
	}
	goto out;
fail:
	failed = 1;
out:
	if (fp != stdin)
		fclose(fp);
	ev_buf_release(&line);
	if (failed) {
		ev_qrels_free(q);
		return NULL;
	}
	return q;
}

/* ---- Runs ---- */

struct hit {
	long rq;		/* index of the query in the run's order */
	char *doc;		/* owned */
	double rank;		/* HUGE_VAL when absent */
	double score;		/* -HUGE_VAL when absent */
	int has_score;
	size_t seq;		/* arrival */
};

struct ev_run {
	struct ev_strmap qmap;	/* the query ids, numbered as in qids */
	const char **qids;	/* borrowed from qmap, in order of first appearance */
	size_t nq, capq;
	struct hit *hits;
	size_t nhits, caphits;
	int sorted;
};

struct ev_run *
ev_run_new(struct ev_err *err)
{
	struct ev_run *run = calloc(1, sizeof *run);

	if (run == NULL)
		ev_err_nomem(err);
	return run;
}

void
ev_run_free(struct ev_run *run)
{
	size_t i;

	if (run == NULL)
		return;
	for (i = 0; i < run->nhits; i++)
		free(run->hits[i].doc);
	free(run->hits);
	free(run->qids);
	ev_strmap_release(&run->qmap);
	free(run);
}

int
ev_run_add(struct ev_run *run, const char *qid, const char *doc_id, int has_rank,
	double rank, int has_score, double score, const char *where, struct ev_err *err)
{
	int32_t rq;
	struct hit *h;
	size_t qlen = strlen(qid);

	if (qlen == 0)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'query_id' is empty");
	if (doc_id[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'doc_id' is empty");
	if (has_rank && (!isfinite(rank) || rank < 1))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'rank' must be a whole number from 1");
	if (has_score && !isfinite(score))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'score' must be a finite number");
	if ((rq = ev_strmap_find(&run->qmap, qid, qlen)) == -1) {
		if (ev_grow(&run->qids, &run->capq, run->nq, sizeof *run->qids, 64) == -1 ||
		    (rq = ev_strmap_add(&run->qmap, qid, qlen, NULL)) == -1)
			return ev_err_nomem(err);
		run->qids[run->nq++] = ev_strmap_key(&run->qmap, rq);
	}
	if (ev_grow(&run->hits, &run->caphits, run->nhits, sizeof *run->hits, 1024) == -1)
		return ev_err_nomem(err);
	h = &run->hits[run->nhits];
	if ((h->doc = strdup(doc_id)) == NULL)
		return ev_err_nomem(err);
	h->rq = rq;
	h->rank = has_rank ? rank : HUGE_VAL;
	h->score = has_score ? score : -HUGE_VAL;
	h->has_score = has_score;
	h->seq = run->nhits++;
	run->sorted = 0;
	return 0;
}

/* The text of an id field: a string as it is, an integer in decimal.
 * Returns 1 with buf filled, 0 when absent or null, -1 for another type. */
static int
id_text(const json_t *v, char *buf, size_t size, const char **out)
{
	if (v == NULL || json_is_null(v))
		return 0;
	if (json_is_string(v)) {
		*out = json_string_value(v);
		return 1;
	}
	if (json_is_integer(v)) {
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		*out = buf;
		return 1;
	}
	return -1;
}

int
ev_run_add_hit(struct ev_run *run, const json_t *hit, const char *where, struct ev_err *err)
{
	static const char *const names[2] = { "query_id", "doc_id" };
	char bufs[2][32];
	const char *ids[2];
	const json_t *v;
	double rank = 0, score = 0;
	int i, has_rank = 0, has_score = 0;

	if (!json_is_object(hit))
		return ev_err_set(err, EV_EXIT_USAGE, where, "a hit record must be a JSON object");
	for (i = 0; i < 2; i++) {
		switch (id_text(json_object_get(hit, names[i]), bufs[i], sizeof bufs[i], &ids[i])) {
		case 0:
			return ev_err_set(err, EV_EXIT_USAGE, where, "hit without '%s'", names[i]);
		case -1:
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field '%s' must be a string or an integer", names[i]);
		}
		if (strlen(ids[i]) != json_string_length(json_object_get(hit, names[i])) &&
		    json_is_string(json_object_get(hit, names[i])))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field '%s' holds a NUL character", names[i]);
	}
	if ((v = json_object_get(hit, "rank")) != NULL && !json_is_null(v)) {
		if (!json_is_number(v))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rank' must be a number");
		rank = json_number_value(v);
		if (!isfinite(rank) || rank < 1 || rank != floor(rank))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'rank' must be a whole number from 1");
		has_rank = 1;
	}
	if ((v = json_object_get(hit, "score")) != NULL && !json_is_null(v)) {
		if (!json_is_number(v))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'score' must be a number");
		score = json_number_value(v);
		has_score = 1;
	}
	return ev_run_add(run, ids[0], ids[1], has_rank, rank, has_score, score, where, err);
}

long long
ev_run_read(struct ev_run *run, char *const *paths, int npaths, const char *lane,
	ev_note_fn *note, void *ctx, struct ev_err *err)
{
	struct ev_jsonl *in;
	json_t *v;
	char first_lane[64] = "", other_lane[64] = "";
	long long nhits = 0, skipped = 0;
	int r;

	if ((in = ev_jsonl_open(paths, npaths, err)) == NULL)
		return -1;
	while ((r = ev_jsonl_next(in, &v, err)) == 1) {
		const char *hl = NULL;
		json_t *l = json_is_object(v) ? json_object_get(v, "lane") : NULL;

		if (l != NULL && !json_is_null(l)) {
			if (!json_is_string(l)) {
				json_decref(v);
				r = ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(in),
				    "field 'lane' must be a string");
				break;
			}
			hl = json_string_value(l);
		}
		if (lane != NULL && (hl == NULL || strcmp(hl, lane) != 0)) {
			skipped++;
			json_decref(v);
			continue;
		}
		r = ev_run_add_hit(run, v, ev_jsonl_where(in), err);
		if (r == 0 && hl != NULL) {
			if (first_lane[0] == '\0')
				snprintf(first_lane, sizeof first_lane, "%s", hl);
			else if (other_lane[0] == '\0' && strcmp(hl, first_lane) != 0)
				snprintf(other_lane, sizeof other_lane, "%s", hl);
		}
		json_decref(v);
		if (r == -1)
			break;
		nhits++;
	}
	ev_jsonl_close(in);
	if (r == -1)
		return -1;
	if (other_lane[0] != '\0')
		ev_note(note, ctx, "hits of several lanes ('%s', '%s') pooled into one ranking per "
		    "query; --lane evaluates one", first_lane, other_lane);
	if (nhits == 0)
		ev_note(note, ctx, "no hits read%s: every query scores 0",
		    skipped ? " (all of another lane)" : "");
	return nhits;
}

static int
hit_cmp(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->rq != y->rq)
		return x->rq < y->rq ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort the hits, and mark the repeats of a document within a query by
 * clearing their doc (freeing it): what stays is each document's best place. */
static int
run_sort(struct ev_run *run, struct ev_err *err)
{
	struct ev_strmap seen = EV_STRMAP_INIT;
	struct ev_buf key = EV_BUF_INIT;
	size_t i;
	int rc = 0;

	if (run->sorted)
		return 0;
	if (run->nhits > 1)
		qsort(run->hits, run->nhits, sizeof *run->hits, hit_cmp);
	for (i = 0; i < run->nhits; i++) {
		struct hit *h = &run->hits[i];
		int added;

		if (h->doc == NULL)
			continue;
		if (pair_key(&key, h->rq, h->doc) == -1) {
			rc = ev_err_nomem(err);
			break;
		}
		if (ev_strmap_add(&seen, key.p, key.len, &added) == -1) {
			rc = ev_err_nomem(err);
			break;
		}
		if (!added) {
			free(h->doc);
			h->doc = NULL;
		}
	}
	ev_strmap_release(&seen);
	ev_buf_release(&key);
	if (rc == 0)
		run->sorted = 1;
	return rc;
}

/* ---- Evaluation ---- */

static int
gain_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x > y ? -1 : x < y;
}

/* The discount of 1-based rank pos, as trec_eval 9.0.x's ndcg_cut computes
 * it: log2(pos + 1) at every rank (earlier versions left ranks 1 and 2
 * undiscounted, log2(max(pos, 2))). */
static double
discount(long pos)
{
	return log2((double)pos + 1.0);
}

/* Figures for qrels query qi given its ranking (docs[0..n), repeats removed). */
static int
eval_query(const struct ev_qrels *q, long qi, char *const *docs, size_t n,
	const struct ev_eval_opts *o, struct ev_buf *key, struct ev_eval_figures *f,
	struct ev_err *err)
{
	const struct qquery *qq = &q->qs[qi];
	double *ideal = NULL, dcg = 0, idcg = 0, apsum = 0;
	size_t i, nideal = 0;
	long found = 0;

	memset(f, 0, sizeof *f);
	if (qq->nrels > 0 && (ideal = malloc(qq->nrels * sizeof *ideal)) == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < qq->nrels; i++)
		if (qq->rels[i] >= o->level)
			ideal[nideal++] = o->binary ? 1.0 : (double)qq->rels[i];
	f->relevant = (long)nideal;
	f->retrieved = (long)n;
	qsort(ideal, nideal, sizeof *ideal, gain_cmp);
	for (i = 0; i < nideal && (long)i < o->ndcg_k; i++)
		idcg += ideal[i] / discount((long)i + 1);
	free(ideal);
	for (i = 0; i < n; i++) {
		long pos = (long)i + 1;
		int32_t j;
		double gain;

		if (pair_key(key, qi, docs[i]) == -1)
			return ev_err_nomem(err);
		j = ev_strmap_find(&q->judged, key->p, key->len);
		if (j == -1 || q->rel[j] < o->level)
			continue;
		gain = o->binary ? 1.0 : (double)q->rel[j];
		found++;
		if (pos <= o->ndcg_k)
			dcg += gain / discount(pos);
		if (pos <= o->p_k)
			f->p += 1;
		if (pos <= o->recall_k)
			f->recall += 1;
		if (found == 1)
			f->mrr = 1.0 / (double)pos;
		apsum += (double)found / (double)pos;
	}
	f->relevant_retrieved = found;
	f->p /= (double)o->p_k;
	if (nideal > 0) {
		f->recall /= (double)nideal;
		f->map = apsum / (double)nideal;
		f->ndcg = idcg > 0 ? dcg / idcg : 0;
	} else {
		f->recall = 0;
	}
	return 0;
}

int
ev_eval_measure(const struct ev_qrels *q, struct ev_run *run, const struct ev_eval_opts *opts,
	ev_eval_each_fn *each, void *ctx, struct ev_eval_summary *sum, struct ev_err *err)
{
	static const struct ev_eval_opts defaults = EV_EVAL_OPTS_INIT;
	const struct ev_eval_opts *o = opts ? opts : &defaults;
	size_t *start = NULL, *count = NULL, i;
	char **docs = NULL;
	struct ev_buf key = EV_BUF_INIT;
	struct ev_eval_figures *m = &sum->mean;
	int rc = -1;

	memset(sum, 0, sizeof *sum);
	if (o->ndcg_k < 1 || o->p_k < 1 || o->recall_k < 1)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "cut-offs must be at least 1");
	if (!o->binary && o->level < 1)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "a relevance level below 1 needs binary gains");
	if (run_sort(run, err) == -1)
		return -1;
	/* Where each run query's hits start, how many documents it has. */
	if ((start = calloc(run->nq + 1, sizeof *start)) == NULL ||
	    (count = calloc(run->nq + 1, sizeof *count)) == NULL ||
	    (docs = malloc((run->nhits + 1) * sizeof *docs)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	{
		size_t nd = 0;
		long cur = -1;
		for (i = 0; i < run->nhits; i++) {
			const struct hit *h = &run->hits[i];
			if (h->rq != cur) {
				cur = h->rq;
				start[cur] = nd;
			}
			if (h->doc != NULL) {
				docs[nd++] = h->doc;
				count[cur]++;
			}
		}
	}
	sum->hits = (long)run->nhits;
	for (i = 0; i < run->nq; i++)
		if (ev_strmap_find(&q->qmap, run->qids[i], strlen(run->qids[i])) == -1)
			sum->unjudged_queries++;
	for (i = 0; i < q->nq; i++) {
		struct ev_eval_figures f;
		int32_t rq = ev_strmap_find(&run->qmap, q->qs[i].id, strlen(q->qs[i].id));
		size_t off = 0, n = 0;

		if (rq >= 0) {
			off = start[rq];
			n = count[rq];
		} else {
			sum->queries_without_hits++;
		}
		if (eval_query(q, (long)i, docs + off, n, o, &key, &f, err) == -1)
			goto out;
		if (each != NULL && each(q->qs[i].id, &f, ctx, err) == -1)
			goto out;
		m->ndcg += f.ndcg;
		m->map += f.map;
		m->recall += f.recall;
		m->mrr += f.mrr;
		m->p += f.p;
		m->relevant += f.relevant;
		m->retrieved += f.retrieved;
		m->relevant_retrieved += f.relevant_retrieved;
	}
	sum->queries = (long)q->nq;
	if (q->nq > 0) {
		m->ndcg /= (double)q->nq;
		m->map /= (double)q->nq;
		m->recall /= (double)q->nq;
		m->mrr /= (double)q->nq;
		m->p /= (double)q->nq;
	}
	rc = 0;
out:
	free(start);
	free(count);
	free(docs);
	ev_buf_release(&key);
	return rc;
}

int
ev_run_trec_check(const struct ev_run *run, struct ev_err *err)
{
	static const char blanks[] = " \t\n\r\v\f";

	for (size_t i = 0; i < run->nq; i++)
		if (strpbrk(run->qids[i], blanks) != NULL)
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "query_id '%s' holds white space, "
			    "which TREC format cannot carry", run->qids[i]);
	for (size_t i = 0; i < run->nhits; i++)
		if (run->hits[i].doc != NULL && strpbrk(run->hits[i].doc, blanks) != NULL)
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "doc_id '%s' holds white space, "
			    "which TREC format cannot carry", run->hits[i].doc);
	return 0;
}

int
ev_run_write_trec(struct ev_run *run, FILE *out, const char *tag, struct ev_err *err)
{
	size_t i;
	long cur = -1, pos = 0;

	if (run_sort(run, err) == -1)
		return -1;
	for (i = 0; i < run->nhits; i++) {
		const struct hit *h = &run->hits[i];

		if (h->rq != cur) {
			cur = h->rq;
			pos = 0;
		}
		if (h->doc == NULL)
			continue;
		pos++;
		if (h->has_score)
			fprintf(out, "%s Q0 %s %ld %.17g %s\n", run->qids[cur], h->doc, pos,
			    h->score, tag);
		else
			fprintf(out, "%s Q0 %s %ld %ld %s\n", run->qids[cur], h->doc, pos, -pos, tag);
	}
	if (fflush(out) == EOF || ferror(out))
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write the TREC run: %s",
		    strerror(errno));
	return 0;
}

/* Round to the four decimals printed. */
static double
round4(double v)
{
	return round(v * 10000.0) / 10000.0;
}

int
ev_eval_metric(const struct ev_eval_figures *f, const struct ev_eval_opts *opts,
	const char *name, double *out)
{
	static const struct ev_eval_opts defaults = EV_EVAL_OPTS_INIT;
	const struct ev_eval_opts *o = opts ? opts : &defaults;
	char buf[64];

	if (strcmp(name, "map") == 0)
		*out = f->map;
	else if (strcmp(name, "mrr") == 0)
		*out = f->mrr;
	else if (strcmp(name, "ndcg") == 0 ||
	    (snprintf(buf, sizeof buf, "ndcg@%ld", o->ndcg_k), strcmp(name, buf) == 0))
		*out = f->ndcg;
	else if (strcmp(name, "p") == 0 ||
	    (snprintf(buf, sizeof buf, "p@%ld", o->p_k), strcmp(name, buf) == 0))
		*out = f->p;
	else if (strcmp(name, "recall") == 0 ||
	    (snprintf(buf, sizeof buf, "recall@%ld", o->recall_k), strcmp(name, buf) == 0))
		*out = f->recall;
	else
		return -1;
	*out = round4(*out);
	return 0;
}

int
ev_eval_format(struct ev_buf *b, const char *qid, const struct ev_eval_figures *f,
	const struct ev_eval_summary *sum, const struct ev_eval_opts *opts)
{
	static const struct ev_eval_opts defaults = EV_EVAL_OPTS_INIT;
	const struct ev_eval_opts *o = opts ? opts : &defaults;
	int rc = 0;

	if (qid != NULL) {
		json_t *id = json_string(qid);
		char *s = id ? json_dumps(id, JSON_ENCODE_ANY) : NULL;

		json_decref(id);
		if (s == NULL)
			return -1;
		rc |= ev_buf_printf(b, "{\"query_id\":%s,", s);
		free(s);
	} else {
		f = &sum->mean;
		rc |= ev_buf_printf(b, "{\"queries\":%ld,", sum->queries);
	}
	rc |= ev_buf_printf(b, "\"ndcg@%ld\":%.4f,\"map\":%.4f,\"recall@%ld\":%.4f,"
	    "\"mrr\":%.4f,\"p@%ld\":%.4f,\"relevant\":%ld,\"retrieved\":%ld,"
	    "\"relevant_retrieved\":%ld",
	    o->ndcg_k, round4(f->ndcg), round4(f->map), o->recall_k, round4(f->recall),
	    round4(f->mrr), o->p_k, round4(f->p), f->relevant, f->retrieved,
	    f->relevant_retrieved);
	if (qid == NULL)
		rc |= ev_buf_printf(b, ",\"queries_without_hits\":%ld,\"unjudged_queries\":%ld,"
		    "\"hits\":%ld", sum->queries_without_hits, sum->unjudged_queries, sum->hits);
	rc |= ev_buf_addc(b, '}');
	return rc ? -1 : 0;
}
