/* ev-ingest: documents in, chunks into the store, the new or changed chunk
 * records out.  Two passes (lib/store/ingestpass.h): every input is checked and spooled
 * before the store changes, then written in batched transactions, a batch's
 * chunk records printed once it is committed.  See man/ev-ingest.1. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chunk.h"
#include "cli.h"
#include "ingest.h"
#include "langid.h"
#include "lexicon.h"
#include "opt.h"
#include "postings.h"
#include "ingestpass.h"
#include "store.h"

static const struct ev_opt_cmd command = {
	"ev-ingest --db DB [--all | --quiet] [OPTIONS] [FILE|DIR ...]\n"
	"ev-ingest --db DB --delete ID|FILE ... | --delete-source NAME|DIR ...\n"
	"ev-ingest --db DB --reindex",
	"Read documents (JSON Lines; .md, .txt, .rst and README-like files; .pdf, .html and\n"
	".htm files, through ev-extract; directories of them), store them and their chunks\n"
	"in DB, and print the chunk records that are new or changed.  A file's id is its\n"
	"path relative to the store's base directory.",
	NULL, 0
};

static const char *db, *base_arg;
static int all, quiet, prune, skip_invalid, verbose, del, del_source, reindex, postings, no_postings;
static int format = EV_INGEST_AUTO;
static long size = EV_CHUNK_SIZE, overlap = EV_CHUNK_OVERLAP, batch = EV_INGESTPASS_BATCH_DOCS;
static int threads = 2;		/* --threads */
static struct ev_ingestpass_opts so;

/* --format: auto, jsonl, markdown or text. */
static void
set_format(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	static const char *const names[] = { "auto", "jsonl", "markdown", "text" };
	static const int kinds[] = { EV_INGEST_AUTO, EV_DOCREAD_KIND_JSONL, EV_CHUNK_MARKDOWN,
		EV_CHUNK_TEXT };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(arg, names[i]) == 0) {
			*(int *)value = kinds[i];
			return;
		}
	ev_cli_usage_error(cli, "%s takes auto, jsonl, markdown or text: '%s'", src, arg);
}

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &db, "DB", "the store, created when missing"),
	EV_OPT_BOOL(0, "all", NULL, &all, "print every chunk of the documents read"),
	EV_OPT_BOOL(0, "quiet", NULL, &quiet, "print no chunk records"),
	EV_OPT_BOOL(0, "prune", "ingest.prune", &prune,
	    "delete the documents of these sources that this run did not see"),
	EV_OPT_SKIP_INVALID_AT("ingest.skip_invalid", &skip_invalid),
	EV_OPT_STR(0, "source", "ingest.source", &so.source, "NAME",
	    "the source of every input (default: each input's name)"),
	EV_OPT_FUNC(0, "format", "chunk.format", &format, set_format, "F",
	    "how named files are read and documents chunked: auto (by extension and"
	    " source_type), jsonl, markdown or text", "auto"),
	EV_OPT_STR(0, "base", "ingest.base", &base_arg, "DIR",
	    "the base of file ids, recorded at the store's first ingest (default: the current"
	    " directory)"),
	EV_OPT_BOOL(0, "verbose", NULL, &verbose,
	    "name each file a directory holds that is not a document"),
	EV_OPT_BOOL(0, "delete", NULL, &del, "delete the documents named (ids, or files by their path)"),
	EV_OPT_BOOL(0, "delete-source", NULL, &del_source,
	    "delete every document of the sources named"),
	EV_OPT_BOOL(0, "postings", NULL, &postings,
	    "make the store's postings file (DB.postings) again now, and nothing else"),
	EV_OPT_BOOL(0, "no-postings", "ingest.no_postings", &no_postings,
	    "leave the postings file out of date after this run (see DESCRIPTION)"),
	EV_OPT_BOOL(0, "reindex", NULL, &reindex,
	    "upgrade a store made by an older evkit in place: each chunk's language, and the"
	    " full-text index made again with this tokeniser (vectors are kept)"),
	EV_OPT_LONG(0, "size", "chunk.size", &size, EV_CHUNK_SIZE_MIN, EV_CHUNK_SIZE_MAX, "N",
	    "target chunk size in bytes"),
	EV_OPT_LONG(0, "overlap", "chunk.overlap", &overlap, 0, EV_CHUNK_SIZE_MAX / 2, "N",
	    "overlap of consecutive chunks in bytes, at most half of --size"),
	EV_OPT_LONG(0, "batch", "ingest.batch", &batch, 1, 1000000, "N",
	    "documents per transaction"),
	EV_OPT_INT(0, "threads", "ingest.threads", &threads, 1, 2, "N",
	    "threads writing may use: 2 chunks and tokenises the next documents while the"
	    " store takes one (the same store)"),
	EV_OPT_STR(0, "password", NULL, &so.password, "PW",
	    "the password of encrypted PDFs (given to ev-extract)"),
	EV_OPT_END
};

static void
step(void *ctx, long long docs, long long bytes)
{
	ev_progress_step(ctx, docs, bytes);
}

/* Check the options that go together; exits 2. */
static void
check_usage(struct ev_cli *cli, int nargs)
{
	if (db == NULL)
		ev_cli_usage_error(cli, "--db DB is required");
	if (all && quiet)
		ev_cli_usage_error(cli, "--all and --quiet exclude each other");
	if (overlap > size / 2)
		ev_cli_usage_error(cli, "--overlap must be at most half of --size (%ld): '%ld'",
		    size / 2, overlap);
	if (so.source != NULL && *so.source == '\0')
		ev_cli_usage_error(cli, "--source must not be empty");
	if (del && del_source)
		ev_cli_usage_error(cli, "--delete and --delete-source exclude each other");
	if ((del || del_source) && nargs == 0)
		ev_cli_usage_error(cli, "%s needs the names to delete",
		    del ? "--delete" : "--delete-source");
	if ((del || del_source) && prune)
		ev_cli_usage_error(cli, "--prune and --delete exclude each other");
	if (reindex && (nargs > 0 || del || del_source || prune))
		ev_cli_usage_error(cli, "--reindex takes no files and no other action");
	if (postings && (nargs > 0 || del || del_source || prune || reindex || no_postings))
		ev_cli_usage_error(cli, "--postings takes no files and no other action");
}

static void
postings_step(void *ctx, long long done)
{
	ev_progress_step(ctx, done, 0);
}

/* Make the postings file of st again (postings.h), with progress on a
 * terminal.  Returns 0, or -1 with *err set. */
static int
make_postings(struct ev_cli *cli, struct ev_store *st, struct ev_err *err)
{
	struct ev_progress pr;
	int r;

	ev_progress_start(&pr, cli, "postings", 0);
	r = ev_postings_build(st, postings_step, &pr, err);
	ev_progress_done(&pr);
	return r;
}

/* After a run that wrote to the store: its postings file made again when it
 * has one (stale now) or is large enough to want one, unless --no-postings.
 * The documents are stored by then: a file that cannot be made is warned
 * about (searches rank through FTS5 meanwhile), not an error of the run.
 * Returns 0, or -1 with *err set (the store cannot be read). */
static int
refresh_postings(struct ev_cli *cli, struct ev_store *st, struct ev_err *err)
{
	sqlite3_stmt *s;
	long long rows = 0;
	int state;

	if (no_postings || (state = ev_postings_state(st, err)) == 1)
		return 0;
	if (state == -2)
		return -1;
	if (state == 0) {
		if ((s = ev_store_prepare(st, "SELECT count(*) FROM chunks", err)) == NULL)
			return -1;
		if (sqlite3_step(s) == SQLITE_ROW)
			rows = sqlite3_column_int64(s, 0);
		sqlite3_reset(s);
		if (rows < EV_POSTINGS_AUTO_ROWS)
			return 0;
	}
	if (make_postings(cli, st, err) == -1) {
		ev_warn("%s: the documents are stored, but the postings file could not be made (%s):"
		    " searches rank through FTS5, more slowly, until 'ev-ingest --db %s --postings'"
		    " succeeds", db, err->msg, db);
		ev_err_clear(err);
	}
	return 0;
}

/* A chunk's language for ev_store_reindex(): its document's, else its text's. */
static void
chunk_lang(void *lex, const char *text, size_t len, const char *declared, char *out)
{
	ev_langid_doc(lex, declared, text, len, out);
}

/* --reindex: upgrade the store in place.  Returns 0, or -1 with *err set. */
static int
upgrade(struct ev_cli *cli, struct ev_err *err)
{
	struct ev_store *st = ev_store_open(db, EV_STORE_UPGRADE, err);
	struct ev_lex *lex = NULL;
	int r = -1;

	if (st != NULL && (lex = ev_lex_open(NULL, err)) != NULL &&
	    (r = ev_store_reindex(st, chunk_lang, lex, err)) >= 0) {
		ev_warn("%s: %s", db, r ? "upgraded: the full-text index was made again with the"
		    " current tokeniser" : "already current: nothing to do");
		ev_cli_count(cli, "reindexed", r);
	}
	ev_lex_close(lex);
	ev_store_close(st);
	return r < 0 ? -1 : 0;
}

/* An existing store is checked before the input is read; its base, once
 * recorded, is the base of file ids.  Opens *st when db exists. */
static int
open_ids(struct ev_store **st, struct ev_err *err)
{
	char *base = NULL, *recorded = NULL;
	struct stat sb;
	int rc = -1;

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
	if ((so.ids_of = ev_ingest_ids_new(recorded ? recorded : base, err)) != NULL)
		rc = 0;
out:
	free(base);
	free(recorded);
	return rc;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_ingest_opts o = { EV_CHUNK_SIZE, EV_CHUNK_OVERLAP, EV_INGEST_AUTO,
		EV_INGEST_CHANGED, 0 };
	struct ev_progress pr;
	struct ev_store *st = NULL;
	struct ev_ingest *ig = NULL;
	struct ev_ingestpass *sp = NULL;
	const char *kill = getenv("EV_INGEST_KILL_AFTER");	/* a testing aid: ingestpass.h */
	long long deleted = 0;
	int argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-ingest", NULL, argc, argv);
	argv[0] = (char *)"ev-ingest";	/* getopt's messages name the program so */
	argi = ev_opt_parse(&cli, &command, options);
	check_usage(&cli, argc - argi);
	o.size = (size_t)size;
	o.overlap = (size_t)overlap;
	o.format = format == EV_DOCREAD_KIND_JSONL ? EV_INGEST_AUTO : format;
	o.output = all ? EV_INGEST_ALL : quiet ? EV_INGEST_NONE : EV_INGEST_CHANGED;
	o.no_prune = !prune;
	so.skip_invalid = skip_invalid;
	so.verbose = verbose;
	so.format = format;
	so.batch = batch;
	so.threads = threads;
	so.prune = prune;
	so.kill_after = kill ? strtol(kill, NULL, 10) : 0;
	so.out = stdout;
	so.note = ev_cli_note_cb;
	so.progress = step;
	so.ctx = &pr;
	so.extract_progress = cli.stderr_tty;

	if (reindex) {
		if (upgrade(&cli, &err) == -1)
			rc = ev_cli_report(&err);
		return ev_cli_finish(&cli, rc);
	}
	if (postings) {
		if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
		    make_postings(&cli, st, &err) == -1)
			rc = ev_cli_report(&err);
		ev_store_close(st);
		return ev_cli_finish(&cli, rc);
	}
	if (open_ids(&st, &err) == -1)
		goto fail;
	if (del || del_source) {
		if (st == NULL) {
			ev_err_set(&err, EV_EXIT_USAGE, db, "no such store");
			goto fail;
		}
		if ((ig = ev_ingest_open(st, &o, &err)) == NULL ||
		    ev_ingestpass_delete(&so, st, ig, del_source, argv + argi, argc - argi, &deleted,
		    &err) == -1)
			goto fail;
		ev_cli_count(&cli, "documents_deleted", deleted);
		if (refresh_postings(&cli, st, &err) == -1)
			goto fail;
		goto done;
	}
	if ((sp = ev_ingestpass_new(&so, &err)) == NULL ||
	    (argi == argc && ev_ingestpass_read(sp, "-", &err) == -1))
		goto fail;
	for (int i = argi; i < argc; i++)
		if (ev_ingestpass_read(sp, argv[i], &err) == -1)
			goto fail;
	ev_ingestpass_read_done(sp);
	if ((st == NULL && (st = ev_store_open(db, EV_STORE_CREATE, &err)) == NULL) ||
	    (ig = ev_ingest_open(st, &o, &err)) == NULL)
		goto fail;
	ev_progress_start(&pr, &cli, "documents", ev_ingestpass_stats(sp)->docs);
	rc = ev_ingestpass_write(sp, st, ig, &err);
	ev_progress_done(&pr);
	if (rc == -1)
		goto fail;
	if (prune)
		ev_cli_count(&cli, "documents_pruned", ev_ingestpass_stats(sp)->pruned);
	if (refresh_postings(&cli, st, &err) == -1)
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
	ev_cli_count(&cli, "documents_read", sp ? ev_ingestpass_stats(sp)->docs : 0);
	ev_cli_count(&cli, "records_invalid", sp ? ev_ingestpass_stats(sp)->invalid : 0);
	ev_ingestpass_free(sp);
	ev_ingest_free(ig);
	ev_store_close(st);
	ev_ingest_ids_free(so.ids_of);
	return ev_cli_finish(&cli, rc);
}
