/* ingest.c: documents into the store.  See ingest.h. */
#include "ingest.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "analyze.h"
#include "buf.h"
#include "chunk.h"
#include "corpus.h"
#include "jscan.h"
#include "langid.h"
#include "lexicon.h"
#include "postings.h"
#include "sha256.h"
#include "walcopy.h"

#define CHUNKER_VERSION "evkit-chunker/2"	/* 2: numbered clauses are sections */

/* The log's length, in pages, at which a commit has it copied into the
 * store (SQLite's default: 1000): fewer, larger copies write a page the
 * batches keep changing once rather than once a batch. */
#define WAL_COPY_PAGES 16384

struct ev_ingest {
	struct ev_store *st;
	struct ev_corpus *corpus;
	struct ev_ingest_opts o;
	struct ev_ingest_stats stats;
	int regions_table;	/* chunk_regions exists: 1, 0, or -1 not known yet */
	struct ev_regions regions;	/* the document being put */
	struct ev_buf lines;	/* a chunk's lines (ev_regions_span()) */
	struct ev_analyzer *an;	/* the store's tokeniser (replays recorded tokens) */
	struct ev_ingest_preparer *self;	/* prepares on this thread */
	struct ev_ingest_prep *prep;	/* a document prepared here */
	int bulk;		/* this run loads in bulk (ev_ingest_plan()) */
	int merging_set;	/* the index's merge settings are this run's */
	long long planned_at;	/* stats.written when the run was planned */
	struct ev_walcopy *walcopy;	/* copies the log on a thread, or NULL */
};

static struct ev_ingest_preparer *preparer_new(const struct ev_ingest_opts *o,
	struct ev_err *err);

/* The fields of a document record that ev-ingest knows. */
static const char *const doc_fields[] = {
	"id", "text", "title", "source_uri", "source_type", "language", "published_date",
	"metadata", NULL
};

/* The fields of a chunk record (a document field of one of these names is not
 * passed through). */
static const char *const chunk_fields[] = {
	"id", "doc_id", "section_id", "chunk_index", "title", "section_title", "section_path",
	"text", "source_uri", "offset_start", "offset_end", "content_hash", "page", "page_end", NULL
};

static int
in_list(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (strcmp(*list, key) == 0)
			return 1;
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct walk {
	char **v;
	size_t n, cap;
	struct walk *skipped;	/* files that are not documents, or NULL */
};

/* Take p into w; frees p when memory runs out. */
static int
walk_add(struct walk *w, char *p)
{
	return ev_ptr_take(&w->v, &w->n, &w->cap, p, 64);
}

static int
walk_dir(const char *dir, struct walk *w, int depth, struct ev_err *err)
{
	struct walk here = { NULL, 0, 0, NULL };
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (depth > 64)
		return ev_err_set(err, EV_EXIT_USAGE, dir, "directories nested too deeply");
	if ((d = opendir(dir)) == NULL)	/* bad usage, unless memory ran out */
		return errno == ENOMEM ? ev_err_nomem(err) :
		    ev_err_set(err, EV_EXIT_USAGE, dir, "cannot open: %s", strerror(errno));
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(dir) + strlen(de->d_name) + 2;
		char *p;

		if (de->d_name[0] == '.')
			continue;
		if ((p = malloc(n)) != NULL)
			snprintf(p, n, "%s%s%s", dir, *dir && dir[strlen(dir) - 1] == '/' ? "" : "/",
			    de->d_name);
		if (p == NULL || walk_add(&here, p) == -1) {
			closedir(d);
			rc = ev_err_nomem(err);
			goto out;
		}
	}
	closedir(d);
	if (here.n > 1)
		qsort(here.v, here.n, sizeof *here.v, by_name);
	for (size_t i = 0; i < here.n; i++) {
		struct stat sb, lsb;
		char *p = here.v[i];

		if (stat(p, &sb) == -1 || lstat(p, &lsb) == -1) {
			int k = ev_docread_kind(p);

			/* a dangling link: of a document's name, among the skipped
			 * files (whose reader says so), else ignored */
			if (w->skipped == NULL || lstat(p, &lsb) == -1 || !S_ISLNK(lsb.st_mode) ||
			    (k != EV_CHUNK_MARKDOWN && k != EV_CHUNK_TEXT && k != EV_DOCREAD_KIND_EXTRACT))
				continue;
			here.v[i] = NULL;
			if (walk_add(w->skipped, p) == -1) {
				rc = ev_err_nomem(err);
				goto out;
			}
			continue;
		}
		if (S_ISDIR(sb.st_mode)) {
			if (!S_ISLNK(lsb.st_mode) && walk_dir(p, w, depth + 1, err) == -1) {
				rc = -1;
				goto out;
			}
		} else if (S_ISREG(sb.st_mode)) {
			int k = ev_docread_kind(p);
			struct walk *to = k == EV_CHUNK_MARKDOWN || k == EV_CHUNK_TEXT ||
			    k == EV_DOCREAD_KIND_EXTRACT ? w : w->skipped;

			if (to == NULL)
				continue;
			here.v[i] = NULL;
			if (walk_add(to, p) == -1) {
				rc = ev_err_nomem(err);
				goto out;
			}
		}
	}
out:
	for (size_t i = 0; i < here.n; i++)
		free(here.v[i]);
	free(here.v);
	return rc;
}

static void
walk_free(struct walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
}

int
ev_ingest_walk(const char *dir, char ***paths, size_t *n, char ***skipped, size_t *nskipped,
	struct ev_err *err)
{
	struct walk sk = { NULL, 0, 0, NULL }, w = { NULL, 0, 0, skipped ? &sk : NULL };

	if (walk_dir(dir, &w, 0, err) == -1) {
		walk_free(&w);
		walk_free(&sk);
		return -1;
	}
	*paths = w.v;
	*n = w.n;
	if (skipped) {
		*skipped = sk.v;
		*nskipped = sk.n;
	}
	return 0;
}

/* Ids of files. */
struct ev_ingest_ids {
	char *base;		/* resolved, absolute, no trailing '/' except "/" */
	char *dir, *rdir;	/* the last directory resolved, and what it gave */
};

char *
ev_ingest_resolve(const char *path, int dir_only, struct ev_err *err)
{
	char *r = realpath(path, NULL);
	struct stat sb;

	if (r == NULL) {
		ev_err_set(err, errno == ENOMEM ? EV_EXIT_RUNTIME : EV_EXIT_USAGE, path,
		    "cannot resolve: %s", strerror(errno));
		return NULL;
	}
	if (dir_only && (stat(r, &sb) == -1 || !S_ISDIR(sb.st_mode))) {
		ev_err_set(err, EV_EXIT_USAGE, path, "not a directory");
		free(r);
		return NULL;
	}
	return r;
}

struct ev_ingest_ids *
ev_ingest_ids_new(const char *base, struct ev_err *err)
{
	struct ev_ingest_ids *ids = calloc(1, sizeof *ids);

	if (ids == NULL || (ids->base = strdup(base)) == NULL) {
		free(ids);
		ev_err_nomem(err);
		return NULL;
	}
	return ids;
}

void
ev_ingest_ids_free(struct ev_ingest_ids *ids)
{
	if (ids == NULL)
		return;
	free(ids->base);
	free(ids->dir);
	free(ids->rdir);
	free(ids);
}

const char *
ev_ingest_ids_base(const struct ev_ingest_ids *ids)
{
	return ids->base;
}

/* abs relative to base: the rest of abs after "base/", "." for base itself,
 * or abs when it is outside base. */
static char *
relative(const char *base, const char *abs)
{
	size_t n = strlen(base);

	if (strcmp(base, "/") == 0)
		return strdup(abs[1] ? abs + 1 : ".");
	if (strncmp(abs, base, n) == 0 && abs[n] == '/')
		return strdup(abs + n + 1);
	if (strcmp(abs, base) == 0)
		return strdup(".");
	return strdup(abs);
}

char *
ev_ingest_ids_of(struct ev_ingest_ids *ids, const char *path, struct ev_err *err)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	char *dir, *abs, *id;
	size_t n;

	if (*name == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		/* a directory: resolved whole */
		if ((abs = ev_ingest_resolve(path, 0, err)) == NULL)
			return NULL;
		id = relative(ids->base, abs);
		free(abs);
		return id ? id : (ev_err_nomem(err), NULL);
	}
	if ((dir = slash == NULL ? strdup(".") : slash == path ? strdup("/") :
	    strndup(path, (size_t)(slash - path))) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	/* The directory part resolved once for the files of a directory; the
	 * name kept as it is (a symbolic link to a file keeps its own name). */
	if (ids->dir == NULL || strcmp(ids->dir, dir) != 0) {
		char *r = ev_ingest_resolve(dir, 1, err);

		if (r == NULL) {
			free(dir);
			return NULL;
		}
		free(ids->dir);
		free(ids->rdir);
		ids->dir = dir;
		ids->rdir = r;
	} else
		free(dir);
	n = strlen(ids->rdir) + strlen(name) + 2;
	if ((abs = malloc(n)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	snprintf(abs, n, "%s%s%s", ids->rdir, strcmp(ids->rdir, "/") == 0 ? "" : "/", name);
	id = relative(ids->base, abs);
	free(abs);
	if (id == NULL)
		ev_err_nomem(err);
	return id;
}

struct ev_ingest *
ev_ingest_open(struct ev_store *st, const struct ev_ingest_opts *o, struct ev_err *err)
{
	struct ev_ingest *ig;
	struct ev_err no_copier = { 0 };

	if (o->size < EV_CHUNK_SIZE_MIN || o->size > EV_CHUNK_SIZE_MAX) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "chunk size must be from %d to %d bytes: %zu",
		    EV_CHUNK_SIZE_MIN, EV_CHUNK_SIZE_MAX, o->size);
		return NULL;
	}
	if (o->overlap > o->size / 2) {
		ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "chunk overlap must be at most half the chunk size (%zu): %zu", o->size / 2,
		    o->overlap);
		return NULL;
	}
	if ((ig = calloc(1, sizeof *ig)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	ig->st = st;
	ig->o = *o;
	ig->regions_table = -1;
	/* For this connection: a page cache that holds the FTS5 segments being
	 * merged (2 MB by default), and fewer, larger checkpoints
	 * (WAL_COPY_PAGES).  Committed batches are in the WAL either way;
	 * closing the store checkpoints the rest.
	 * The documents' languages are read by every search that checks a word
	 * against the word lists (textsearch.c): an index makes that a few
	 * look-ups, not a scan.  Stores made before it get it here, once; and
	 * a full-text index of an older analysis is rebuilt, once (store.h). */
	(void)sqlite3_wal_autocheckpoint(ev_store_db(st), WAL_COPY_PAGES);
	if (ev_store_exec(st, "PRAGMA cache_size = -65536;"
	    " CREATE INDEX IF NOT EXISTS documents_language ON documents(language);", err) == -1 ||
	    ev_store_reanalyze(st, err) == -1) {
		free(ig);
		return NULL;
	}
	if ((ig->corpus = ev_corpus_open(st, err)) == NULL) {
		free(ig);
		return NULL;
	}
	ig->an = ev_analyze_find(ev_store_db(st));
	if ((ig->self = preparer_new(&ig->o, err)) == NULL) {
		ev_ingest_free(ig);
		return NULL;
	}
	if ((ig->prep = ev_ingest_prep_new()) == NULL) {
		ev_ingest_free(ig);
		ev_err_nomem(err);
		return NULL;
	}
	/* The log copied on a thread of its own (walcopy.h); without one, by
	 * the commits themselves, as set above. */
	ig->walcopy = ev_walcopy_start(ev_store_db(st), ev_store_path(st), WAL_COPY_PAGES,
	    &no_copier);
	return ig;
}

void
ev_ingest_free(struct ev_ingest *ig)
{
	if (ig == NULL)
		return;
	ev_walcopy_stop(ig->walcopy);
	ev_corpus_free(ig->corpus);
	ev_ingest_preparer_free(ig->self);
	ev_ingest_prep_free(ig->prep);
	ev_regions_release(&ig->regions);
	ev_buf_release(&ig->lines);
	free(ig);
}

const struct ev_ingest_stats *
ev_ingest_stats(const struct ev_ingest *ig)
{
	return &ig->stats;
}

int
ev_ingest_plan(struct ev_ingest *ig, long long docs, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(ig->st, "SELECT count(*) FROM documents", err);
	long long stored;
	int rc;

	if (s == NULL)
		return -1;
	rc = sqlite3_step(s);
	stored = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return ev_store_error(ig->st, "counting the documents", err);
	ig->bulk = docs >= stored;
	ig->merging_set = 0;
	ig->planned_at = ig->stats.written;
	return 0;
}

/* The index's merge settings made this run's (ev_store_fts_bulk()), once.
 * Returns 0, or -1 with *err set. */
static int
merge_settings(struct ev_ingest *ig, struct ev_err *err)
{
	if (ig->merging_set)
		return 0;
	if (ev_store_fts_bulk(ig->st, ig->bulk, err) == -1)
		return -1;
	ig->merging_set = 1;
	return 0;
}

int
ev_ingest_commit(struct ev_ingest *ig, struct ev_err *err)
{
	if (ev_corpus_sync(ig->corpus, err) == -1)
		return -1;
	/* FTS5 writes the batch's segment and merges at the commit: its
	 * settings are this run's by then, once the run writes */
	if ((ig->stats.written > ig->planned_at || !ig->bulk) && merge_settings(ig, err) == -1)
		return -1;
	return ev_store_commit(ig->st, err);
}

int
ev_ingest_finish(struct ev_ingest *ig, int in_txn, struct ev_err *err)
{
	int wanted = 0;	/* the postings file made next, from the segments */

	if (!ig->bulk || !ig->merging_set)
		return 0;
	if (ig->o.postings && (wanted = ev_postings_wanted(ig->st, EV_POSTINGS_AUTO_ROWS, err)) == -1)
		return -1;
	/* FTS5 writes the transaction's pending terms as a segment at its
	 * commit, or at a savepoint, and merges by the settings it then
	 * has: a savepoint has it write them under the load's, so that the
	 * settings given back after it merge nothing the postings build is
	 * to read as they are */
	if ((!in_txn && ev_store_begin(ig->st, err) == -1) ||
	    (wanted && ev_store_exec(ig->st, "SAVEPOINT ev_finish; RELEASE ev_finish", err) == -1) ||
	    (!wanted && ev_store_fts_optimize(ig->st, err) == -1) ||
	    ev_store_fts_bulk(ig->st, 0, err) == -1 || (!in_txn && ev_store_commit(ig->st, err) == -1)) {
		if (!in_txn)
			ev_store_rollback(ig->st);
		return -1;
	}
	/* the settings are FTS5's own from here on: a commit of the caller's
	 * (ev_ingest_commit()) leaves them */
	ig->bulk = 0;
	return 0;
}

int
ev_ingest_seen(struct ev_ingest *ig, const char *id, struct ev_err *err)
{
	if (ig->o.no_prune)
		return 0;
	return ev_corpus_seen(ig->corpus, id, err);
}

int
ev_ingest_prune(struct ev_ingest *ig, const char *source, long long *n, struct ev_err *err)
{
	if (ig->o.no_prune)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "cannot prune: the documents were not marked seen (no_prune)");
	return ev_corpus_prune(ig->corpus, source, n, err);
}

int
ev_ingest_delete(struct ev_ingest *ig, const char *id, struct ev_err *err)
{
	return ev_corpus_delete(ig->corpus, id, err);
}

int
ev_ingest_delete_source(struct ev_ingest *ig, const char *source, long long *n,
	struct ev_err *err)
{
	return ev_corpus_delete_source(ig->corpus, source, n, err);
}

/* The directory the store's file is in, resolved (ev_ingest_resolve()),
 * malloc'd; NULL with *err set. */
static char *
store_dir(struct ev_store *st, struct ev_err *err)
{
	const char *path = ev_store_path(st), *slash = strrchr(path, '/');
	char *dir, *r;

	if (slash == NULL)
		return ev_ingest_resolve(".", 1, err);
	if ((dir = strndup(path, slash == path ? 1 : (size_t)(slash - path))) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	r = ev_ingest_resolve(dir, 1, err);
	free(dir);
	return r;
}

/* What records the absolute base in meta: the base relative to the store's
 * directory when it is that directory or below it, else the base itself;
 * malloc'd, NULL with *err set. */
static char *
base_record(struct ev_store *st, const char *base, struct ev_err *err)
{
	char *dir = store_dir(st, err), *rec;

	if (dir == NULL)
		return NULL;
	if ((rec = relative(dir, base)) == NULL || rec[0] == '/') {
		free(rec);
		rec = strdup(base);
	}
	free(dir);
	if (rec == NULL)
		ev_err_nomem(err);
	return rec;
}

int
ev_ingest_base_get(struct ev_store *st, char **base, struct ev_err *err)
{
	int r = ev_store_meta_get(st, EV_INGEST_BASE_KEY, base, err);
	char *dir, *abs;

	if (r != 1 || (*base)[0] == '/')
		return r;
	if ((dir = store_dir(st, err)) == NULL) {
		free(*base);
		return -1;
	}
	if (strcmp(*base, ".") == 0)
		abs = dir;
	else {
		if ((abs = malloc(strlen(dir) + strlen(*base) + 2)) != NULL)
			sprintf(abs, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", *base);
		free(dir);
	}
	free(*base);
	*base = abs;
	return abs != NULL ? 1 : ev_err_nomem(err);
}

int
ev_ingest_base_relate(struct ev_store *st, struct ev_err *err)
{
	char *rec = NULL, *now = NULL;
	int r = ev_store_meta_get(st, EV_INGEST_BASE_KEY, &rec, err);

	if (r == 1 && rec[0] == '/' && (now = base_record(st, rec, err)) == NULL)
		r = -1;
	else if (r == 1 && now != NULL && now[0] != '/')
		r = ev_store_meta_set(st, EV_INGEST_BASE_KEY, now, err) == -1 ? -1 : 1;
	else if (r == 1)
		r = 0;
	free(rec);
	free(now);
	return r;
}

struct ev_ingest_ids *
ev_ingest_ids_open(const char *db, const char *base_arg, struct ev_store **st, struct ev_err *err)
{
	char *base = NULL, *recorded = NULL;
	struct ev_ingest_ids *ids = NULL;
	struct stat sb;

	if (stat(db, &sb) == 0 && ((*st = ev_store_open(db, EV_STORE_WRITE, err)) == NULL ||
	    ev_ingest_base_relate(*st, err) == -1 || ev_ingest_base_get(*st, &recorded, err) == -1))
		goto out;
	if ((recorded == NULL || base_arg != NULL) &&
	    (base = ev_ingest_resolve(base_arg ? base_arg : ".", 1, err)) == NULL)
		goto out;
	if (recorded != NULL && base_arg != NULL && strcmp(base, recorded) != 0) {
		ev_err_set(err, EV_EXIT_USAGE, db, "the store's base is '%s', not '%s': file ids are"
		    " relative to it (leave --base out, or use a new store)", recorded, base);
		goto out;
	}
	ids = ev_ingest_ids_new(recorded ? recorded : base, err);
out:
	free(base);
	free(recorded);
	return ids;
}

/* A chunk's language for ev_store_reindex(): its document's, else its text's. */
static void
chunk_lang(void *lex, const char *text, size_t len, const char *declared, char *out)
{
	ev_langid_doc(lex, declared, text, len, out);
}

int
ev_ingest_reindex(const char *db, struct ev_err *err)
{
	struct ev_store *st = ev_store_open(db, EV_STORE_UPGRADE, err);
	struct ev_lex *lex = NULL;
	int r = -1;

	if (st != NULL && (lex = ev_lex_open(NULL, err)) != NULL)
		r = ev_store_reindex(st, chunk_lang, lex, err);
	ev_lex_close(lex);
	ev_store_close(st);
	return r;
}

/* All rows of a one-column query, malloc'd. */
static int
column(struct ev_store *st, const char *sql, char ***v, size_t *n, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, sql, err);
	struct walk w = { NULL, 0, 0, NULL };
	int r;

	if (s == NULL)
		return -1;
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		char *x = strdup((const char *)sqlite3_column_text(s, 0));

		if (x == NULL || walk_add(&w, x) == -1) {
			sqlite3_reset(s);
			walk_free(&w);
			return ev_err_nomem(err);
		}
	}
	sqlite3_reset(s);
	if (r != SQLITE_DONE) {
		walk_free(&w);
		return ev_store_error(st, "reading documents", err);
	}
	*v = w.v;
	*n = w.n;
	return 0;
}

/* What a path stored "as given" (relative to the base) is now: its id, or
 * NULL when it no longer resolves (kept as it is). */
static char *
legacy_id(struct ev_ingest_ids *ids, const char *old)
{
	struct ev_err e = { 0 };
	size_t n = strlen(ids->base) + strlen(old) + 2;
	char *abs = malloc(n), *id;

	if (abs == NULL)
		return NULL;
	if (old[0] == '/')
		snprintf(abs, n, "%s", old);
	else
		snprintf(abs, n, "%s/%s", ids->base, old);
	id = ev_ingest_ids_of(ids, abs, &e);
	free(abs);
	return id;
}

int
ev_ingest_base_set(struct ev_ingest *ig, struct ev_ingest_ids *ids, long long *renamed,
	long long *merged, struct ev_err *err)
{
	char **v = NULL, *rec = base_record(ig->st, ids->base, err);
	size_t n = 0, i;
	int rc = rec == NULL ? -1 : ev_store_meta_set(ig->st, EV_INGEST_BASE_KEY, rec, err);

	free(rec);
	if (rc == -1 ||
	    column(ig->st, "SELECT doc_id FROM documents WHERE source_uri = doc_id AND"
	    " source_type IN ('markdown', 'text') ORDER BY doc_id", &v, &n, err) == -1)
		return -1;
	rc = -1;
	for (i = 0; i < n; i++) {
		char *id = legacy_id(ids, v[i]);
		sqlite3_stmt *s;
		int r;

		if (id == NULL || strcmp(id, v[i]) == 0) {
			free(id);
			continue;
		}
		if ((s = ev_store_prepare(ig->st, "SELECT 1 FROM documents WHERE doc_id = ?", err)) ==
		    NULL) {
			free(id);
			goto out;
		}
		/* (a failed bind, out of memory, would find no row: a rename) */
		r = sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT) == SQLITE_OK ?
		    sqlite3_step(s) : SQLITE_NOMEM;
		sqlite3_reset(s);
		if (r != SQLITE_ROW && r != SQLITE_DONE) {
			free(id);
			ev_store_error(ig->st, "reading documents", err);
			goto out;
		}
		r = r == SQLITE_ROW ? ev_corpus_delete(ig->corpus, v[i], err) :
		    ev_corpus_rename(ig->corpus, v[i], id, err);
		free(id);
		if (r == -1)
			goto out;
		(*(r == 1 ? merged : renamed))++;
	}
	walk_free(&(struct walk){ v, n, n, NULL });
	v = NULL;
	n = 0;
	/* Sources that name a file or directory (the operand as given). */
	if (column(ig->st, "SELECT DISTINCT source FROM documents WHERE source IS NOT NULL"
	    " AND source <> 'stdin'", &v, &n, err) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		char *src = legacy_id(ids, v[i]);
		sqlite3_stmt *s;

		if (src == NULL || strcmp(src, v[i]) == 0) {
			free(src);
			continue;
		}
		s = ev_store_prepare(ig->st, "UPDATE documents SET source = ?2 WHERE source = ?1", err);
		if (s != NULL) {
			sqlite3_bind_text(s, 1, v[i], -1, SQLITE_STATIC);
			sqlite3_bind_text(s, 2, src, -1, SQLITE_STATIC);
			if (sqlite3_step(s) != SQLITE_DONE)
				ev_store_error(ig->st, "renaming a source", err), s = NULL;
			else
				sqlite3_reset(s);
		}
		free(src);
		if (s == NULL)
			goto out;
	}
	rc = 0;
out:
	walk_free(&(struct walk){ v, n, n, NULL });
	return rc;
}

static const char *
str_or_null(const json_t *doc, const char *key)
{
	const json_t *v = json_object_get(doc, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int
put_opt(struct ev_buf *b, const char *s)
{
	return s ? ev_jscan_put_str(b, s, strlen(s)) : ev_buf_adds(b, "null");
}

/* For json_dump_callback(): values of any type, reals exact (17 digits),
 * as they came. */
static int
add_bytes(const char *s, size_t n, void *b)
{
	return ev_buf_add(b, s, n);
}

/* An object of up to 32 string members written into out as
 * json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS) writes it, without its cost.
 * Returns 1, 0 when m is not such an object (nothing written), -1 when out of
 * memory. */
static int
dump_strings(json_t *m, struct ev_buf *out)
{
	const char *keys[32], *k;
	size_t n = 0, klen;
	json_t *v;

	if (json_object_size(m) > sizeof keys / sizeof *keys)
		return 0;
	json_object_keylen_foreach(m, k, klen, v) {
		if (!json_is_string(v) || strlen(k) != klen)
			return 0;
		keys[n++] = k;
	}
	qsort(keys, n, sizeof *keys, by_name);	/* as Jansson sorts them */
	for (size_t i = 0; i < n; i++) {
		v = json_object_get(m, keys[i]);
		if (ev_buf_addc(out, i ? ',' : '{') == -1 ||
		    ev_jscan_put_str(out, keys[i], strlen(keys[i])) == -1 ||
		    ev_buf_addc(out, ':') == -1 ||
		    ev_jscan_put_str(out, json_string_value(v), json_string_length(v)) == -1)
			return -1;
	}
	return ev_buf_addc(out, '}') == -1 ? -1 : 1;
}

int
ev_ingest_rec_make(const json_t *doc, int from_file, struct ev_ingest_rec *rec,
	struct ev_buf *meta, struct ev_buf *extra)
{
	json_t *m, *v, *md = json_object_get(doc, "metadata");
	struct ev_regions regs = EV_REGIONS_INIT;
	struct ev_err ignore = { 0 };
	const char *k;
	int rc = -1, paged = 0;
	size_t at = 0;

	memset(rec, 0, sizeof *rec);
	rec->id = json_string_value(json_object_get(doc, "id"));
	rec->text = json_string_value(json_object_get(doc, "text"));
	rec->text_len = json_string_length(json_object_get(doc, "text"));
	rec->title = str_or_null(doc, "title");
	rec->source_uri = str_or_null(doc, "source_uri");
	rec->source_type = str_or_null(doc, "source_type");
	rec->language = str_or_null(doc, "language");
	rec->published_date = str_or_null(doc, "published_date");
	rec->from_file = from_file;
	ev_buf_reset(meta);
	ev_buf_reset(extra);
	if ((m = json_object()) == NULL)
		return -1;
	json_object_foreach((json_t *)doc, k, v) {
		if (in_list(doc_fields, k))
			continue;
		if (json_object_set(m, k, v) == -1)
			goto out;
		if (in_list(chunk_fields, k))
			continue;
		if (ev_buf_addc(extra, ',') == -1 || ev_jscan_put_str(extra, k, strlen(k)) == -1 ||
		    ev_buf_addc(extra, ':') == -1 ||
		    json_dump_callback(v, add_bytes, extra, JSON_COMPACT | JSON_ENCODE_ANY) == -1)
			goto out;
	}
	if (json_is_object(md) && json_object_update(m, md) == -1)
		goto out;
	/* pages and lines go to the chunks (region.h), not the document */
	if (ev_regions_present(md) &&
	    ev_regions_read(md, rec->text_len, &regs, NULL, &ignore) == 0) {
		paged = 1;
		json_object_del(m, "pages");
		json_object_del(m, "lines");
	}
	if (json_object_size(m) > 0) {
		int r = dump_strings(m, meta);
		char *s;

		if (r == -1)
			goto out;
		if (r == 0) {
			if ((s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS)) == NULL ||
			    ev_buf_adds(meta, s) == -1) {
				free(s);
				goto out;
			}
			free(s);
		}
		rec->metadata = ev_buf_str(meta);
	}
	if (paged) {
		/* after the metadata's NUL, in the same buffer */
		if (rec->metadata != NULL && ev_buf_addc(meta, '\0') == -1)
			goto out;
		at = meta->len;
		if (ev_regions_encode(&regs, meta) == -1 || ev_buf_reserve(meta, 1) == -1)
			goto out;
		if (rec->metadata != NULL)
			rec->metadata = meta->p;
		rec->regions = meta->p + at;
		rec->regions_len = meta->len - at;
	}
	rec->extra = ev_buf_str(extra);
	rc = 0;
out:
	ev_regions_release(&regs);
	json_decref(m);
	return rc;
}

/* The string fields of a record, in their packed order. */
#define REC_NSTR 10

static void
rec_fields(const struct ev_ingest_rec *r, const char *f[REC_NSTR], size_t n[REC_NSTR])
{
	f[0] = r->id;
	f[1] = r->text;
	f[2] = r->title;
	f[3] = r->source_uri;
	f[4] = r->source_type;
	f[5] = r->language;
	f[6] = r->published_date;
	f[7] = r->metadata;
	f[8] = r->extra;
	f[9] = r->regions;
	for (int i = 0; i < REC_NSTR; i++)
		n[i] = f[i] == NULL ? 0 : i == 1 ? r->text_len : i == 9 ? r->regions_len : strlen(f[i]);
}

int
ev_ingest_rec_pack(const struct ev_ingest_rec *rec, struct ev_buf *out)
{
	const char *f[REC_NSTR];
	size_t n[REC_NSTR];
	unsigned char flag = (unsigned char)(rec->from_file != 0);

	rec_fields(rec, f, n);
	if (ev_buf_add(out, &flag, 1) == -1)
		return -1;
	for (int i = 0; i < REC_NSTR; i++) {
		uint64_t len = f[i] ? (uint64_t)n[i] : UINT64_MAX;

		if (ev_buf_add(out, &len, sizeof len) == -1 ||
		    (f[i] && (ev_buf_add(out, f[i], n[i]) == -1 || ev_buf_addc(out, '\0') == -1)))
			return -1;
	}
	return 0;
}

int
ev_ingest_rec_unpack(const char *p, size_t n, struct ev_ingest_rec *rec)
{
	const char *f[REC_NSTR], *end = p + n;
	size_t len[REC_NSTR];

	if (n < 1)
		return -1;
	memset(rec, 0, sizeof *rec);
	rec->from_file = *p++ != 0;
	for (int i = 0; i < REC_NSTR; i++) {
		uint64_t l;

		if ((size_t)(end - p) < sizeof l)
			return -1;
		memcpy(&l, p, sizeof l);
		p += sizeof l;
		f[i] = NULL;
		len[i] = 0;
		if (l == UINT64_MAX)
			continue;
		if ((uint64_t)(end - p) < l + 1 || p[l] != '\0')
			return -1;
		f[i] = p;
		len[i] = (size_t)l;
		p += l + 1;
	}
	if (p != end || f[0] == NULL || f[1] == NULL || f[8] == NULL)
		return -1;
	rec->id = f[0];
	rec->text = f[1];
	rec->text_len = len[1];
	rec->title = f[2];
	rec->source_uri = f[3];
	rec->source_type = f[4];
	rec->language = f[5];
	rec->published_date = f[6];
	rec->metadata = f[7];
	rec->extra = f[8];
	rec->regions = f[9];
	rec->regions_len = len[9];
	return 0;
}

static int
is_markdown_name(const char *path)
{
	return ev_docread_kind(path) == EV_CHUNK_MARKDOWN;
}

static int
format_of(const struct ev_ingest_opts *o, const struct ev_ingest_rec *r)
{
	const char *t = r->source_type;

	if (o->format != EV_INGEST_AUTO)
		return o->format;
	if (t && (strcasecmp(t, "markdown") == 0 || strcasecmp(t, "md") == 0 ||
	    strcasecmp(t, "text/markdown") == 0))
		return EV_CHUNK_MARKDOWN;
	if (t)
		return EV_CHUNK_TEXT;
	if (is_markdown_name(r->id) || (r->source_uri && is_markdown_name(r->source_uri)))
		return EV_CHUNK_MARKDOWN;
	return EV_CHUNK_TEXT;
}

/* "name" of "dir/name.md". */
static char *
base_title(const char *path)
{
	const char *b = strrchr(path, '/'), *dot;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	return strndup(b, dot && dot > b ? (size_t)(dot - b) : strlen(b));
}

/* sha256 of every field of the record and the chunking options. */
static void
doc_hash(const struct ev_ingest_opts *o, const struct ev_ingest_rec *r, int format,
	char out[EV_SHA256_TEXT])
{
	struct ev_sha256 s;
	const char *f[REC_NSTR];
	size_t n[REC_NSTR];
	char params[128];
	unsigned char flag = (unsigned char)(r->from_file != 0);

	rec_fields(r, f, n);
	ev_sha256_init(&s);
	ev_sha256_update(&s, &flag, 1);
	/* the regions only when there are some: the hash of every other
	 * document stays what it was before they were added */
	for (int i = 0; i < REC_NSTR - (f[REC_NSTR - 1] == NULL); i++) {
		uint64_t len = f[i] ? (uint64_t)n[i] : UINT64_MAX;

		ev_sha256_update(&s, &len, sizeof len);
		if (f[i])
			ev_sha256_update(&s, f[i], n[i]);
	}
	snprintf(params, sizeof params, "%s size=%zu overlap=%zu format=%s", CHUNKER_VERSION,
	    o->size, o->overlap, format == EV_CHUNK_MARKDOWN ? "markdown" : "text");
	ev_sha256_update(&s, params, strlen(params));
	ev_sha256_final_text(&s, out);
}

struct ev_ingest_prep {
	char dhash[EV_SHA256_TEXT];	/* the document's content hash */
	int format;			/* how it is chunked */
	int chunked;			/* what follows is made (else the hash alone) */
	struct ev_chunks cs;
	struct ev_corpus_chunk *ch;	/* its nch chunks, as they are stored */
	size_t nch;
	struct ev_buf *texts;		/* a chunk's text when it carries table headers */
	char (*hashes)[EV_SHA256_TEXT];
	char (*langs)[EV_ANALYZE_CODE_MAX];
	char **ids;
	unsigned char *changed;		/* for ev_corpus_put() */
	char *derived;			/* a title found in the text or the file's name */
	const char *title;		/* the document's title, or NULL */
	/* With a recording preparer: each indexed column of each chunk as FTS5
	 * receives it (tagged with the chunk's language), and its tokens. */
	struct ev_buf tagged;
	struct ev_analyze_tape tape;
	struct ev_analyze_cue *cues;
	size_t ncues, cap_cues;
};

struct ev_ingest_preparer {
	struct ev_ingest_opts o;
	struct ev_lex *lex;		/* stop lists: a chunk's language */
	struct ev_analyzer *an;		/* a clone that records tokens, or NULL */
	sqlite3 *db;			/* a reader of the store, or NULL */
	sqlite3_stmt *stored;		/* a document's content hash there */
	sqlite3_stmt *begin, *end;	/* its read transaction */
	int reads;			/* look-ups in it so far */
};

/* Look-ups in one read transaction of the preparer's reader: a transaction
 * of its own for each would lock and unlock the store's shared memory each
 * time, and one kept open for good would keep the writer's checkpoints from
 * emptying the write-ahead log. */
#define READS_PER_TXN 256

/* Forget the document p was made for; the buffers stay for the next. */
static void
prep_reset(struct ev_ingest_prep *p)
{
	if (p->texts)
		for (size_t i = 0; i < p->cs.n; i++)
			ev_buf_release(&p->texts[i]);
	if (p->ids)
		for (size_t i = 0; i < (p->nch ? p->nch : 1); i++)
			free(p->ids[i]);
	free(p->ids);
	free(p->texts);
	free(p->hashes);
	free(p->langs);
	free(p->changed);
	free(p->ch);
	free(p->derived);
	ev_chunks_release(&p->cs);
	p->ids = NULL;
	p->texts = NULL;
	p->hashes = NULL;
	p->langs = NULL;
	p->changed = NULL;
	p->ch = NULL;
	p->derived = NULL;
	p->nch = 0;
	p->chunked = 0;
	p->title = NULL;
	ev_buf_reset(&p->tagged);
	ev_buf_reset(&p->tape.b);
	p->ncues = 0;
}

struct ev_ingest_prep *
ev_ingest_prep_new(void)
{
	struct ev_ingest_prep *p = calloc(1, sizeof *p);

	if (p != NULL)
		p->cs = (struct ev_chunks)EV_CHUNKS_INIT;
	return p;
}

void
ev_ingest_prep_free(struct ev_ingest_prep *p)
{
	if (p == NULL)
		return;
	prep_reset(p);
	ev_buf_release(&p->tagged);
	ev_buf_release(&p->tape.b);
	free(p->cues);
	free(p);
}

/* The hash and format of r into p (reset). */
static void
prep_hash(const struct ev_ingest_opts *o, const struct ev_ingest_rec *r, struct ev_ingest_prep *p)
{
	prep_reset(p);
	p->format = format_of(o, r);
	doc_hash(o, r, p->format, p->dhash);
}

/* r's content hash with o's options: what prep_hash() gives without a prep. */
static void
rec_hash(const struct ev_ingest_opts *o, const struct ev_ingest_rec *r, char dhash[EV_SHA256_TEXT])
{
	doc_hash(o, r, format_of(o, r), dhash);
}

/* A chunk's column as FTS5 receives it: "" when it indexes nothing. */
static size_t
tagged_len(const char *lang, const char *col, size_t n)
{
	if (col == NULL || n == 0)
		return 0;
	return (lang[0] != '\0' ? strlen(lang) + 2 : 0) + n;
}

/* Column i of chunk k (col[0..n)) as chunks_fts receives it, tagged with
 * k->lang as EV_STORE_TAG tags it, into p->tagged (room reserved), followed
 * by a NUL; and its tokens recorded as a cue when it has any.  Returns 1,
 * 0 when the column is too long to be indexed (nothing made), or -1 when
 * out of memory. */
static int
cue_column(struct ev_analyzer *an, struct ev_ingest_prep *p, struct ev_corpus_chunk *k, int i,
	const char *col, size_t n)
{
	struct ev_analyze_cue *q;
	size_t len = tagged_len(k->lang, col, n), at = p->tagged.len, from = p->tape.b.len;

	if (len > INT32_MAX)
		return 0;	/* FTS5 refuses it first: nothing to record */
	if (k->lang[0] == '\0' && len == 0) {
		k->fts[i] = col;	/* as it is: NULL, or no text */
		k->fts_len[i] = 0;
		k->fts_z[i] = col != NULL;
		return 1;
	}
	if (k->lang[0] != '\0') {	/* room reserved: these cannot fail */
		ev_buf_addc(&p->tagged, EV_ANALYZE_TAG);
		ev_buf_adds(&p->tagged, k->lang);
		ev_buf_addc(&p->tagged, EV_ANALYZE_TAG);
	}
	if (len > 0)
		ev_buf_add(&p->tagged, col, n);
	ev_buf_addc(&p->tagged, '\0');
	k->fts[i] = p->tagged.p + at;
	k->fts_len[i] = p->tagged.len - 1 - at;
	k->fts_z[i] = memchr(k->fts[i], '\0', k->fts_len[i]) == NULL;
	if (len == 0)
		return 1;	/* the tag alone: no tokens */
	if (ev_analyze_record(an, p->tagged.p + at, (int)len, &p->tape) == -1)
		return -1;
	q = &p->cues[p->ncues++];
	q->text = p->tagged.p + at;
	q->n = (int)len;
	q->tape = &p->tape;
	q->at = from;
	q->end = p->tape.b.len;
	return 1;
}

/* The columns of p's chunks as chunks_fts receives them, and their tokens,
 * recorded with an. */
static int
prep_tokens(struct ev_analyzer *an, struct ev_ingest_prep *p)
{
	size_t room = 1;

	for (size_t i = 0; i < p->nch; i++) {
		const struct ev_corpus_chunk *k = &p->ch[i];
		const char *title = k->title_is_text ? NULL : p->title;

		room += tagged_len(k->lang, title, title ? strlen(title) : 0) +
		    tagged_len(k->lang, k->section_title, k->section_title ? strlen(k->section_title) : 0) +
		    tagged_len(k->lang, k->text, k->len) + 3 * (strlen(k->lang) + 3);
	}
	if (ev_buf_reserve(&p->tagged, room) == -1 ||
	    ev_grow(&p->cues, &p->cap_cues, 3 * p->nch, sizeof *p->cues, 16) == -1)
		return -1;
	for (size_t i = 0; i < p->nch; i++) {
		struct ev_corpus_chunk *k = &p->ch[i];
		const char *title = k->title_is_text ? NULL : p->title;
		int a, b, c;

		if ((a = cue_column(an, p, k, 0, title, title ? strlen(title) : 0)) == -1 ||
		    (b = cue_column(an, p, k, 1, k->section_title,
		    k->section_title ? strlen(k->section_title) : 0)) == -1 ||
		    (c = cue_column(an, p, k, 2, k->text, k->len)) == -1)
			return -1;
		k->fts_ready = a && b && c;
	}
	return 0;
}

/* Chunk r into p (whose hash and format are set): each chunk's id, text,
 * hash and language, and with pr->an the tokens of its columns. */
static int
prep_chunks(struct ev_ingest_preparer *pr, const struct ev_ingest_rec *r,
	struct ev_ingest_prep *p, struct ev_err *err)
{
	struct ev_chunk_opts co;
	size_t i, idlen = strlen(r->id);

	co.size = pr->o.size;
	co.overlap = pr->o.overlap;
	co.format = p->format;
	if (ev_chunk_split(r->text, r->text_len, &co, &p->cs, err) == -1)
		return -1;
	/* A document without a title takes its first level-1 heading's, or its
	 * file's name. */
	p->title = r->title;
	if (p->title == NULL && (p->cs.title || r->from_file)) {
		if ((p->derived = p->cs.title ? strdup(p->cs.title) : base_title(r->id)) == NULL)
			goto nomem;
		p->title = p->derived;
	}
	/* A title is content: a record with a title and no text is found by
	 * it, its one chunk's text (indexed once: the chunk has no title of
	 * its own).  A file's name is not: an empty file has no chunk. */
	if (p->cs.n == 0 && r->title != NULL && r->title[strspn(r->title, " \t\r\n")] != '\0') {
		size_t n = idlen + 16;

		if ((p->ch = calloc(1, sizeof *p->ch)) == NULL ||
		    (p->ids = calloc(1, sizeof *p->ids)) == NULL ||
		    (p->hashes = calloc(1, sizeof *p->hashes)) == NULL ||
		    (p->langs = calloc(1, sizeof *p->langs)) == NULL ||
		    (p->changed = calloc(1, 1)) == NULL || (p->ids[0] = malloc(n)) == NULL)
			goto nomem;
		snprintf(p->ids[0], n, "%s:_top:0", r->id);
		p->ch[0].id = p->ids[0];
		p->ch[0].section_id = "_top";
		p->ch[0].section_title = p->ch[0].section_path = "";
		p->ch[0].text = r->title;
		p->ch[0].len = strlen(r->title);
		p->ch[0].title_is_text = 1;
		ev_sha256_text(p->ch[0].text, p->ch[0].len, p->hashes[0]);
		p->ch[0].content_hash = p->hashes[0];
		p->nch = 1;
	}
	if (p->cs.n > 0 && ((p->ch = calloc(p->cs.n, sizeof *p->ch)) == NULL ||
	    (p->texts = calloc(p->cs.n, sizeof *p->texts)) == NULL ||
	    (p->hashes = calloc(p->cs.n, sizeof *p->hashes)) == NULL ||
	    (p->langs = calloc(p->cs.n, sizeof *p->langs)) == NULL ||
	    (p->ids = calloc(p->cs.n, sizeof *p->ids)) == NULL ||
	    (p->changed = calloc(p->cs.n, 1)) == NULL))
		goto nomem;
	if (p->cs.n > 0)
		p->nch = p->cs.n;
	for (i = 0; i < p->cs.n; i++) {
		const struct ev_chunk *c = &p->cs.v[i];
		struct ev_corpus_chunk *k = &p->ch[i];
		const struct ev_section *s = &p->cs.sections[c->section];
		size_t n = idlen + strlen(s->id) + 24;

		if ((p->ids[i] = malloc(n)) == NULL)
			goto nomem;
		snprintf(p->ids[i], n, "%s:%s:%d", r->id, s->id, c->index);
		k->id = p->ids[i];
		k->section_id = s->id;
		k->section_title = s->title;
		k->section_path = s->path;
		k->chunk_index = c->index;
		k->offset_start = c->start;
		k->offset_end = c->end;
		if (c->head_end > c->head_start) {
			if (ev_chunk_text(r->text, c, &p->texts[i]) == -1)
				goto nomem;
			k->text = p->texts[i].p;
			k->len = p->texts[i].len;
		} else {
			k->text = r->text + c->start;
			k->len = c->end - c->start;
		}
		ev_sha256_text(k->text, k->len, p->hashes[i]);
		k->content_hash = p->hashes[i];
	}
	for (i = 0; i < p->nch; i++) {
		ev_langid_doc(pr->lex, r->language, p->ch[i].text, p->ch[i].len, p->langs[i]);
		p->ch[i].lang = p->langs[i];
		p->changed[i] = 1;
	}
	if (pr->an != NULL && prep_tokens(pr->an, p) == -1)
		goto nomem;
	p->chunked = 1;
	return 0;
nomem:
	return ev_err_nomem(err);
}

/* Whether the store held document id with content hash dhash when pr's
 * reader last looked (0 when it cannot tell). */
static int
stored_as(struct ev_ingest_preparer *pr, const char *id, const char *dhash)
{
	sqlite3_stmt *s = pr->stored;
	int same;

	if (pr->reads++ == 0) {
		sqlite3_step(pr->begin);
		sqlite3_reset(pr->begin);
	}
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	same = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0) != NULL &&
	    strcmp((const char *)sqlite3_column_text(s, 0), dhash) == 0;
	sqlite3_reset(s);
	if (pr->reads == READS_PER_TXN) {
		sqlite3_step(pr->end);
		sqlite3_reset(pr->end);
		pr->reads = 0;
	}
	return same;
}

int
ev_ingest_prepare(struct ev_ingest_preparer *pr, const struct ev_ingest_rec *r,
	struct ev_ingest_prep *p, struct ev_err *err)
{
	prep_hash(&pr->o, r, p);
	/* a document stored as it is will be skipped: not worth chunking */
	if (pr->stored != NULL && pr->o.output != EV_INGEST_ALL && stored_as(pr, r->id, p->dhash))
		return 0;
	return prep_chunks(pr, r, p, err);
}

/* A preparer with ig's options and stop lists of its own. */
static struct ev_ingest_preparer *
preparer_new(const struct ev_ingest_opts *o, struct ev_err *err)
{
	struct ev_ingest_preparer *pr = calloc(1, sizeof *pr);

	if (pr == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	pr->o = *o;
	if ((pr->lex = ev_lex_open(NULL, err)) == NULL) {
		free(pr);
		return NULL;
	}
	return pr;
}

void
ev_ingest_preparer_free(struct ev_ingest_preparer *pr)
{
	if (pr == NULL)
		return;
	sqlite3_finalize(pr->stored);
	sqlite3_finalize(pr->begin);
	sqlite3_finalize(pr->end);
	sqlite3_close(pr->db);
	ev_analyze_free(pr->an);
	ev_lex_close(pr->lex);
	free(pr);
}

/* Open a reader of the store for pr, when the store has documents (the
 * documents it holds as they are need no chunking); none is no error. */
static void
open_reader(struct ev_ingest_preparer *pr, struct ev_store *st)
{
	sqlite3_stmt *s = NULL;
	int any;

	if (sqlite3_prepare_v2(ev_store_db(st), "SELECT 1 FROM documents LIMIT 1", -1, &s, NULL) !=
	    SQLITE_OK)
		return;
	any = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	if (!any || sqlite3_open_v2(ev_store_path(st), &pr->db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK || sqlite3_busy_timeout(pr->db, 1000) != SQLITE_OK ||
	    sqlite3_prepare_v2(pr->db, "SELECT content_hash FROM documents WHERE doc_id = ?", -1,
	    &pr->stored, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(pr->db, "BEGIN", -1, &pr->begin, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(pr->db, "COMMIT", -1, &pr->end, NULL) != SQLITE_OK) {
		sqlite3_finalize(pr->stored);
		sqlite3_finalize(pr->begin);
		sqlite3_finalize(pr->end);
		sqlite3_close(pr->db);
		pr->stored = pr->begin = pr->end = NULL;
		pr->db = NULL;
	}
}

struct ev_ingest_preparer *
ev_ingest_preparer_new(struct ev_ingest *ig, struct ev_err *err)
{
	struct ev_ingest_preparer *pr = preparer_new(&ig->o, err);

	if (pr == NULL)
		return NULL;
	if (ig->an != NULL && (pr->an = ev_analyze_clone(ig->an)) == NULL) {
		ev_ingest_preparer_free(pr);
		ev_err_nomem(err);
		return NULL;
	}
	open_reader(pr, ig->st);
	return pr;
}

struct ev_ingest_preparer *
ev_ingest_checker_new(struct ev_store *st, const struct ev_ingest_opts *o)
{
	struct ev_ingest_preparer *pr;

	if (o->output == EV_INGEST_ALL || (pr = calloc(1, sizeof *pr)) == NULL)
		return NULL;
	pr->o = *o;
	open_reader(pr, st);
	if (pr->stored == NULL) {
		ev_ingest_preparer_free(pr);
		return NULL;
	}
	return pr;
}

int
ev_ingest_checker_holds(struct ev_ingest_preparer *pr, const struct ev_ingest_rec *r,
	char dhash[EV_SHA256_TEXT])
{
	rec_hash(&pr->o, r, dhash);
	return stored_as(pr, r->id, dhash);
}

void
ev_ingest_hash(const struct ev_ingest *ig, const struct ev_ingest_rec *r, char dhash[EV_SHA256_TEXT])
{
	rec_hash(&ig->o, r, dhash);
}

int
ev_ingest_keep(struct ev_ingest *ig, const char *id, const char *dhash, long long text_len,
	const char *source, struct ev_err *err)
{
	int unchanged = ev_corpus_unchanged(ig->corpus, id, dhash, source, err);

	if (unchanged != 1)
		return unchanged;
	if (ev_ingest_seen(ig, id, err) == -1)
		return -1;
	ig->stats.bytes += text_len;
	ig->stats.unchanged++;
	return 1;
}

/* One chunk record (evkit(7)'s Chunk), its page and page_end when it has a
 * page (else page is 0), metadata.clause_id when it is a clause's (chunk.h),
 * and the unknown fields. */
static int
add_record(struct ev_buf *b, const struct ev_ingest_rec *r, const struct ev_corpus_chunk *k,
	const char *title, long page, long page_end)
{
	size_t cn;
	const char *clause = ev_chunk_clause_of(k->section_path, &cn);

	return ev_buf_adds(b, "{\"id\":") == -1 || put_opt(b, k->id) == -1 ||
	    ev_buf_adds(b, ",\"doc_id\":") == -1 || put_opt(b, r->id) == -1 ||
	    ev_buf_adds(b, ",\"section_id\":") == -1 || put_opt(b, k->section_id) == -1 ||
	    ev_buf_adds(b, ",\"chunk_index\":") == -1 ||
	    ev_jscan_put_int(b, k->chunk_index) == -1 ||
	    ev_buf_adds(b, ",\"title\":") == -1 || put_opt(b, title) == -1 ||
	    ev_buf_adds(b, ",\"section_title\":") == -1 || put_opt(b, k->section_title) == -1 ||
	    ev_buf_adds(b, ",\"section_path\":") == -1 || put_opt(b, k->section_path) == -1 ||
	    ev_buf_adds(b, ",\"text\":") == -1 || ev_jscan_put_str(b, k->text, k->len) == -1 ||
	    ev_buf_adds(b, ",\"source_uri\":") == -1 || put_opt(b, r->source_uri) == -1 ||
	    ev_buf_adds(b, ",\"offset_start\":") == -1 ||
	    ev_jscan_put_int(b, (long long)k->offset_start) == -1 ||
	    ev_buf_adds(b, ",\"offset_end\":") == -1 ||
	    ev_jscan_put_int(b, (long long)k->offset_end) == -1 ||
	    ev_buf_adds(b, ",\"content_hash\":\"") == -1 ||
	    ev_buf_adds(b, k->content_hash) == -1 || ev_buf_addc(b, '"') == -1 ||
	    (page > 0 && ev_buf_printf(b, ",\"page\":%ld", page) == -1) ||
	    (page_end > page && ev_buf_printf(b, ",\"page_end\":%ld", page_end) == -1) ||
	    (clause != NULL && (ev_buf_adds(b, ",\"metadata\":{\"clause_id\":") == -1 ||
	    ev_jscan_put_str(b, clause, cn) == -1 || ev_buf_addc(b, '}') == -1)) ||
	    ev_buf_adds(b, r->extra ? r->extra : "") == -1 || ev_buf_adds(b, "}\n") == -1 ? -1 : 0;
}

/* After document r's chunks were stored: its old regions forgotten (when the
 * store has any), and the table made for a paged document's. */
static int
regions_ready(struct ev_ingest *ig, const struct ev_ingest_rec *r, struct ev_err *err)
{
	if (ig->regions_table == -1 && (ig->regions_table = ev_region_table(ig->st, err)) == -1)
		return -1;
	if (ig->regions_table == 0 && r->regions != NULL) {
		if (ev_region_create(ig->st, err) == -1)
			return -1;
		/* a rollback would undo it: ask again next time */
		ig->regions_table = -1;
		return 0;
	}
	return ig->regions_table == 1 ? ev_region_forget(ig->st, r->id, err) : 0;
}

int
ev_ingest_put_prepared(struct ev_ingest *ig, const struct ev_ingest_rec *r,
	struct ev_ingest_prep *p, const char *source, struct ev_buf *out, struct ev_err *err)
{
	int unchanged, rc, ahead = p != NULL && p->chunked;
	size_t i;

	if (ev_ingest_seen(ig, r->id, err) == -1)
		return -1;
	ig->stats.bytes += (long long)r->text_len;
	if (p == NULL) {
		p = ig->prep;
		prep_hash(&ig->o, r, p);
	}
	if ((unchanged = ev_corpus_unchanged(ig->corpus, r->id, p->dhash, source, err)) == -1)
		return -1;
	if (unchanged && ig->o.output != EV_INGEST_ALL) {
		ig->stats.unchanged++;
		return 0;
	}
	ig->stats.ahead += ahead;
	if (!p->chunked && prep_chunks(ig->self, r, p, err) == -1)
		return -1;
	if (r->regions != NULL && ev_regions_decode(r->regions, r->regions_len, &ig->regions) == -1)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: bad pages");
	if (!unchanged) {
		struct ev_corpus_doc d = {
			r->id, source, p->title, r->source_uri, r->source_type, r->language,
			r->published_date, r->metadata, p->dhash, r->text_len
		};

		/* the settings before the run's first write: FTS5 writes its
		 * pending terms as a segment whenever they pass its hash size,
		 * within a batch too, and with its own automerge four such
		 * segments begin a merge that a bulk load's settings would then
		 * leave half done, an index the postings build cannot read
		 * segment by segment (fts5seg.h) */
		if (merge_settings(ig, err) == -1)
			return -1;
		if (ig->an != NULL)
			ev_analyze_expect(ig->an, p->cues, p->ncues);
		rc = ev_corpus_put(ig->corpus, &d, p->ch, p->nch, p->changed, err);
		if (ig->an != NULL)
			ev_analyze_expect(ig->an, NULL, 0);
		if (rc == -1 || regions_ready(ig, r, err) == -1)
			return -1;
		ig->stats.written++;
		if (p->nch == 0)
			ig->stats.empty++;
	} else
		ig->stats.unchanged++;
	for (i = 0; i < p->nch; i++) {
		long page = 0, page_end = 0;
		int got = 0;

		if (!unchanged && p->changed[i])
			ig->stats.chunks++;
		if (r->regions != NULL && !p->ch[i].title_is_text) {
			ev_buf_reset(&ig->lines);
			if ((got = ev_regions_span(&ig->regions, p->ch[i].offset_start,
			    p->ch[i].offset_end, &page, &page_end, &ig->lines)) == -1)
				return ev_err_nomem(err);
			if (got == 1 && !unchanged && ev_region_put(ig->st, p->ch[i].id, page, page_end,
			    ev_buf_str(&ig->lines), err) == -1)
				return -1;
		}
		if (ig->o.output == EV_INGEST_NONE ||
		    (ig->o.output == EV_INGEST_CHANGED && !p->changed[i]))
			continue;
		if (add_record(out, r, &p->ch[i], p->title, page, page_end) == -1)
			return ev_err_nomem(err);
		ig->stats.printed++;
	}
	return !unchanged;
}

int
ev_ingest_put(struct ev_ingest *ig, const struct ev_ingest_rec *r, const char *source,
	struct ev_buf *out, struct ev_err *err)
{
	return ev_ingest_put_prepared(ig, r, NULL, source, out, err);
}

int
ev_ingest_doc(struct ev_ingest *ig, json_t *doc, const char *source, int from_file,
	struct ev_buf *out, struct ev_err *err)
{
	struct ev_buf meta = EV_BUF_INIT, extra = EV_BUF_INIT;
	struct ev_ingest_rec rec;
	int rc;

	if (ev_ingest_rec_make(doc, from_file, &rec, &meta, &extra) == -1)
		rc = ev_err_nomem(err);
	else
		rc = ev_ingest_put(ig, &rec, source, out, err);
	ev_buf_release(&meta);
	ev_buf_release(&extra);
	return rc;
}
