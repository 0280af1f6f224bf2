/* ev-show: what a reference points to in the store -- a chunk, a document,
 * a page or a region of a page -- its text, title, source, page, offsets and
 * boxes, as JSON Lines or text.  References come as arguments, or in JSON
 * Lines (hits, EvidencePacks, strings) on stdin, so it follows ev-pack in a
 * pipe.  See man/ev-show.1 and lib/store/show.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonl.h"
#include "opt.h"
#include "show.h"
#include "store.h"

static const struct ev_opt_cmd command = {
	"ev-show --db DB [OPTIONS] [REF ... | -]",
	"Print what each reference points to in the store: a chunk (chunk:ID), a\n"
	"document (doc:ID), a page (doc::ID::page-N) or the lines of a page inside a\n"
	"box (doc::ID::page-N::bbox-X0,Y0,X1,Y1), or a bare ID (a chunk's, else a\n"
	"document's).  Without REF, or with '-', references are read from JSON Lines\n"
	"on stdin: strings, hits (their content_ref, else id) or EvidencePacks\n"
	"(each evidence's raw.content_ref).  A reference the store no longer holds\n"
	"is named on stderr and makes the exit status 1; a malformed one stops\n"
	"with exit status 2.",
	NULL, 0
};

static const char *db;
static int format;		/* 0 jsonl, 1 text */

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &db, "DB", "the store (made by ev-ingest)"),
	EV_OPT_CHOICE(0, "format", "format", &format, "jsonl|text",
	    "jsonl (a record a line) or text (for reading)"),
	EV_OPT_END
};

struct run {
	struct ev_store *st;
	struct ev_buf out;
	long long refs, shown, missing;
};

/* Show reference ref (read at where).  Returns 0, or -1 with *err set. */
static int
show(struct run *r, const char *ref, size_t n, const char *where, struct ev_err *err)
{
	struct ev_ref parsed;
	json_t *rec = NULL;
	int got;

	if (ev_ref_parse(ref, n, &parsed, where, err) == -1)
		return -1;
	r->refs++;
	got = ev_show_resolve(r->st, &parsed, ref, ev_cli_note_cb, NULL, &rec, err);
	ev_buf_reset(&r->out);
	if (got == 0) {
		r->missing++;
		if (ev_show_put_ref(&r->out, ref, n) == -1 || ev_buf_adds(&r->out, "' ") == -1)
			got = ev_err_nomem(err);
		else if ((got = ev_show_why_missing(r->st, &parsed, &r->out, err)) == 0)
			fprintf(stderr, "ev-show: %s: '%s\n", where, r->out.p);
	}
	free(parsed.id);
	if (got != 1)
		return got;
	if (format == 1 ? ev_show_text(rec, &r->out) == -1 :
	    ev_json_dump(&r->out, rec) == -1 || ev_buf_addc(&r->out, '\n') == -1) {
		json_decref(rec);
		return ev_err_nomem(err);
	}
	json_decref(rec);
	r->shown++;
	if (fwrite(r->out.p, 1, r->out.len, stdout) != r->out.len)
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error");
	fflush(stdout);
	return 0;
}

/* The references of the JSON Lines of stdin. */
static int
show_stdin(struct run *r, struct ev_err *err)
{
	struct ev_jsonl *in = ev_jsonl_open(NULL, 0, err);
	json_t *v, *refs = json_array();
	int got = 0;

	if (in == NULL || refs == NULL) {
		ev_jsonl_close(in);
		json_decref(refs);
		return in == NULL ? -1 : ev_err_nomem(err);
	}
	while (got == 0 && (got = ev_jsonl_next(in, &v, err)) == 1) {
		const json_t *ref;
		size_t i;

		json_array_clear(refs);
		got = ev_show_refs_of(v, refs, ev_jsonl_where(in), err);
		json_decref(v);
		json_array_foreach(refs, i, ref)
			if (got == 0)
				got = show(r, json_string_value(ref), json_string_length(ref),
				    ev_jsonl_where(in), err);
	}
	ev_jsonl_close(in);
	json_decref(refs);
	return got == -1 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct run r = { NULL, EV_BUF_INIT, 0, 0, 0 };
	int argi, rc = EV_EXIT_OK, stdin_done = 0;
	char where[48];

	ev_cli_init(&cli, "ev-show", NULL, argc, argv);
	argi = ev_opt_parse(&cli, &command, options);
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required: the store the references point into");
	if ((r.st = ev_store_open(db, EV_STORE_READ, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	for (int i = argi; i <= argc && rc == EV_EXIT_OK; i++) {
		int fail;

		if (i == argc && argi < argc)
			break;
		if (i == argc || strcmp(argv[i], "-") == 0) {
			if (stdin_done++)
				continue;
			fail = show_stdin(&r, &err);
		} else {
			snprintf(where, sizeof where, "argument %d", i - argi + 1);
			fail = show(&r, argv[i], strlen(argv[i]), where, &err);
		}
		if (fail)
			rc = ev_cli_report(&err);
	}
	if (rc == EV_EXIT_OK && r.missing > 0)
		rc = EV_EXIT_RUNTIME;
out:
	ev_cli_count(&cli, "references", r.refs);
	ev_cli_count(&cli, "shown", r.shown);
	ev_cli_count(&cli, "missing", r.missing);
	ev_store_close(r.st);
	ev_buf_release(&r.out);
	return ev_cli_finish(&cli, rc);
}
