/* ev-ingest: documents in, chunks into the store, the new or changed chunk records out.  Two
 * passes (lib/store/ingestpass.h): every input is checked and spooled before the store changes, then
 * written in batched transactions, a batch's chunk records printed once it is committed (man/ev-ingest.1). */
#include <stdlib.h>
#include <string.h>

#include "chunk.h"
#include "cli.h"
#include "config.h"
#include "ingest.h"
#include "opt.h"
#include "lenstats.h"
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
static int all, quiet, del, del_source, reindex, postings, no_postings;
static long size = EV_CHUNK_SIZE, overlap = EV_CHUNK_OVERLAP, batch = EV_INGESTPASS_BATCH_DOCS;
static struct ev_ingestpass_opts so = { .format = EV_INGEST_AUTO, .threads = 2,
	.note = ev_cli_note_cb, .progress = ev_progress_cb };

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
	EV_OPT_BOOL(0, "prune", "ingest.prune", &so.prune,
	    "delete the documents of these sources that this run did not see"),
	EV_OPT_SKIP_INVALID_AT("ingest.skip_invalid", &so.skip_invalid),
	EV_OPT_STR(0, "source", "ingest.source", &so.source, "NAME",
	    "the source of every input (default: each input's name)"),
	EV_OPT_FUNC(0, "format", "chunk.format", &so.format, set_format, "F",
	    "how named files are read and documents chunked: auto (by extension and"
	    " source_type), jsonl, markdown or text", "auto"),
	EV_OPT_STR(0, "base", "ingest.base", &base_arg, "DIR",
	    "the base of file ids, recorded at the store's first ingest (default: the current"
	    " directory)"),
	EV_OPT_BOOL(0, "verbose", NULL, &so.verbose,
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
	    "overlap of consecutive chunks in bytes, at most half of --size (which caps the default)"),
	EV_OPT_LONG(0, "batch", "ingest.batch", &batch, 1, 1000000, "N",
	    "documents per transaction"),
	EV_OPT_INT(0, "threads", "ingest.threads", &so.threads, 1, 2, "N",
	    "threads writing may use: 2 chunks and tokenises the next documents while the"
	    " store takes one (the same store)"),
	EV_OPT_STR(0, "password", NULL, &so.password, "PW",
	    "the password of encrypted PDFs (given to ev-extract)"),
	EV_OPT_END
};

/* Check the options that go together; exits 2. */
static void
check_usage(struct ev_cli *cli, int nargs)
{
	if (db == NULL)
		ev_cli_usage_error(cli, "--db DB is required");
	if (all && quiet)
		ev_cli_usage_error(cli, "--all and --quiet exclude each other");
	if (overlap > size / 2 && (ev_opt_given(&overlap) || ev_config_get(cli->config, "chunk.overlap")))
		ev_cli_usage_error(cli, "--overlap must be at most half of --size (%ld): '%ld'", size / 2, overlap);
	if (so.source != NULL && *so.source == '\0')
		ev_cli_usage_error(cli, "--source must not be empty");
	if (del && del_source)
		ev_cli_usage_error(cli, "--delete and --delete-source exclude each other");
	if ((del || del_source) && nargs == 0)
		ev_cli_usage_error(cli, "%s needs the names to delete",
		    del ? "--delete" : "--delete-source");
	if ((del || del_source) && so.prune)
		ev_cli_usage_error(cli, "--prune and --delete exclude each other");
	if (reindex && (nargs > 0 || del || del_source || so.prune))
		ev_cli_usage_error(cli, "--reindex takes no files and no other action");
	if (postings && (nargs > 0 || del || del_source || so.prune || reindex || no_postings))
		ev_cli_usage_error(cli, "--postings takes no files and no other action");
}

/* Make the postings file of st again (postings.h), with progress on a
 * terminal.  Returns 0, or -1 with *err set. */
static int
make_postings(struct ev_cli *cli, struct ev_store *st, struct ev_err *err)
{
	struct ev_progress pr;
	int r;

	ev_progress_start(&pr, cli, "postings", 0);
	r = ev_postings_build(st, ev_progress_so_far_cb, &pr, err);
	ev_progress_done(&pr);
	return r;
}

/* After a run that wrote to the store: the totals of its chunk lengths
 * kept (lenstats.h), and its postings file made again when it has one
 * (stale now) or is large enough to want one, unless --no-postings.  The
 * documents are stored by then: a file that cannot be made is warned about
 * (searches rank through FTS5 meanwhile), not an error of the run.
 * Returns 0, or -1 with *err set (the store cannot be read). */
static int
refresh_postings(struct ev_cli *cli, struct ev_store *st, struct ev_err *err)
{
	int wanted;

	ev_lenstats_refresh(st, db, ev_cli_note_cb, NULL);
	if ((wanted = no_postings ? 0 : ev_postings_wanted(st, EV_POSTINGS_AUTO_ROWS, err)) != 1)
		return wanted;
	if (make_postings(cli, st, err) == -1) {
		ev_warn("%s: the documents are stored, but the postings file could not be made (%s):"
		    " searches rank through FTS5, more slowly, until 'ev-ingest --db %s --postings'"
		    " succeeds", db, err->msg, db);
		ev_err_clear(err);
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_ingest_opts o = { 0 };
	struct ev_progress pr;
	struct ev_store *st = NULL;
	struct ev_ingest *ig = NULL;
	struct ev_ingestpass *sp = NULL;
	const char *kill = getenv("EV_INGEST_KILL_AFTER");	/* a testing aid: ingestpass.h */
	long long deleted = 0;
	int argi, r, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-ingest", NULL, argc, argv);
	argv[0] = (char *)"ev-ingest";	/* getopt's messages name the program so */
	argi = ev_opt_parse(&cli, &command, options);
	check_usage(&cli, argc - argi);
	o.size = (size_t)size;
	o.overlap = (size_t)(overlap < size / 2 ? overlap : size / 2);	/* by default, 200 or half --size */
	o.format = so.format == EV_DOCREAD_KIND_JSONL ? EV_INGEST_AUTO : so.format;
	o.output = all ? EV_INGEST_ALL : quiet ? EV_INGEST_NONE : EV_INGEST_CHANGED;
	o.no_prune = !so.prune;
	o.postings = !no_postings;
	so.batch = batch;
	so.kill_after = kill ? strtol(kill, NULL, 10) : 0;
	so.out = stdout;
	so.ctx = &pr;
	so.extract_progress = cli.stderr_tty;

	if (reindex) {
		if ((r = ev_ingest_reindex(db, &err)) == -1)
			return ev_cli_finish(&cli, ev_cli_report(&err));
		ev_warn("%s: %s", db, r ? "upgraded: the full-text index was made again with the"
		    " current tokeniser" : "already current: nothing to do");
		ev_cli_count(&cli, "reindexed", r);
		return ev_cli_finish(&cli, rc);
	}
	if (postings) {
		if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
		    make_postings(&cli, st, &err) == -1)
			rc = ev_cli_report(&err);
		ev_store_close(st);
		return ev_cli_finish(&cli, rc);
	}
	if ((so.ids_of = ev_ingest_ids_open(db, base_arg, &st, &err)) == NULL)
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
	    ev_ingestpass_read_all(ev_ingestpass_against(sp, st, &o), argv + argi, argc - argi, &err) == -1)
		goto fail;
	if ((st == NULL && (st = ev_store_open(db, EV_STORE_CREATE, &err)) == NULL) ||
	    (ig = ev_ingest_open(st, &o, &err)) == NULL)
		goto fail;
	ev_progress_start(&pr, &cli, "documents", ev_ingestpass_stats(sp)->docs);
	rc = ev_ingestpass_write(sp, st, ig, &err);
	ev_progress_done(&pr);
	if (rc == -1)
		goto fail;
	if (so.prune)
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
