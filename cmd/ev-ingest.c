/* ev-ingest: documents in, chunks into the store, the new or changed chunk
 * records out.
 *
 * Two passes, so that bad input leaves the store exactly as it was and a
 * killed run keeps what it committed: the first reads every input, checks
 * every record and copies the good ones into a spool file (stdin included);
 * the second chunks and writes them in batched transactions, printing a
 * batch's chunk records once it is committed (so that a later stage never
 * sees a chunk the store does not have).  Needs all input before its first
 * output line, for that reason. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "buf.h"
#include "chunk.h"
#include "cli.h"
#include "config.h"
#include "ingest.h"
#include "jsonl.h"
#include "sha256.h"
#include "store.h"

static const char usage_text[] =
	"usage: ev-ingest --db DB [--all | --quiet] [--prune] [--skip-invalid] [--source NAME]\n"
	"                 [--format auto | jsonl | markdown | text] [--base DIR] [--verbose]\n"
	"                 [--size N] [--overlap N] [--batch N] [FILE|DIR ...]\n"
	"       ev-ingest --db DB --delete ID|FILE ... | --delete-source NAME|DIR ...\n"
	"Read documents (JSON Lines; .md, .txt, .rst and README-like files; directories of\n"
	"them), store them and their chunks in DB, and print the chunk records that are new\n"
	"or changed.  A file's id is its path relative to the store's base directory.\n"
	"  --db DB          the store, created when missing\n"
	"  --all            print every chunk of the documents read\n"
	"  --quiet          print no chunk records\n"
	"  --prune          delete the documents of these sources that this run did not see\n"
	"  --skip-invalid   skip bad records (counted on stderr) instead of stopping\n"
	"  --source NAME    the source of every input (default: each input's name)\n"
	"  --format F       how named files are read and documents chunked: auto (by\n"
	"                   extension and source_type), jsonl, markdown or text\n"
	"  --base DIR       the base of file ids, recorded at the store's first ingest\n"
	"                   (default: the current directory)\n"
	"  --verbose        name each file a directory holds that is not a document\n"
	"  --delete         delete the documents named (ids, or files by their path)\n"
	"  --delete-source  delete every document of the sources named\n"
	"  --size N         target chunk size in bytes (64-10000000, default 1200)\n"
	"  --overlap N      overlap of consecutive chunks in bytes (up to size/2, default 200)\n"
	"  --batch N        documents per transaction (1-1000000, default 10000)\n"
	"  --config FILE    defaults from YAML (db, chunk.size, chunk.overlap, chunk.format,\n"
	"                   ingest.batch, ingest.prune, ingest.skip_invalid, ingest.source,\n"
	"                   ingest.base)\n"
	"  --log FILE       append a ToolRun line\n"
	"  --help, --version\n";

enum {
	OPT_DB = EV_OPT_FIRST_FREE, OPT_ALL, OPT_QUIET, OPT_PRUNE, OPT_SKIP, OPT_SOURCE,
	OPT_FORMAT, OPT_SIZE, OPT_OVERLAP, OPT_BATCH, OPT_BASE, OPT_VERBOSE, OPT_DELETE,
	OPT_DELETE_SOURCE
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "prune", no_argument, NULL, OPT_PRUNE },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "overlap", required_argument, NULL, OPT_OVERLAP },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "delete", no_argument, NULL, OPT_DELETE },
	{ "delete-source", no_argument, NULL, OPT_DELETE_SOURCE },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

static const char *const config_keys[] = {
	"db", "chunk.size", "chunk.overlap", "chunk.format", "ingest.batch", "ingest.prune",
	"ingest.skip_invalid", "ingest.source", "ingest.base", NULL
};

/* A batch is committed after --batch documents, this long, or this much
 * input, whichever comes first.  Few, large transactions: FTS5 writes its
 * pending terms as a new segment at each commit, and merges segments as they
 * pile up, so small batches cost more than the indexing itself. */
#ifndef BATCH_MS
#define BATCH_MS 1000
#endif
#define BATCH_BYTES (16 << 20)
#define BATCH_DOCS 10000	/* --batch's default */
#define WARN_MAX 10		/* skipped records named on stderr; the rest counted */

enum { REC_DOC = 0, REC_SEEN = 1 };

/* A spooled record: this header, then len bytes (a document packed by
 * ev_ingest_rec_pack(), or for REC_SEEN the id of an invalid record). */
struct spool_hdr {
	uint32_t kind, source, input;
	uint64_t line, len;
};

struct run {
	struct ev_cli *cli;
	int skip_invalid, verbose;
	int format;		/* EV_INGEST_AUTO, EV_INGEST_KIND_JSONL or a chunk format */
	struct ev_ingest_ids *ids_of;	/* file ids relative to the base */
	const char *source;	/* --source, or NULL */
	FILE *spool;
	char **inputs;		/* names for messages, by index */
	size_t ninputs;
	char **sources;		/* distinct sources, by index */
	size_t nsources;
	unsigned char *source_blind;	/* a source had invalid records without ids */
	json_t *ids;		/* id -> where first seen */
	json_t *texts;		/* sha256 of a file's text -> its id */
	struct ev_buf pack, meta, extra;	/* a record being spooled */
	long long docs, invalid, skipped, copies, again;
};

static int
add_name(char ***v, size_t *n, const char *s, size_t *index)
{
	char **x;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0) {
			*index = i;
			return 0;
		}
	if ((x = realloc(*v, (*n + 1) * sizeof *x)) == NULL)
		return -1;
	*v = x;
	if ((x[*n] = strdup(s)) == NULL)
		return -1;
	*index = (*n)++;
	return 0;
}

static int
add_input(struct run *r, const char *s, size_t *index)
{
	char **x = realloc(r->inputs, (r->ninputs + 1) * sizeof *x);

	if (x == NULL)
		return -1;
	r->inputs = x;
	if ((x[r->ninputs] = strdup(s)) == NULL)
		return -1;
	*index = r->ninputs++;
	return 0;
}

static int
spool_put(struct run *r, uint32_t kind, size_t source, size_t input, size_t line,
	const char *data, size_t len, struct ev_err *err)
{
	struct spool_hdr h;

	memset(&h, 0, sizeof h);	/* no uninitialised padding written out */
	h.kind = kind;
	h.source = (uint32_t)source;
	h.input = (uint32_t)input;
	h.line = line;
	h.len = len;
	if (fwrite(&h, sizeof h, 1, r->spool) != 1 ||
	    (len > 0 && fwrite(data, 1, len, r->spool) != len))
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the spool file: %s",
		    strerror(errno ? errno : EIO));
	return 0;
}

/* A bad record: fatal (-1), or skipped with --skip-invalid (0).  id, when
 * known, is kept from --prune. */
static int
invalid(struct run *r, const char *id, size_t source, struct ev_err *err)
{
	if (!r->skip_invalid || err->code != EV_EXIT_USAGE)
		return -1;
	if (r->invalid < WARN_MAX)
		ev_cli_report(err);
	r->invalid++;
	ev_err_clear(err);
	if (id == NULL) {
		r->source_blind[source] = 1;
		return 0;
	}
	return spool_put(r, REC_SEEN, source, 0, 0, id, strlen(id), err);
}

/* A checked document: refused when its id was seen before in this run, else
 * spooled. */
static int
accept(struct run *r, json_t *doc, int from_file, size_t source, size_t input, size_t line,
	const char *where, struct ev_err *err)
{
	const char *id = json_string_value(json_object_get(doc, "id"));
	json_t *first = json_object_get(r->ids, id);
	struct ev_ingest_rec rec;

	if (first != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, where, "duplicate document id '%s' (first at %s)", id,
		    json_is_array(first) ? json_string_value(json_array_get(first, 0)) :
		    json_string_value(first));
		return invalid(r, id, source, err);
	}
	/* a file's entry is [where], a record's "where" (see read_plain()) */
	if (json_object_set_new(r->ids, id, from_file ? json_pack("[s]", where) :
	    json_string(where)) == -1)
		return ev_err_nomem(err);
	ev_buf_reset(&r->pack);
	if (ev_ingest_rec_make(doc, from_file, &rec, &r->meta, &r->extra) == -1 ||
	    ev_ingest_rec_pack(&rec, &r->pack) == -1)
		return ev_err_nomem(err);
	r->docs++;
	return spool_put(r, REC_DOC, source, input, line, r->pack.p, r->pack.len, err);
}

static int
read_jsonl(struct run *r, const char *path, size_t source, struct ev_err *err)
{
	char *paths[1] = { (char *)path };
	struct ev_jsonl *in;
	const char *line;
	size_t len, input;
	int got, rc = 0;

	if (add_input(r, strcmp(path, "-") == 0 ? "stdin" : path, &input) == -1)
		return ev_err_nomem(err);
	if ((in = ev_jsonl_open(paths, 1, err)) == NULL)
		return -1;
	while ((got = ev_jsonl_next_line(in, &line, &len, err)) == 1) {
		const char *where = ev_jsonl_where(in), *id;
		size_t i;
		json_t *doc;

		for (i = 0; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
			;
		if (i == len)
			continue;
		if ((doc = ev_ingest_parse(line, len, where, err)) == NULL) {
			if ((rc = invalid(r, NULL, source, err)) == -1)
				break;
			continue;
		}
		if (ev_ingest_check(doc, where, err) == -1) {
			id = json_string_value(json_object_get(doc, "id"));
			rc = invalid(r, id && *id ? id : NULL, source, err);
		} else
			rc = accept(r, doc, 0, source, input, ev_jsonl_lineno(in), where, err);
		json_decref(doc);
		if (rc == -1)
			break;
	}
	if (got == -1)
		rc = -1;
	ev_jsonl_close(in);
	return rc;
}

/* A file whose text is another file's of this run (a copy, a link) is
 * warned about: a second copy under another id.  Returns 0 or -1. */
static int
same_text(struct run *r, json_t *doc, struct ev_err *err)
{
	json_t *t = json_object_get(doc, "text"), *first;
	const char *id = json_string_value(json_object_get(doc, "id"));
	char h[EV_SHA256_TEXT];

	if (json_string_length(t) == 0)
		return 0;
	ev_sha256_text(json_string_value(t), json_string_length(t), h);
	if ((first = json_object_get(r->texts, h)) != NULL) {
		if (r->copies++ < WARN_MAX)
			ev_warn("%s: same text as '%s': a second copy under another id",
			    id, json_string_value(first));
		return 0;
	}
	return json_object_set_new(r->texts, h, json_string(id)) == -1 ? ev_err_nomem(err) : 0;
}

/* A plain document; walked: found in a directory, where a file with no
 * extension that is not UTF-8 text (a program) is skipped, not refused. */
static int
read_plain(struct run *r, const char *path, size_t source, int walked, struct ev_err *err)
{
	const char *name = strrchr(path, '/');
	char *id = ev_ingest_ids_of(r->ids_of, path, err);
	json_t *doc;
	size_t input;
	int rc;

	if (id == NULL)
		return -1;
	/* The same file named twice (docs and ./docs/a.md, a link to a
	 * directory): read once. */
	if (json_is_array(json_object_get(r->ids, id))) {
		if (r->again++ < WARN_MAX)
			ev_warn("%s: the same file as '%s': read once", path,
			    json_string_value(json_array_get(json_object_get(r->ids, id), 0)));
		free(id);
		return 0;
	}
	doc = ev_ingest_read_file(path, id,
	    r->format == EV_INGEST_KIND_JSONL ? EV_INGEST_AUTO : r->format, err);
	free(id);
	name = name ? name + 1 : path;
	if (doc == NULL && walked && err->code == EV_EXIT_USAGE && strchr(name, '.') == NULL) {
		if (r->verbose)
			ev_warn("%s: skipped: not UTF-8 text (%s)", path, err->msg);
		ev_err_clear(err);
		r->skipped++;
		return 0;
	}
	if (doc == NULL)
		return invalid(r, NULL, source, err);
	if (same_text(r, doc, err) == -1) {
		json_decref(doc);
		return -1;
	}
	if (add_input(r, path, &input) == -1) {
		json_decref(doc);
		return ev_err_nomem(err);
	}
	rc = accept(r, doc, 1, source, input, 1, path, err);
	json_decref(doc);
	return rc;
}

/* Pass 1: every input checked and spooled.  A named file is read as
 * --format says, or by its extension (ev_ingest_kind(): any other is JSON
 * Lines); one that is not a regular file (a pipe, /dev/stdin) is JSON Lines
 * unless --format names a plain kind. */
static int
read_input(struct run *r, const char *arg, struct ev_err *err)
{
	char *id = NULL;
	const char *src = r->source;
	struct stat sb;
	size_t source;
	unsigned char *x;
	int kind, rc;

	if (strcmp(arg, "-") != 0 && stat(arg, &sb) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, arg, "cannot open: %s", strerror(errno));
	if (src == NULL && strcmp(arg, "-") == 0)
		src = "stdin";
	else if (src == NULL) {
		/* a directory is resolved whole, as "DIR/" (a link to one names
		 * the directory it leads to, as the ids of its files do) */
		size_t n = strlen(arg);
		char *d = S_ISDIR(sb.st_mode) && arg[n - 1] != '/' ? malloc(n + 2) : NULL;

		if (d != NULL)
			memcpy(d, arg, n), memcpy(d + n, "/", 2);
		src = id = ev_ingest_ids_of(r->ids_of, d ? d : arg, err);
		free(d);
		if (id == NULL)
			return -1;
	}
	rc = add_name(&r->sources, &r->nsources, src, &source);
	free(id);
	if (rc == -1 || (x = realloc(r->source_blind, r->nsources)) == NULL)
		return ev_err_nomem(err);
	r->source_blind = x;
	if (source == r->nsources - 1)
		x[source] = 0;
	if (strcmp(arg, "-") == 0)
		return read_jsonl(r, arg, source, err);
	if (S_ISDIR(sb.st_mode)) {
		char **paths, **skipped;
		size_t n, nskipped;
		long long before = r->skipped;

		if (ev_ingest_walk(arg, &paths, &n, &skipped, &nskipped, err) == -1)
			return -1;
		rc = 0;
		for (size_t i = 0; i < n; i++) {
			if (rc == 0)
				rc = read_plain(r, paths[i], source, 1, err);
			free(paths[i]);
		}
		for (size_t i = 0; i < nskipped; i++) {
			if (r->verbose)
				ev_warn("%s: skipped: not a document by its name", skipped[i]);
			free(skipped[i]);
		}
		free(paths);
		free(skipped);
		r->skipped += (long long)nskipped;
		if (rc == 0 && !r->verbose && r->skipped > before)
			ev_warn("%s: skipped %lld file%s that %s not documents (--verbose names them)",
			    arg, r->skipped - before, r->skipped - before == 1 ? "" : "s",
			    r->skipped - before == 1 ? "is" : "are");
		return rc;
	}
	kind = ev_ingest_kind(arg);
	if (r->format == EV_INGEST_KIND_JSONL || kind == EV_INGEST_KIND_JSONL)
		return read_jsonl(r, arg, source, err);
	if (r->format != EV_INGEST_AUTO ||
	    (S_ISREG(sb.st_mode) && (kind == EV_CHUNK_MARKDOWN || kind == EV_CHUNK_TEXT)))
		return read_plain(r, arg, source, 0, err);
	return read_jsonl(r, arg, source, err);
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
flush_out(struct ev_buf *out, struct ev_err *err)
{
	if (out->len > 0 && (fwrite(out->p, 1, out->len, stdout) != out->len || fflush(stdout) == EOF))
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s",
		    strerror(errno ? errno : EIO));
	ev_buf_reset(out);
	return 0;
}

/* Testing aid: EV_INGEST_KILL_AFTER=N kills the process (SIGKILL) right
 * after its N-th commit, as an operator or the OOM killer would. */
static long
kill_after(void)
{
	const char *s = getenv("EV_INGEST_KILL_AFTER");

	return s ? strtol(s, NULL, 10) : 0;
}

/* Pass 2: the spooled documents into the store in batched transactions. */
/* In the first transaction of a store that has no base: record it (and
 * give the documents stored before from files their ids relative to it). */
static int
record_base(struct run *r, struct ev_store *st, struct ev_ingest *ig, struct ev_err *err)
{
	long long renamed = 0, merged = 0;
	char *have = NULL;
	int got = ev_ingest_base_get(st, &have, err);

	free(have);
	if (got != 0)
		return got == -1 ? -1 : 0;
	if (ev_ingest_base_set(ig, r->ids_of, &renamed, &merged, err) == -1)
		return -1;
	if (renamed + merged > 0)
		ev_warn("%s: file ids are now relative to the store's base '%s': %lld document%s"
		    " renamed, %lld second cop%s deleted", ev_store_path(st),
		    ev_ingest_ids_base(r->ids_of), renamed, renamed == 1 ? "" : "s", merged,
		    merged == 1 ? "y" : "ies");
	return 0;
}

static int
write_docs(struct run *r, struct ev_store *st, struct ev_ingest *ig, long long batch, int prune,
	struct ev_err *err)
{
	struct ev_buf rec = EV_BUF_INIT, out = EV_BUF_INIT;
	struct ev_progress pr;
	struct spool_hdr h;
	long long in_batch = 0, batch_bytes = 0;
	long commits = 0, kill_at = kill_after();
	long long empty = 0;
	double started = 0;
	int in_txn = 0, based = 0, rc = -1;
	char where[600];

	if (fflush(r->spool) == EOF || fseek(r->spool, 0, SEEK_SET) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: %s", strerror(errno));
		return -1;
	}
	ev_progress_start(&pr, r->cli, "documents", r->docs);
	while (fread(&h, sizeof h, 1, r->spool) == 1) {
		struct ev_ingest_rec doc;
		int got;

		ev_buf_reset(&rec);
		if (ev_buf_reserve(&rec, h.len) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		if (h.len > 0 && fread(rec.p, 1, h.len, r->spool) != h.len) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: truncated");
			goto out;
		}
		rec.len = h.len;
		rec.p[rec.len] = '\0';
		if (!in_txn) {
			if (ev_store_begin(st, err) == -1)
				goto out;
			in_txn = 1;
			in_batch = 0;
			batch_bytes = 0;
			started = now_ms();
			if (!based && record_base(r, st, ig, err) == -1)
				goto out;
			based = 1;
		}
		if (h.kind == REC_SEEN) {
			if (ev_ingest_seen(ig, rec.p, err) == -1)
				goto out;
			continue;
		}
		if (ev_ingest_rec_unpack(rec.p, rec.len, &doc) == -1) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: bad record");
			goto out;
		}
		if (doc.from_file)
			snprintf(where, sizeof where, "%s", r->inputs[h.input]);
		else
			snprintf(where, sizeof where, "%s:%llu", r->inputs[h.input],
			    (unsigned long long)h.line);
		got = ev_ingest_put(ig, &doc, r->sources[h.source], &out, err);
		if (got == -1) {
			if (err->where[0] == '\0')
				snprintf(err->where, sizeof err->where, "%.250s", where);
			goto out;
		}
		if (ev_ingest_stats(ig)->empty > empty && empty++ < WARN_MAX)
			ev_warn("%s: document '%s' stored with no chunk (no text, no title):"
			    " no search can find it",
			    where, doc.id);
		ev_progress_step(&pr, 1, (long long)rec.len);
		batch_bytes += (long long)rec.len;
		if (++in_batch >= batch || batch_bytes >= BATCH_BYTES ||
		    now_ms() - started >= BATCH_MS) {
			if (ev_ingest_commit(ig, err) == -1)
				goto out;
			in_txn = 0;
			if (flush_out(&out, err) == -1)
				goto out;
			if (++commits == kill_at)
				raise(SIGKILL);
		}
	}
	if (ferror(r->spool)) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: %s", strerror(errno));
		goto out;
	}
	if (prune) {
		long long pruned = 0;

		if (!in_txn && ev_store_begin(st, err) == -1)
			goto out;
		in_txn = 1;
		if (!based && record_base(r, st, ig, err) == -1)
			goto out;
		based = 1;
		for (size_t i = 0; i < r->nsources; i++) {
			if (r->source_blind[i]) {
				ev_warn("%s: not pruned: invalid records without an id were skipped",
				    r->sources[i]);
				continue;
			}
			if (ev_ingest_prune(ig, r->sources[i], &pruned, err) == -1)
				goto out;
		}
		ev_cli_count(r->cli, "documents_pruned", pruned);
	}
	if (in_txn) {
		if (ev_ingest_commit(ig, err) == -1)
			goto out;
		in_txn = 0;
	}
	if (flush_out(&out, err) == -1)
		goto out;
	if (empty > WARN_MAX)
		ev_warn("%lld documents stored with no chunk: no search can find them", empty);
	rc = 0;
out:
	ev_progress_done(&pr);
	if (in_txn)
		ev_store_rollback(st);
	ev_buf_release(&rec);
	ev_buf_release(&out);
	return rc;
}

/* --delete and --delete-source: each operand an id (or a file, by its id)
 * or a source (or a directory or file, by its id); one transaction.  A name
 * that matches nothing is warned about. */
static int
delete_docs(struct run *r, struct ev_ingest *ig, struct ev_store *st, int sources, char **names,
	int n, struct ev_err *err)
{
	long long deleted = 0;
	struct stat sb;
	int rc = -1;

	if (ev_store_begin(st, err) == -1)
		return -1;
	for (int i = 0; i < n; i++) {
		long long before = deleted;
		int got;

		if (sources)
			got = ev_ingest_delete_source(ig, names[i], &deleted, err) == -1 ? -1 :
			    deleted > before;
		else if ((got = ev_ingest_delete(ig, names[i], err)) == 1)
			deleted++;
		if (got == 0 && stat(names[i], &sb) == 0) {	/* a path: by its id */
			char *id = ev_ingest_ids_of(r->ids_of, names[i], err);

			if (id == NULL)
				goto out;
			if (sources)
				got = ev_ingest_delete_source(ig, id, &deleted, err) == -1 ? -1 :
				    deleted > before;
			else if ((got = ev_ingest_delete(ig, id, err)) == 1)
				deleted++;
			free(id);
		}
		if (got == -1)
			goto out;
		if (got == 0)
			ev_warn("%s: no %s '%s' in the store", ev_store_path(st),
			    sources ? "source" : "document", names[i]);
	}
	if (ev_ingest_commit(ig, err) == -1)
		goto out;
	ev_cli_count(r->cli, "documents_deleted", deleted);
	rc = 0;
out:
	if (rc == -1)
		ev_store_rollback(st);
	return rc;
}

static void
config_error(struct ev_cli *cli, struct ev_err *err)
{
	ev_cli_config_error(cli, err);
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_ingest_opts o = { EV_CHUNK_SIZE, EV_CHUNK_OVERLAP, EV_INGEST_AUTO,
		EV_INGEST_CHANGED, 0 };
	struct run r;
	struct ev_store *st = NULL;
	struct ev_ingest *ig = NULL;
	const char *db = NULL, *format = NULL, *base_arg = NULL;
	char *base = NULL, *recorded = NULL;
	long long size = EV_CHUNK_SIZE, overlap = EV_CHUNK_OVERLAP, batch = BATCH_DOCS;
	int ch, all = 0, quiet = 0, prune = 0, del = 0, rc = EV_EXIT_OK, b;
	struct stat sb;

	memset(&r, 0, sizeof r);
	ev_cli_init(&cli, "ev-ingest", usage_text, argc, argv);
	argv[0] = (char *)"ev-ingest";	/* getopt's messages name the program so */
	r.cli = &cli;
	ev_cli_check_config(&cli, config_keys);
	if (ev_config_str(cli.config, "db", &db, cli.config_path, &err) == -1 ||
	    ev_config_int(cli.config, "chunk.size", EV_CHUNK_SIZE_MIN, EV_CHUNK_SIZE_MAX, &size,
	    cli.config_path, &err) == -1 ||
	    ev_config_int(cli.config, "chunk.overlap", 0, EV_CHUNK_SIZE_MAX / 2, &overlap,
	    cli.config_path, &err) == -1 ||
	    ev_config_str(cli.config, "chunk.format", &format, cli.config_path, &err) == -1 ||
	    ev_config_int(cli.config, "ingest.batch", 1, 1000000, &batch, cli.config_path,
	    &err) == -1 ||
	    ev_config_str(cli.config, "ingest.source", &r.source, cli.config_path, &err) == -1 ||
	    ev_config_str(cli.config, "ingest.base", &base_arg, cli.config_path, &err) == -1)
		config_error(&cli, &err);
	if ((b = ev_config_bool(cli.config, "ingest.prune", &prune, cli.config_path, &err)) == -1 ||
	    ev_config_bool(cli.config, "ingest.skip_invalid", &r.skip_invalid, cli.config_path,
	    &err) == -1)
		config_error(&cli, &err);
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			db = optarg;
			break;
		case OPT_ALL:
			all = 1;
			break;
		case OPT_QUIET:
			quiet = 1;
			break;
		case OPT_PRUNE:
			prune = 1;
			break;
		case OPT_SKIP:
			r.skip_invalid = 1;
			break;
		case OPT_SOURCE:
			r.source = optarg;
			break;
		case OPT_FORMAT:
			format = optarg;
			break;
		case OPT_BASE:
			base_arg = optarg;
			break;
		case OPT_VERBOSE:
			r.verbose = 1;
			break;
		case OPT_DELETE:
		case OPT_DELETE_SOURCE:
			if (del != 0 && del != ch)
				ev_cli_usage_error(&cli, "--delete and --delete-source exclude each other");
			del = ch;
			break;
		case OPT_SIZE:
			if (ev_parse_count(optarg, EV_CHUNK_SIZE_MIN, EV_CHUNK_SIZE_MAX, &size) == -1)
				ev_cli_usage_error(&cli, "--size takes a byte count from %d to %d: '%s'",
				    EV_CHUNK_SIZE_MIN, EV_CHUNK_SIZE_MAX, optarg);
			break;
		case OPT_OVERLAP:
			if (ev_parse_count(optarg, 0, EV_CHUNK_SIZE_MAX / 2, &overlap) == -1)
				ev_cli_usage_error(&cli, "--overlap takes a byte count from 0 to %d: '%s'",
				    EV_CHUNK_SIZE_MAX / 2, optarg);
			break;
		case OPT_BATCH:
			if (ev_parse_count(optarg, 1, 1000000, &batch) == -1)
				ev_cli_usage_error(&cli, "--batch takes a count from 1 to 1000000: '%s'",
				    optarg);
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	if (all && quiet)
		ev_cli_usage_error(&cli, "--all and --quiet exclude each other");
	if (overlap > size / 2)
		ev_cli_usage_error(&cli, "--overlap must be at most half of --size (%lld): '%lld'",
		    size / 2, overlap);
	if (r.source != NULL && *r.source == '\0')
		ev_cli_usage_error(&cli, "--source must not be empty");
	if (del && optind == argc)
		ev_cli_usage_error(&cli, "%s needs the names to delete",
		    del == OPT_DELETE ? "--delete" : "--delete-source");
	if (del && prune)
		ev_cli_usage_error(&cli, "--prune and --delete exclude each other");
	r.format = o.format = EV_INGEST_AUTO;
	if (format == NULL || strcmp(format, "auto") == 0)
		;
	else if (strcmp(format, "jsonl") == 0)
		r.format = EV_INGEST_KIND_JSONL;
	else if (strcmp(format, "markdown") == 0)
		r.format = o.format = EV_CHUNK_MARKDOWN;
	else if (strcmp(format, "text") == 0)
		r.format = o.format = EV_CHUNK_TEXT;
	else
		ev_cli_usage_error(&cli, "--format takes auto, jsonl, markdown or text: '%s'", format);
	o.size = (size_t)size;
	o.overlap = (size_t)overlap;
	o.output = all ? EV_INGEST_ALL : quiet ? EV_INGEST_NONE : EV_INGEST_CHANGED;
	o.no_prune = !prune;

	/* An existing store is checked before the input is read; its base, once
	 * recorded, is the base of file ids. */
	if (stat(db, &sb) == 0 && ((st = ev_store_open(db, EV_STORE_WRITE, &err)) == NULL ||
	    ev_ingest_base_get(st, &recorded, &err) == -1))
		goto fail;
	if ((recorded == NULL || base_arg != NULL) &&
	    (base = ev_ingest_resolve(base_arg ? base_arg : ".", 1, &err)) == NULL)
		goto fail;
	if (recorded != NULL && base_arg != NULL && strcmp(base, recorded) != 0) {
		ev_err_set(&err, EV_EXIT_USAGE, db, "the store's base is '%s', not '%s': file ids are"
		    " relative to it (leave --base out, or use a new store)", recorded, base);
		goto fail;
	}
	if ((r.ids_of = ev_ingest_ids_new(recorded ? recorded : base, &err)) == NULL)
		goto fail;
	if (del) {
		if (st == NULL) {
			ev_err_set(&err, EV_EXIT_USAGE, db, "no such store");
			goto fail;
		}
		if ((ig = ev_ingest_open(st, &o, &err)) == NULL ||
		    delete_docs(&r, ig, st, del == OPT_DELETE_SOURCE, argv + optind, argc - optind,
		    &err) == -1)
			goto fail;
		goto done;
	}
	if ((r.spool = tmpfile()) == NULL) {
		ev_err_set(&err, EV_EXIT_RUNTIME, NULL, "cannot create a spool file: %s",
		    strerror(errno));
		goto fail;
	}
	if ((r.ids = json_object()) == NULL || (r.texts = json_object()) == NULL) {
		ev_err_nomem(&err);
		goto fail;
	}
	if (optind == argc) {
		if (read_input(&r, "-", &err) == -1)
			goto fail;
	}
	for (int i = optind; i < argc; i++)
		if (read_input(&r, argv[i], &err) == -1)
			goto fail;
	json_decref(r.ids);
	r.ids = NULL;
	json_decref(r.texts);
	r.texts = NULL;
	if (r.invalid > 0)
		ev_warn("skipped %lld invalid record%s", r.invalid, r.invalid == 1 ? "" : "s");
	if (r.again > WARN_MAX)
		ev_warn("%lld files were named twice and read once", r.again);
	if (r.copies > WARN_MAX)
		ev_warn("%lld files are second copies of another file's text", r.copies);
	if (st == NULL && (st = ev_store_open(db, EV_STORE_CREATE, &err)) == NULL)
		goto fail;
	if ((ig = ev_ingest_open(st, &o, &err)) == NULL)
		goto fail;
	if (write_docs(&r, st, ig, batch, prune, &err) == -1)
		goto fail;
	goto done;
fail:
	rc = ev_cli_report(&err);
done:
	if (ig != NULL) {
		const struct ev_ingest_stats *s = ev_ingest_stats(ig);

		ev_cli_count(&cli, "documents_written", s->written);
		ev_cli_count(&cli, "documents_unchanged", s->unchanged);
		ev_cli_count(&cli, "chunks_written", s->chunks);
		ev_cli_count(&cli, "chunks_printed", s->printed);
		ev_cli_count(&cli, "bytes", s->bytes);
	}
	ev_cli_count(&cli, "documents_read", r.docs);
	ev_cli_count(&cli, "records_invalid", r.invalid);
	ev_ingest_free(ig);
	ev_store_close(st);
	ev_ingest_ids_free(r.ids_of);
	free(base);
	free(recorded);
	if (r.spool)
		fclose(r.spool);
	json_decref(r.ids);
	json_decref(r.texts);
	for (size_t i = 0; i < r.ninputs; i++)
		free(r.inputs[i]);
	free(r.inputs);
	for (size_t i = 0; i < r.nsources; i++)
		free(r.sources[i]);
	free(r.sources);
	free(r.source_blind);
	ev_buf_release(&r.pack);
	ev_buf_release(&r.meta);
	ev_buf_release(&r.extra);
	(void)b;
	return ev_cli_finish(&cli, rc);
}
