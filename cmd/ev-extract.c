/* ev-extract: PDF and HTML files into evkit document records (Markdown text,
 * pages and line boxes), for ev-ingest.  See man/ev-extract.1,
 * lib/store/extract_pdf.h and lib/store/extract_html.h.
 *
 * This program links poppler and is therefore distributed under the GPL
 * (README "Licence"); the rest of evkit keeps its own licence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "docread.h"
#include "extract.h"
#include "extract_html.h"
#include "extract_pdf.h"
#include "ingest.h"
#include "jscan.h"
#include "opt.h"

static const struct ev_opt_cmd command = {
	"ev-extract [OPTIONS] FILE|DIR ...",
	"Read PDF (.pdf) and HTML (.html, .htm) files, and directories holding them\n"
	"(recursively, in name order), and write one document record per file: its\n"
	"text as Markdown (headings, tables, code), its pages and its lines' boxes.\n"
	"A file that cannot be read is reported and left out; the others go on, and\n"
	"the exit status is then 2.",
	NULL, 0
};

static const char *password;
static int progress;

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "password", "password", &password, "PW",
	    "the password of encrypted PDFs (the user's or the owner's)"),
	EV_OPT_BOOL(0, "progress", NULL, &progress,
	    "show progress on stderr even when it is not a terminal (as ev-ingest asks)"),
	EV_OPT_END
};

struct run {
	struct ev_cli *cli;
	struct ev_progress prog;
	struct ev_xrec rec;
	json_t *seen;		/* the files written, as keys (resolved()) */
	long long docs, failed, pages;
};

static void
warn_cb(void *ctx, const char *where, const char *msg)
{
	(void)ctx;
	ev_warn("%s: %s", where, msg);
}

static void
progress_cb(void *ctx, long done, long total, size_t bytes)
{
	struct run *run = ctx;

	if (done == 1)		/* a new document */
		ev_progress_start(&run->prog, run->cli, "page reads", total);
	ev_progress_step(&run->prog, done - run->prog.done, (long long)bytes - run->prog.bytes);
}

/* The file at path as ev-ingest's ids take it, malloc'd: its directory
 * resolved (symbolic links, "..") and its own name; NULL when the directory
 * cannot be resolved or memory runs out. */
static char *
resolved(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == NULL ? strdup(".") : slash == path ? strdup("/") :
	    strndup(path, (size_t)(slash - path));
	char *real = dir ? realpath(dir, NULL) : NULL, *key = NULL;

	if (real != NULL && asprintf(&key, "%s/%s", real, slash ? slash + 1 : path) == -1)
		key = NULL;
	free(dir);
	free(real);
	return key;
}

/* The document id of the file at path into id (size bytes): the path as
 * given (ev_extract_id()); when that is not UTF-8, the id ev-ingest gives
 * the file with the current directory as its base (ingest.h: the directory
 * resolved, relative to the base), which may be.  Returns 0, or -1 with *err
 * set (code 2 when neither is UTF-8). */
static int
file_id(const char *path, char *id, size_t size, struct ev_err *err)
{
	struct ev_ingest_ids *ids = NULL;
	char *base, *rel = NULL;

	ev_extract_id(path, id, size);
	if (ev_utf8_bad(id, strlen(id)) == strlen(id))
		return 0;
	if ((base = ev_ingest_resolve(".", 1, err)) != NULL &&
	    (ids = ev_ingest_ids_new(base, err)) != NULL)
		rel = ev_ingest_ids_of(ids, path, err);
	free(base);
	ev_ingest_ids_free(ids);
	if (rel == NULL && err->code != EV_EXIT_USAGE)
		return -1;	/* out of memory (else a directory that cannot be resolved) */
	if (rel == NULL || ev_utf8_bad(rel, strlen(rel)) < strlen(rel) || strlen(rel) >= size) {
		free(rel);
		return ev_err_set(err, EV_EXIT_USAGE, path, "%s", EV_DOCREAD_NAME_NOT_UTF8);
	}
	memcpy(id, rel, strlen(rel) + 1);
	free(rel);
	return 0;
}

/* Extract one file.  Returns 0, or -1 with *err set; a bad file (code 2) is
 * reported by the caller, which goes on. */
static int
one(struct run *run, const char *path, struct ev_err *err)
{
	struct ev_extract_cb cb = { warn_cb, progress_cb, run };
	char id[4096], *key;
	int rc;

	memset(&run->prog, 0, sizeof run->prog);
	if (file_id(path, id, sizeof id, err) == -1)
		return -1;
	/* ev-ingest refuses an id twice in one run: a file named twice (or
	 * also found in a directory named), however spelled (sub/../sub/a.html),
	 * is written once */
	key = resolved(path);
	if (json_object_get(run->seen, key ? key : id)) {
		ev_warn("%s: named twice: extracted once", path);
		free(key);
		return 0;
	}
	/* (a key of any bytes: the resolved directory need not be UTF-8) */
	rc = json_object_set_new_nocheck(run->seen, key ? key : id, json_true());
	free(key);
	if (rc == -1)
		return ev_err_nomem(err);
	switch (ev_extract_kind(path)) {
	case EV_EXTRACT_PDF:
		rc = ev_extract_pdf(path, id, password, &cb, &run->rec, stdout, err);
		if (run->prog.active)
			ev_progress_done(&run->prog);
		if (rc >= 0)
			run->pages += rc;
		break;
	case EV_EXTRACT_HTML:
		rc = ev_extract_html(path, id, &cb, &run->rec, stdout, err);
		break;
	default:
		return ev_err_set(err, EV_EXIT_USAGE, path,
		    "not a .pdf, .html or .htm file: give such files or directories holding them");
	}
	if (rc >= 0) {
		run->docs++;
		if (fflush(stdout) == EOF)
			return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error");
	}
	return rc < 0 ? -1 : 0;
}

/* Extract operand arg (a file or a directory).  Returns 0, or -1 when the
 * run must stop (a runtime failure, already in *err); bad files are
 * reported here and counted. */
static int
operand(struct run *run, const char *arg, struct ev_err *err)
{
	struct stat sb;
	char **paths = NULL;
	size_t n = 1;
	int r = 0, dir = stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode);

	if (dir) {
		if (ev_extract_walk(arg, &paths, &n, err) == -1) {
			if (err->code != EV_EXIT_USAGE)
				return -1;
			ev_cli_report(err);
			run->failed++;
			return 0;
		}
		if (n == 0) {
			ev_warn("%s: no .pdf, .html or .htm files in this directory", arg);
			run->failed++;
		}
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		ev_err_clear(err);
		if (one(run, dir ? paths[i] : arg, err) == -1) {
			if (err->code != EV_EXIT_USAGE) {
				r = -1;
				break;
			}
			ev_cli_report(err);
			run->failed++;
		}
	}
	ev_extract_paths_free(paths, dir ? n : 0);
	return r;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct run run = { &cli, { 0 }, EV_XREC_INIT, json_object(), 0, 0, 0 };
	int argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-extract", NULL, argc, argv);
	argi = ev_opt_parse(&cli, &command, options);
	if (progress)
		cli.stderr_tty = 1;
	if (argi >= argc)
		ev_cli_usage_error(&cli, "give the PDF or HTML files (or directories) to extract");
	if (run.seen == NULL && ev_err_nomem(&err) == -1)
		rc = ev_cli_report(&err);
	for (int i = argi; i < argc && rc == EV_EXIT_OK; i++)
		if (operand(&run, argv[i], &err) == -1) {
			rc = ev_cli_report(&err);
			break;
		}
	if (rc == EV_EXIT_OK && run.failed > 0)
		rc = EV_EXIT_USAGE;
	ev_xrec_release(&run.rec);
	json_decref(run.seen);
	ev_cli_count(&cli, "documents", run.docs);
	ev_cli_count(&cli, "failed", run.failed);
	ev_cli_count(&cli, "pages", run.pages);
	return ev_cli_finish(&cli, rc);
}
