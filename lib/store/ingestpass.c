/* ingestpass.c: ev-ingest's two passes.  See ingestpass.h. */
#include "ingestpass.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "chunk.h"
#include "jsonl.h"
#include "note.h"
#include "sha256.h"
#include "strmap.h"
#include "utf8.h"

enum { REC_DOC = 0, REC_SEEN = 1, REC_KEPT = 2 };

#define SPOOL_BUFFER (1 << 20)	/* the spool file's stdio buffer */

/* A spooled record: this header, then len bytes (a document packed by
 * ev_ingest_rec_pack(); for REC_SEEN the id of an invalid record; for
 * REC_KEPT a struct kept, the document's id and its content hash, each
 * ended by a NUL). */
struct spool_hdr {
	uint32_t kind, source, input;
	uint64_t line, len;
};

/* A JSON Lines record the store held as it is when pass 1 read it: its
 * line's place in its input, to read it again should the store's copy
 * change before pass 2 (put_kept()), and its text's length. */
struct kept {
	int64_t at;
	uint64_t len, text_len;
};

/* Where a document id was first seen: its input (struct ev_ingestpass's
 * inputs), and for a JSON Lines record its line. */
struct seen_at {
	uint32_t input, from_file;
	uint64_t line;
};

struct ev_ingestpass {
	struct ev_ingestpass_opts o;
	FILE *f;
	char *fbuf;		/* f's buffer (SPOOL_BUFFER bytes), or NULL: stdio's */
	char **inputs;		/* names for messages, by index */
	size_t ninputs;
	char **sources;		/* distinct sources, by index */
	size_t nsources;
	unsigned char *source_blind;	/* a source had invalid records without ids */
	struct ev_strmap ids;	/* the ids seen, numbered */
	struct seen_at *ids_at;	/* by number: where each was first seen */
	size_t ids_room;
	json_t *texts;		/* sha256 of a file's text -> its id */
	json_t *jsonl_files;	/* "DEV:INODE" of a JSON Lines file read -> its name */
	struct ev_buf pack, meta, extra, pages;	/* a record being spooled */
	struct ev_regions regs;	/* its pages and lines (ev_docread_parse_paged()) */
	long long line_at;	/* its line's place in its input (-1: none to read again) */
	size_t line_len;	/* and its length */
	struct ev_ingest_preparer *held;	/* the store's documents, or NULL */
	struct ev_ingestpass_stats st;
};

struct ev_ingestpass *
ev_ingestpass_new(const struct ev_ingestpass_opts *o, struct ev_err *err)
{
	struct ev_ingestpass *sp = calloc(1, sizeof *sp);

	if (sp == NULL || (sp->texts = json_object()) == NULL || (sp->jsonl_files = json_object()) == NULL) {
		ev_ingestpass_free(sp);
		ev_err_nomem(err);
		return NULL;
	}
	sp->o = *o;
	if ((sp->f = tmpfile()) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create a spool file: %s",
		    strerror(errno));
		ev_ingestpass_free(sp);
		return NULL;
	}
	/* the spool holds as many bytes as the input: written and read back in
	 * large pieces, not stdio's 4 KB (a system call each) */
	if ((sp->fbuf = malloc(SPOOL_BUFFER)) != NULL)
		setvbuf(sp->f, sp->fbuf, _IOFBF, SPOOL_BUFFER);
	return sp;
}

static void
free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
ev_ingestpass_free(struct ev_ingestpass *sp)
{
	if (sp == NULL)
		return;
	if (sp->f != NULL)
		fclose(sp->f);
	free(sp->fbuf);
	ev_strmap_release(&sp->ids);
	free(sp->ids_at);
	json_decref(sp->texts);
	json_decref(sp->jsonl_files);
	free_names(sp->inputs, sp->ninputs);
	free_names(sp->sources, sp->nsources);
	free(sp->source_blind);
	ev_buf_release(&sp->pack);
	ev_buf_release(&sp->meta);
	ev_buf_release(&sp->extra);
	ev_buf_release(&sp->pages);
	ev_regions_release(&sp->regs);
	ev_ingest_preparer_free(sp->held);
	free(sp);
}

const struct ev_ingestpass_stats *
ev_ingestpass_stats(const struct ev_ingestpass *sp)
{
	return &sp->st;
}

/* Append s to v (unique: the index of an equal name, when there is one). */
static int
add_name(char ***v, size_t *n, const char *s, int unique, size_t *index)
{
	char **x;

	for (size_t i = 0; unique && i < *n; i++)
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
spool_put(struct ev_ingestpass *sp, uint32_t kind, size_t source, size_t input, size_t line,
	const char *data, size_t len, struct ev_err *err)
{
	struct spool_hdr h;

	memset(&h, 0, sizeof h);	/* no uninitialised padding written out */
	h.kind = kind;
	h.source = (uint32_t)source;
	h.input = (uint32_t)input;
	h.line = line;
	h.len = len;
	if (fwrite(&h, sizeof h, 1, sp->f) != 1 ||
	    (len > 0 && fwrite(data, 1, len, sp->f) != len))
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the spool file: %s",
		    strerror(errno ? errno : EIO));
	return 0;
}

/* A bad record: fatal (-1), or skipped with skip_invalid (0).  id, when
 * known, is kept from pruning. */
static int
invalid(struct ev_ingestpass *sp, const char *id, size_t source, struct ev_err *err)
{
	char text[1100];

	if (!sp->o.skip_invalid || err->code != EV_EXIT_USAGE)
		return -1;
	if (sp->st.invalid++ < EV_INGESTPASS_NAMED)
		ev_note(sp->o.note, sp->o.ctx, "%s", ev_err_text(err, text, sizeof text));
	ev_err_clear(err);
	if (id == NULL) {
		sp->source_blind[source] = 1;
		return 0;
	}
	return spool_put(sp, REC_SEEN, source, 0, 0, id, strlen(id), err);
}

/* Where the id numbered n was first seen, for messages: "FILE:LINE", or
 * a file's path. */
static const char *
first_seen(const struct ev_ingestpass *sp, int32_t n, char where[EV_WHERE_MAX])
{
	const struct seen_at *at = &sp->ids_at[n];

	if (at->from_file)
		return sp->inputs[at->input];
	snprintf(where, EV_WHERE_MAX, "%s:%llu", sp->inputs[at->input], (unsigned long long)at->line);
	return where;
}

/* Record id as seen at input's line (from_file: the file's document):
 * 1, 0 when it was seen before (*n its number), -1 when out of memory. */
static int
see_id(struct ev_ingestpass *sp, const char *id, int from_file, size_t input, size_t line,
	int32_t *n)
{
	int added;

	if ((*n = ev_strmap_add(&sp->ids, id, strlen(id), &added)) < 0)
		return -1;
	if (!added)
		return 0;
	if ((size_t)*n == sp->ids_room) {
		size_t room = sp->ids_room ? 2 * sp->ids_room : 1024;
		struct seen_at *x = realloc(sp->ids_at, room * sizeof *x);

		if (x == NULL) {
			ev_strmap_drop_last(&sp->ids);
			return -1;
		}
		sp->ids_at = x;
		sp->ids_room = room;
	}
	sp->ids_at[*n] = (struct seen_at){ (uint32_t)input, from_file != 0, line };
	return 1;
}

/* doc's record into *rec (ev_ingest_rec_make()), with its pages and lines
 * (sp->regs, when it has some) encoded into sp->pages.  Returns 0, or -1
 * with *err set. */
static int
make_rec(struct ev_ingestpass *sp, json_t *doc, int from_file, struct ev_ingest_rec *rec,
	struct ev_err *err)
{
	ev_buf_reset(&sp->pages);
	if (ev_ingest_rec_make(doc, from_file, rec, &sp->meta, &sp->extra) == -1)
		return ev_err_nomem(err);
	if (sp->regs.npages + sp->regs.nlines > 0) {
		if (ev_regions_encode(&sp->regs, &sp->pages) == -1 || ev_buf_reserve(&sp->pages, 1) == -1)
			return ev_err_nomem(err);
		rec->regions = sp->pages.p;
		rec->regions_len = sp->pages.len;
	}
	return 0;
}

/* A checked document: refused when its id was seen before in this run, else
 * spooled, with the pages and lines in sp->regs when it has some; a JSON
 * Lines record the store holds as it is (sp->held), whose line can be read
 * again (sp->line_at), as its id and content hash alone. */
static int
accept(struct ev_ingestpass *sp, json_t *doc, int from_file, size_t source, size_t input,
	size_t line, const char *where, struct ev_err *err)
{
	const char *id = json_string_value(json_object_get(doc, "id"));
	char first[EV_WHERE_MAX];
	struct ev_ingest_rec rec;
	int32_t n;
	int r = see_id(sp, id, from_file, input, line, &n);

	if (r == -1)
		return ev_err_nomem(err);
	if (r == 0) {
		ev_err_set(err, EV_EXIT_USAGE, where, "duplicate document id '%s' (first at %s)", id,
		    first_seen(sp, n, first));
		return invalid(sp, id, source, err);
	}
	if (make_rec(sp, doc, from_file, &rec, err) == -1)
		return -1;
	sp->st.docs++;
	ev_buf_reset(&sp->pack);
	if (!from_file && sp->held != NULL && sp->line_at >= 0) {
		char dhash[EV_SHA256_TEXT];
		struct kept k = { sp->line_at, sp->line_len, rec.text_len };

		if (ev_ingest_checker_holds(sp->held, &rec, dhash)) {
			if (ev_buf_add(&sp->pack, &k, sizeof k) == -1 ||
			    ev_buf_add(&sp->pack, id, strlen(id) + 1) == -1 ||
			    ev_buf_add(&sp->pack, dhash, strlen(dhash) + 1) == -1)
				return ev_err_nomem(err);
			return spool_put(sp, REC_KEPT, source, input, line, sp->pack.p, sp->pack.len, err);
		}
	}
	if (ev_ingest_rec_pack(&rec, &sp->pack) == -1)
		return ev_err_nomem(err);
	return spool_put(sp, REC_DOC, source, input, line, sp->pack.p, sp->pack.len, err);
}

/* " (standard input)" after a file named "-", or "". */
static const char *
stdin_said(const char *path)
{
	return strcmp(path, "-") == 0 ? " (standard input)" : "";
}

/* A JSON Lines file named twice (x.jsonl and ./x.jsonl, a glob and a name,
 * "-" and the file that is standard input) is read once, as a document file
 * is: 1 (noted) when path is a file read before, 0 when it is not (now
 * recorded), -1 out of memory. */
static int
jsonl_twice(struct ev_ingestpass *sp, const char *path, struct ev_err *err)
{
	char key[EV_FILE_KEY_MAX];
	json_t *first;

	if (!ev_file_key(path, key))
		return 0;
	if ((first = json_object_get(sp->jsonl_files, key)) != NULL) {
		if (sp->st.again++ < EV_INGESTPASS_NAMED)
			ev_note(sp->o.note, sp->o.ctx, "%s%s: the same file as '%s'%s: read once",
			    path, stdin_said(path), json_string_value(first),
			    stdin_said(json_string_value(first)));
		return 1;
	}
	return json_object_set_new(sp->jsonl_files, key, json_string_nocheck(path)) == -1 ?
	    ev_err_nomem(err) : 0;
}

static int
read_jsonl(struct ev_ingestpass *sp, const char *path, size_t source, struct ev_err *err)
{
	char *paths[1] = { (char *)path };
	struct ev_jsonl *in;
	const char *line;
	size_t len, input;
	int got, rc = 0;

	if ((got = jsonl_twice(sp, path, err)) != 0)
		return got == 1 ? 0 : -1;
	if (add_name(&sp->inputs, &sp->ninputs, strcmp(path, "-") == 0 ? "stdin" : path, 0,
	    &input) == -1)
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
		if ((doc = ev_docread_parse_paged(line, len, where, &sp->regs, err)) == NULL) {
			if ((rc = invalid(sp, NULL, source, err)) == -1)
				break;
			continue;
		}
		if (ev_docread_check(doc, where, err) == -1) {
			id = json_string_value(json_object_get(doc, "id"));
			rc = invalid(sp, id && *id ? id : NULL, source, err);
		} else {
			sp->line_at = ev_jsonl_line_offset(in);
			sp->line_len = len;
			rc = accept(sp, doc, 0, source, input, ev_jsonl_lineno(in), where, err);
		}
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
 * noted: a second copy under another id.  Returns 0 or -1. */
static int
same_text(struct ev_ingestpass *sp, json_t *doc, struct ev_err *err)
{
	json_t *t = json_object_get(doc, "text"), *first;
	const char *id = json_string_value(json_object_get(doc, "id"));
	char h[EV_SHA256_TEXT];

	if (json_string_length(t) == 0)
		return 0;
	ev_sha256_text(json_string_value(t), json_string_length(t), h);
	if ((first = json_object_get(sp->texts, h)) != NULL) {
		if (sp->st.copies++ < EV_INGESTPASS_NAMED)
			ev_note(sp->o.note, sp->o.ctx, "%s: same text as '%s': a second copy under another id",
			    id, json_string_value(first));
		return 0;
	}
	return json_object_set_new(sp->texts, h, json_string(id)) == -1 ? ev_err_nomem(err) : 0;
}

/* The same file named twice (docs and ./docs/a.md, a link to a
 * directory) is read once: 1 (noted) when the file of this id was read. */
static int
named_twice(struct ev_ingestpass *sp, const char *id, const char *path)
{
	int32_t n = ev_strmap_find(&sp->ids, id, strlen(id));

	if (n < 0 || !sp->ids_at[n].from_file)
		return 0;
	if (sp->st.again++ < EV_INGESTPASS_NAMED)
		ev_note(sp->o.note, sp->o.ctx, "%s: the same file as '%s': read once", path,
		    sp->inputs[sp->ids_at[n].input]);
	return 1;
}

/* A file's document, checked, whose text is noted when another file of this
 * run has it, spooled. */
static int
accept_file(struct ev_ingestpass *sp, json_t *doc, const char *path, size_t source,
	struct ev_err *err)
{
	size_t input;

	if (same_text(sp, doc, err) == -1)
		return -1;
	if (add_name(&sp->inputs, &sp->ninputs, path, 0, &input) == -1)
		return ev_err_nomem(err);
	return accept(sp, doc, 1, source, input, 1, path, err);
}

/* The id of the operand path, as ev_ingest_ids_of() gives it, except for a
 * pipe or a device (a process substitution such as <(...), /dev/stdin):
 * resolved, its name would change from run to run (/dev/fd/63 is
 * /proc/PID/fd/63), so that --prune never found the documents of an earlier
 * run; it is named as given.  malloc'd, or NULL with *err set. */
static char *
operand_id(struct ev_ingestpass *sp, const char *path, struct ev_err *err)
{
	struct stat sb;
	char *id;

	if (stat(path, &sb) == -1 || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode))
		return ev_ingest_ids_of(sp->o.ids_of, path, err);
	if ((id = strdup(path)) == NULL)
		ev_err_nomem(err);
	return id;
}

/* A plain document; walked: found in a directory, where a file with no
 * extension that is not UTF-8 text (a program) is skipped, not refused. */
static int
read_plain(struct ev_ingestpass *sp, const char *path, size_t source, int walked,
	struct ev_err *err)
{
	const char *name = strrchr(path, '/');
	char *id = walked ? ev_ingest_ids_of(sp->o.ids_of, path, err) : operand_id(sp, path, err);
	json_t *doc;
	int rc;

	if (id == NULL)
		return -1;
	if (named_twice(sp, id, path)) {
		free(id);
		return 0;
	}
	ev_regions_release(&sp->regs);
	doc = ev_docread_read_file(path, id,
	    sp->o.format == EV_DOCREAD_KIND_JSONL ? EV_INGEST_AUTO : sp->o.format, err);
	free(id);
	name = name ? name + 1 : path;
	if (doc == NULL && walked && err->code == EV_EXIT_USAGE && strchr(name, '.') == NULL) {
		if (sp->o.verbose)
			ev_note(sp->o.note, sp->o.ctx, "%s: skipped: not UTF-8 text (%s)", path, err->msg);
		ev_err_clear(err);
		sp->st.skipped++;
		return 0;
	}
	if (doc == NULL)
		return invalid(sp, NULL, source, err);
	rc = accept_file(sp, doc, path, source, err);
	json_decref(doc);
	return rc;
}

/* ev-extract: the one beside this program (a build's bin/, an installed
 * prefix's), else "ev-extract", looked for on PATH. */
static void
extract_program(char *out, size_t size)
{
	char self[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			snprintf(out, size, "%.*s/ev-extract", (int)(slash - self), self);
			if (access(out, X_OK) == 0)
				return;
		}
	}
	snprintf(out, size, "ev-extract");
}

/* ev-extract's stderr, as it comes: its messages, one a line, are kept in
 * msgs; its progress ("\r...\033[K", written with --progress) goes on to
 * our stderr. */
struct xerr {
	struct ev_buf msgs, prog;
	int in_prog;
};

static int
xerr_feed(struct xerr *x, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!x->in_prog && p[i] == '\r') {
			x->in_prog = 1;
			ev_buf_reset(&x->prog);
		}
		if (x->in_prog) {
			if (ev_buf_addc(&x->prog, p[i]) == -1)
				return -1;
			if (x->prog.len >= 3 && memcmp(x->prog.p + x->prog.len - 3, "\033[K", 3) == 0) {
				fwrite(x->prog.p, 1, x->prog.len, stderr);
				fflush(stderr);
				x->in_prog = 0;
			}
		} else if (ev_buf_addc(&x->msgs, p[i]) == -1)
			return -1;
	}
	return 0;
}

/* Run ev-extract on path, its record into out, its stderr into *x; *status
 * as waitpid() gives it.  Returns 0, or -1 with *err set (code 1). */
static int
run_extract(struct ev_ingestpass *sp, const char *path, FILE *out, struct xerr *x, int *status,
	struct ev_err *err)
{
	char prog[4200], buf[4096];
	const char *argv[8];
	int fds[2], argc = 0;
	ssize_t got;
	pid_t pid;

	extract_program(prog, sizeof prog);
	argv[argc++] = "ev-extract";
	if (sp->o.extract_progress)
		argv[argc++] = "--progress";
	if (sp->o.password != NULL) {
		argv[argc++] = "--password";
		argv[argc++] = sp->o.password;
	}
	argv[argc++] = "--";
	argv[argc++] = path;
	argv[argc] = NULL;
	fflush(NULL);
	if (pipe(fds) == -1)
		return ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot run ev-extract: %s",
		    strerror(errno));
	if ((pid = fork()) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot run ev-extract: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		/* ev-ingest's own input (a pipe it reads) is not ev-extract's */
		if (null == -1 || dup2(null, STDIN_FILENO) == -1 ||
		    dup2(fileno(out), STDOUT_FILENO) == -1 || dup2(fds[1], STDERR_FILENO) == -1)
			_exit(127);
		if (null > STDERR_FILENO)
			close(null);
		close(fds[0]);
		close(fds[1]);
		if (strchr(prog, '/') != NULL)
			execv(prog, (char *const *)argv);
		else
			execvp(prog, (char *const *)argv);
		dprintf(STDERR_FILENO, "ev-extract: %s: cannot run ev-extract, which reads PDF and"
		    " HTML files: %s (install it beside ev-ingest or on PATH)\n", path,
		    strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while ((got = read(fds[0], buf, sizeof buf)) != 0) {
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1 || xerr_feed(x, buf, (size_t)got) == -1)
			break;
	}
	close(fds[0]);
	while (waitpid(pid, status, 0) == -1)
		if (errno != EINTR)
			return ev_err_set(err, EV_EXIT_RUNTIME, path, "waiting for ev-extract: %s",
			    strerror(errno));
	if (got != 0)
		return got == -1 ? ev_err_set(err, EV_EXIT_RUNTIME, path,
		    "reading ev-extract's messages: %s", strerror(errno)) : ev_err_nomem(err);
	return 0;
}

/* ev-extract's messages: each line but the last one kept (all when
 * last is NULL) as a note, without the program's name; the last into
 * *last. */
static void
xerr_notes(struct ev_ingestpass *sp, struct xerr *x, const char **last)
{
	char *p = x->msgs.p, *nl;
	static const char name[] = "ev-extract: ";

	if (last != NULL)
		*last = NULL;
	while (p != NULL && *p != '\0') {
		if ((nl = strchr(p, '\n')) != NULL)
			*nl = '\0';
		if (strncmp(p, name, sizeof name - 1) == 0)
			p += sizeof name - 1;
		if (last != NULL && (nl == NULL || nl[1] == '\0')) {
			*last = p;
			return;
		}
		ev_note(sp->o.note, sp->o.ctx, "%s", p);
		p = nl ? nl + 1 : NULL;
	}
}

/* The error ev-extract reported (a file it could not read: code 2), or its
 * status when it said nothing. */
static int
extract_failed(struct ev_ingestpass *sp, struct xerr *x, const char *path, int status,
	struct ev_err *err)
{
	const char *msg;
	size_t n = strlen(path);
	int code = WIFEXITED(status) && WEXITSTATUS(status) == EV_EXIT_USAGE ? EV_EXIT_USAGE :
	    EV_EXIT_RUNTIME;

	xerr_notes(sp, x, &msg);
	/* "PATH:LINE: what" already names the file and line: said once */
	if (msg != NULL && strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] != ' ')
		return ev_err_set(err, code, NULL, "%s", msg);
	if (msg != NULL && strncmp(msg, path, n) == 0 && strncmp(msg + n, ": ", 2) == 0)
		return ev_err_set(err, code, path, "%s", msg + n + 2);
	if (msg != NULL)
		return ev_err_set(err, code, path, "ev-extract: %s", msg);
	if (WIFSIGNALED(status))
		return ev_err_set(err, code, path, "ev-extract was killed by signal %d",
		    WTERMSIG(status));
	return ev_err_set(err, code, path, "ev-extract failed (exit status %d)",
	    WEXITSTATUS(status));
}

/* A PDF or HTML file, through ev-extract: its one record, with the file's
 * id (relative to the store's base, not to the current directory). */
static int
read_extract(struct ev_ingestpass *sp, const char *path, size_t source, struct ev_err *err)
{
	struct xerr x = { EV_BUF_INIT, EV_BUF_INIT, 0 };
	char *id = ev_ingest_ids_of(sp->o.ids_of, path, err), *line = NULL;
	size_t cap = 0;
	ssize_t len;
	json_t *doc = NULL;
	FILE *out = NULL;
	int status, rc = -1;

	if (id == NULL)
		return -1;
	if (ev_utf8_bad(id, strlen(id)) < strlen(id)) {
		free(id);	/* (as a Markdown or text file's: ev_docread_read_file()) */
		ev_err_set(err, EV_EXIT_USAGE, path, "%s", EV_DOCREAD_NAME_NOT_UTF8);
		return invalid(sp, NULL, source, err);
	}
	if (named_twice(sp, id, path)) {
		free(id);
		return 0;
	}
	if ((out = tmpfile()) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create a temporary file: %s",
		    strerror(errno));
		goto out;
	}
	if (run_extract(sp, path, out, &x, &status, err) == -1)
		goto out;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		extract_failed(sp, &x, path, status, err);
		rc = invalid(sp, id, source, err);
		goto out;
	}
	xerr_notes(sp, &x, NULL);
	rewind(out);
	errno = 0;
	if ((len = getline(&line, &cap, out)) <= 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "ev-extract wrote no record%s%s",
		    errno ? ": " : "", errno ? strerror(errno) : "");
		goto out;
	}
	if ((doc = ev_docread_parse_paged(line, (size_t)len, path, &sp->regs, err)) == NULL) {
		rc = invalid(sp, id, source, err);
		goto out;
	}
	free(line);
	line = NULL;
	if (json_object_set_new(doc, "id", json_string(id)) == -1 ||
	    json_object_set_new(doc, "source_uri", json_string(id)) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	if (ev_docread_check(doc, path, err) == -1)
		rc = invalid(sp, id, source, err);
	else
		rc = accept_file(sp, doc, path, source, err);
out:
	json_decref(doc);
	free(line);
	free(id);
	if (out != NULL)
		fclose(out);
	ev_buf_release(&x.msgs);
	ev_buf_release(&x.prog);
	return rc;
}

/* The plain documents of directory arg. */
static int
read_dir(struct ev_ingestpass *sp, const char *arg, size_t source, struct ev_err *err)
{
	char **paths, **skipped;
	size_t n, nskipped;
	long long before = sp->st.skipped, more, dangling = 0;
	int rc = 0;

	if (ev_ingest_walk(arg, &paths, &n, &skipped, &nskipped, err) == -1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (rc == 0)
			rc = ev_docread_kind(paths[i]) == EV_DOCREAD_KIND_EXTRACT ?
			    read_extract(sp, paths[i], source, err) :
			    read_plain(sp, paths[i], source, 1, err);
		free(paths[i]);
	}
	for (size_t i = 0; i < nskipped; i++) {
		struct stat sb;

		/* a link to a document that is not there (an unmounted share) is
		 * always named: with --prune, its document is deleted */
		if (stat(skipped[i], &sb) == -1) {
			ev_note(sp->o.note, sp->o.ctx, "%s: skipped: a symbolic link to nothing (%s)",
			    skipped[i], strerror(errno));
			dangling++;
		} else if (sp->o.verbose)
			ev_note(sp->o.note, sp->o.ctx, "%s: skipped: not a document by its name", skipped[i]);
		free(skipped[i]);
	}
	free(paths);
	free(skipped);
	sp->st.skipped += (long long)nskipped;
	more = sp->st.skipped - before - dangling;
	if (rc == 0 && !sp->o.verbose && more > 0)
		ev_note(sp->o.note, sp->o.ctx, "%s: skipped %lld file%s that %s not documents (--verbose names them)",
		    arg, more, more == 1 ? "" : "s", more == 1 ? "is" : "are");
	return rc;
}

int
ev_ingestpass_read(struct ev_ingestpass *sp, const char *arg, struct ev_err *err)
{
	char *id = NULL;
	const char *src = sp->o.source;
	struct stat sb;
	size_t source;
	unsigned char *x;
	int kind, rc;

	if (strcmp(arg, "-") != 0 && stat(arg, &sb) == -1)	/* bad usage, unless memory ran out */
		return errno == ENOMEM ? ev_err_nomem(err) :
		    ev_err_set(err, EV_EXIT_USAGE, arg, "cannot open: %s", strerror(errno));
	if (src == NULL && strcmp(arg, "-") == 0)
		src = "stdin";
	else if (src == NULL) {
		/* a directory is resolved whole, as "DIR/" (a link to one names
		 * the directory it leads to, as the ids of its files do) */
		size_t n = strlen(arg);
		char *d = NULL;

		if (S_ISDIR(sb.st_mode) && arg[n - 1] != '/') {
			if ((d = malloc(n + 2)) == NULL)	/* (never the name without its '/') */
				return ev_err_nomem(err);
			memcpy(d, arg, n), memcpy(d + n, "/", 2);
		}
		src = id = operand_id(sp, d ? d : arg, err);
		free(d);
		if (id == NULL)
			return -1;
	}
	rc = add_name(&sp->sources, &sp->nsources, src, 1, &source);
	free(id);
	if (rc == -1 || (x = realloc(sp->source_blind, sp->nsources)) == NULL)
		return ev_err_nomem(err);
	sp->source_blind = x;
	if (source == sp->nsources - 1)
		x[source] = 0;
	if (strcmp(arg, "-") == 0)
		return read_jsonl(sp, arg, source, err);
	if (S_ISDIR(sb.st_mode))
		return read_dir(sp, arg, source, err);
	kind = ev_docread_kind(arg);
	if (sp->o.format == EV_INGEST_AUTO && kind == EV_DOCREAD_KIND_EXTRACT && S_ISREG(sb.st_mode))
		return read_extract(sp, arg, source, err);
	if (sp->o.format == EV_DOCREAD_KIND_JSONL || kind == EV_DOCREAD_KIND_JSONL)
		return read_jsonl(sp, arg, source, err);
	if (sp->o.format != EV_INGEST_AUTO ||
	    (S_ISREG(sb.st_mode) && (kind == EV_CHUNK_MARKDOWN || kind == EV_CHUNK_TEXT)))
		return read_plain(sp, arg, source, 0, err);
	return read_jsonl(sp, arg, source, err);
}

void
ev_ingestpass_read_done(struct ev_ingestpass *sp)
{
	const struct ev_ingestpass_stats *s = &sp->st;

	ev_strmap_release(&sp->ids);
	free(sp->ids_at);
	sp->ids_at = NULL;
	sp->ids_room = 0;
	json_decref(sp->texts);
	sp->texts = NULL;
	/* (its read transaction ended before the writes) */
	ev_ingest_preparer_free(sp->held);
	sp->held = NULL;
	/* the last record's buffers (a long PDF's: tens of MB) */
	ev_buf_release(&sp->pack);
	ev_buf_release(&sp->meta);
	ev_buf_release(&sp->extra);
	ev_buf_release(&sp->pages);
	ev_regions_release(&sp->regs);
	if (s->invalid > 0)
		ev_note(sp->o.note, sp->o.ctx, "skipped %lld invalid record%s", s->invalid, s->invalid == 1 ? "" : "s");
	if (s->again > EV_INGESTPASS_NAMED)
		ev_note(sp->o.note, sp->o.ctx, "%lld files were named twice and read once", s->again);
	if (s->copies > EV_INGESTPASS_NAMED)
		ev_note(sp->o.note, sp->o.ctx, "%lld files are second copies of another file's text", s->copies);
}

struct ev_ingestpass *
ev_ingestpass_against(struct ev_ingestpass *sp, struct ev_store *st, const struct ev_ingest_opts *o)
{
	if (st != NULL && sp->held == NULL)
		sp->held = ev_ingest_checker_new(st, o);
	return sp;
}

int
ev_ingestpass_read_all(struct ev_ingestpass *sp, char *const *args, int n, struct ev_err *err)
{
	if (n == 0 && ev_ingestpass_read(sp, "-", err) == -1)
		return -1;
	for (int i = 0; i < n; i++)
		if (ev_ingestpass_read(sp, args[i], err) == -1)
			return -1;
	ev_ingestpass_read_done(sp);
	return 0;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
flush_out(FILE *fp, struct ev_buf *out, struct ev_err *err)
{
	if (out->len > 0 && (fwrite(out->p, 1, out->len, fp) != out->len || fflush(fp) == EOF))
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s",
		    strerror(errno ? errno : EIO));
	ev_buf_reset(out);
	return 0;
}

/* In the first transaction of a store that has no base: record it (and
 * give the documents stored before from files their ids relative to it). */
static int
record_base(struct ev_ingestpass *sp, struct ev_store *st, struct ev_ingest *ig, struct ev_err *err)
{
	long long renamed = 0, merged = 0;
	char *have = NULL;
	int got = ev_ingest_base_get(st, &have, err);

	free(have);
	if (got != 0)
		return got == -1 ? -1 : 0;
	if (ev_ingest_base_set(ig, sp->o.ids_of, &renamed, &merged, err) == -1)
		return -1;
	if (renamed + merged > 0)
		ev_note(sp->o.note, sp->o.ctx, "%s: file ids are now relative to the store's base '%s': %lld document%s"
		    " renamed, %lld second cop%s deleted", ev_store_path(st),
		    ev_ingest_ids_base(sp->o.ids_of), renamed, renamed == 1 ? "" : "s", merged,
		    merged == 1 ? "y" : "ies");
	return 0;
}

/* Begin a transaction unless one is open; the first records the base. */
static int
begin(struct ev_ingestpass *sp, struct ev_store *st, struct ev_ingest *ig, int *in_txn, int *based,
	struct ev_err *err)
{
	if (*in_txn)
		return 0;
	if (ev_store_begin(st, err) == -1)
		return -1;
	*in_txn = 1;
	if (!*based && record_base(sp, st, ig, err) == -1)
		return -1;
	*based = 1;
	return 0;
}

static int
prune(struct ev_ingestpass *sp, struct ev_ingest *ig, struct ev_err *err)
{
	for (size_t i = 0; i < sp->nsources; i++) {
		if (sp->source_blind[i]) {
			ev_note(sp->o.note, sp->o.ctx, "%s: not pruned: invalid records without an id were skipped",
			    sp->sources[i]);
			continue;
		}
		if (ev_ingest_prune(ig, sp->sources[i], &sp->st.pruned, err) == -1)
			return -1;
	}
	return 0;
}

/* Read the next spooled record into rec: 1, 0 at the end, -1 with *err. */
static int
next_rec(struct ev_ingestpass *sp, struct spool_hdr *h, struct ev_buf *rec, struct ev_err *err)
{
	if (fread(h, sizeof *h, 1, sp->f) != 1) {
		if (!ferror(sp->f))
			return 0;
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: %s",
		    strerror(errno));
	}
	ev_buf_reset(rec);
	if (ev_buf_reserve(rec, h->len) == -1)
		return ev_err_nomem(err);
	if (h->len > 0 && fread(rec->p, 1, h->len, sp->f) != h->len)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: truncated");
	rec->len = h->len;
	rec->p[rec->len] = '\0';
	return 1;
}

/* Pass 2's records, in order: read from the spool file on demand, or by a
 * thread of their own that also prepares each document (ev_ingest_prepare():
 * hash, chunks, languages, tokens) while the writer puts the ones before.
 * Either way the same records reach the writer; only the work moves. */
#define FEED_SLOTS 32			/* records read ahead, at most */
#define FEED_BYTES (64 << 20)		/* and their bytes, unless only one */
#define FEED_WAKE 8			/* records a waiting thread is woken for */

struct slot {
	int got;			/* 1: a record; 0: the end; -1: err */
	struct ev_err err;
	struct spool_hdr h;
	struct ev_buf rec;
	struct ev_ingest_rec doc;	/* REC_DOC: unpacked from rec */
	struct ev_ingest_prep *prep;	/* prepared (threaded), or NULL */
};

/* The slots are a ring: the reader fills slot[tail % FEED_SLOTS], the
 * writer takes slot[head % FEED_SLOTS].  A thread that waits is woken when
 * FEED_WAKE records (or room for them) are ready, not for each one: a
 * wake-up costs more than preparing a document the store holds already. */
struct feed {
	struct ev_ingestpass *sp;
	struct ev_ingest_preparer *pr;	/* NULL: no thread */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t filled, freed;
	struct slot slot[FEED_SLOTS];
	size_t head, tail;
	size_t bytes;			/* of the slots filled and not taken */
	int stop;			/* the writer wants no more */
	int reader_waits, writer_waits;
};

/* Whether the reader must wait for the writer to take slots. */
static int
full(const struct feed *f)
{
	return f->tail - f->head == FEED_SLOTS || (f->tail > f->head && f->bytes >= FEED_BYTES);
}

/* Read the next record into s, and prepare it with pr (when not NULL). */
static void
fill(struct ev_ingestpass *sp, struct ev_ingest_preparer *pr, struct slot *s)
{
	s->err = (struct ev_err){ 0 };
	if ((s->got = next_rec(sp, &s->h, &s->rec, &s->err)) != 1 || s->h.kind != REC_DOC)
		return;
	if (ev_ingest_rec_unpack(s->rec.p, s->rec.len, &s->doc) == -1) {
		s->got = ev_err_set(&s->err, EV_EXIT_RUNTIME, NULL, "reading the spool file: bad record");
		return;
	}
	if (pr != NULL && ev_ingest_prepare(pr, &s->doc, s->prep, &s->err) == -1)
		s->got = -1;
}

static void *
feed_run(void *arg)
{
	struct feed *f = arg;
	struct slot *s;

	for (;;) {
		pthread_mutex_lock(&f->mu);
		while (!f->stop && full(f)) {
			if (f->writer_waits)
				pthread_cond_signal(&f->filled);
			f->reader_waits = 1;
			pthread_cond_wait(&f->freed, &f->mu);
			f->reader_waits = 0;
		}
		if (f->stop) {
			pthread_mutex_unlock(&f->mu);
			return NULL;
		}
		s = &f->slot[f->tail % FEED_SLOTS];
		pthread_mutex_unlock(&f->mu);
		fill(f->sp, f->pr, s);
		pthread_mutex_lock(&f->mu);
		f->tail++;
		f->bytes += s->rec.len;
		if (f->writer_waits && (f->tail - f->head >= FEED_WAKE || s->got != 1))
			pthread_cond_signal(&f->filled);
		pthread_mutex_unlock(&f->mu);
		if (s->got != 1)
			return NULL;
	}
}

/* No reader thread after all: the records are read here. */
static void
unthread(struct feed *f)
{
	for (size_t i = 0; i < FEED_SLOTS; i++) {
		ev_ingest_prep_free(f->slot[i].prep);
		f->slot[i].prep = NULL;
	}
	ev_ingest_preparer_free(f->pr);
	f->pr = NULL;
}

/* Start the feed: with threads > 1 and two processors or more, a reader
 * thread preparing for ig (without one when it cannot start: the same
 * records, read here).  Returns 0 or -1 with *err set (out of memory). */
static int
feed_start(struct feed *f, struct ev_ingestpass *sp, struct ev_ingest *ig, struct ev_err *err)
{
	memset(f, 0, sizeof *f);
	f->sp = sp;
	if (sp->o.threads < 2 || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	if ((f->pr = ev_ingest_preparer_new(ig, err)) == NULL)
		return -1;
	for (size_t i = 0; i < FEED_SLOTS; i++)
		if ((f->slot[i].prep = ev_ingest_prep_new()) == NULL) {
			unthread(f);
			return ev_err_nomem(err);
		}
	f->mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	f->filled = f->freed = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	if (pthread_create(&f->thread, NULL, feed_run, f) != 0)
		unthread(f);
	return 0;
}

/* The next record (got 1), the end (0) or an error (-1, in its err); not
 * called again after one of the last two.  feed_done() gives it back. */
static struct slot *
feed_take(struct feed *f)
{
	struct slot *s;

	if (f->pr == NULL) {
		fill(f->sp, NULL, &f->slot[0]);
		return &f->slot[0];
	}
	pthread_mutex_lock(&f->mu);
	while (f->head == f->tail) {
		f->writer_waits = 1;
		pthread_cond_wait(&f->filled, &f->mu);
		f->writer_waits = 0;
	}
	s = &f->slot[f->head % FEED_SLOTS];
	pthread_mutex_unlock(&f->mu);
	return s;
}

static void
feed_done(struct feed *f, struct slot *s)
{
	if (f->pr == NULL)
		return;
	pthread_mutex_lock(&f->mu);
	f->head++;
	f->bytes -= s->rec.len;
	if (f->reader_waits && !full(f) &&
	    (FEED_SLOTS - (f->tail - f->head) >= FEED_WAKE || f->head == f->tail))
		pthread_cond_signal(&f->freed);
	pthread_mutex_unlock(&f->mu);
}

/* Stop the reader (wherever it is) and free the feed. */
static void
feed_stop(struct feed *f)
{
	if (f->pr != NULL) {
		pthread_mutex_lock(&f->mu);
		f->stop = 1;
		pthread_cond_signal(&f->freed);
		pthread_mutex_unlock(&f->mu);
		pthread_join(f->thread, NULL);
		ev_ingest_preparer_free(f->pr);
	}
	for (size_t i = 0; i < FEED_SLOTS; i++) {
		ev_buf_release(&f->slot[i].rec);
		ev_ingest_prep_free(f->slot[i].prep);
	}
}

/* Read the line of a kept record k again from its input, into line
 * (k->len bytes and a NUL).  Returns 0, or -1 with *err set. */
static int
read_again(const char *path, const struct kept *k, struct ev_buf *line, struct ev_err *err)
{
	ssize_t n = -1;
	int fd, e;

	ev_buf_reset(line);
	if (ev_buf_reserve(line, (size_t)k->len + 1) == -1)
		return ev_err_nomem(err);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) != -1) {
		n = pread(fd, line->p, (size_t)k->len, (off_t)k->at);
		e = errno;
		close(fd);
	} else
		e = errno;
	if (n != (ssize_t)k->len)
		return ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot be read again: %s",
		    n == -1 ? strerror(e) : "it is shorter now");
	line->len = (size_t)n;
	line->p[n] = '\0';
	return 0;
}

/* A record spooled as kept (accept()) whose document the store no longer
 * holds as it was when pass 1 looked (another writer changed or deleted
 * it since): its line read again from its input, checked to be what pass 1
 * read (its content hash dhash), and put whole.  Returns 0, or -1 with
 * *err set. */
static int
put_again(struct ev_ingestpass *sp, struct ev_ingest *ig, const struct spool_hdr *h,
	const struct kept *k, const char *dhash, struct ev_buf *out, const char *where,
	struct ev_err *err)
{
	struct ev_buf line = EV_BUF_INIT;
	struct ev_ingest_rec rec;
	char now[EV_SHA256_TEXT];
	json_t *doc = NULL;
	int rc = -1;

	if (read_again(sp->inputs[h->input], k, &line, err) == -1)
		goto out;
	if ((doc = ev_docread_parse_paged(line.p, line.len, where, &sp->regs, err)) == NULL ||
	    ev_docread_check(doc, where, err) == -1 || make_rec(sp, doc, 0, &rec, err) == -1) {
		if (err->code != EV_EXIT_USAGE)
			goto out;
		ev_err_clear(err);
		rec.id = NULL;
	}
	if (rec.id != NULL)
		ev_ingest_hash(ig, &rec, now);
	if (rec.id == NULL || strcmp(now, dhash) != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, where, "the input changed while ev-ingest read it"
		    " (the store's copy of its document changed too); run ev-ingest again");
		goto out;
	}
	rc = ev_ingest_put_prepared(ig, &rec, NULL, sp->sources[h->source], out, err) == -1 ? -1 : 0;
out:
	json_decref(doc);
	ev_buf_release(&line);
	return rc;
}

/* Pass 2 of a record spooled as kept: the store still holds its document
 * as it is (ev_ingest_keep()), or the document is put again (put_again()).
 * Returns 0, or -1 with *err set. */
static int
put_kept(struct ev_ingestpass *sp, struct ev_ingest *ig, const struct slot *s, struct ev_buf *out,
	const char *where, struct ev_err *err)
{
	struct kept k;
	const char *id = s->rec.p + sizeof k, *dhash;
	int r;

	if (s->rec.len < sizeof k + 2)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: bad record");
	memcpy(&k, s->rec.p, sizeof k);
	dhash = id + strlen(id) + 1;
	if ((r = ev_ingest_keep(ig, id, dhash, (long long)k.text_len, sp->sources[s->h.source],
	    err)) != 0)
		return r == -1 ? -1 : 0;
	return put_again(sp, ig, &s->h, &k, dhash, out, where, err);
}

int
ev_ingestpass_write(struct ev_ingestpass *sp, struct ev_store *st, struct ev_ingest *ig,
	struct ev_err *err)
{
	struct ev_buf out = EV_BUF_INIT;
	struct feed feed;
	struct slot *s;
	long long in_batch = 0, batch_bytes = 0, empty = 0;
	long commits = 0;
	double started = 0;
	int in_txn = 0, based = 0, rc = -1;
	char where[EV_WHERE_MAX];

	if (fflush(sp->f) == EOF || fseek(sp->f, 0, SEEK_SET) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the spool file: %s", strerror(errno));
		return -1;
	}
	if (ev_ingest_plan(ig, sp->st.docs, err) == -1)
		return -1;
	if (feed_start(&feed, sp, ig, err) == -1) {
		feed_stop(&feed);
		return -1;
	}
	while ((s = feed_take(&feed))->got == 1) {
		const struct ev_ingest_rec *doc = &s->doc;
		long long len = (long long)s->rec.len;
		int kept = s->h.kind == REC_KEPT, from_file = !kept && doc->from_file;
		const char *id = kept ? s->rec.p + sizeof(struct kept) : doc->id;

		if (!in_txn) {
			in_batch = batch_bytes = 0;
			started = now_ms();
		}
		if (begin(sp, st, ig, &in_txn, &based, err) == -1)
			goto out;
		if (s->h.kind == REC_SEEN) {
			if (ev_ingest_seen(ig, s->rec.p, err) == -1)
				goto out;
			feed_done(&feed, s);
			continue;
		}
		if (from_file)
			snprintf(where, sizeof where, "%s", sp->inputs[s->h.input]);
		else
			snprintf(where, sizeof where, "%s:%llu", sp->inputs[s->h.input],
			    (unsigned long long)s->h.line);
		if ((kept ? put_kept(sp, ig, s, &out, where, err) :
		    ev_ingest_put_prepared(ig, doc, s->prep, sp->sources[s->h.source], &out, err)) ==
		    -1) {
			if (err->where[0] == '\0')
				ev_err_set_where(err, where);
			goto out;
		}
		if (ev_ingest_stats(ig)->empty > empty && empty++ < EV_INGESTPASS_NAMED)
			ev_note(sp->o.note, sp->o.ctx, "%s: document '%s' stored with no chunk: %s; no search"
			    " can find it", where, id, from_file ? "the file has no text (a"
			    " title taken from its name is no chunk)" : "it has no text and no title");
		feed_done(&feed, s);
		if (sp->o.progress != NULL)
			sp->o.progress(sp->o.ctx, 1, len);
		batch_bytes += len;
		if (++in_batch >= sp->o.batch || batch_bytes >= EV_INGESTPASS_BATCH_BYTES ||
		    now_ms() - started >= EV_INGESTPASS_BATCH_MS) {
			if (ev_ingest_commit(ig, err) == -1)
				goto out;
			in_txn = 0;
			if (flush_out(sp->o.out, &out, err) == -1)
				goto out;
			if (++commits == sp->o.kill_after)
				raise(SIGKILL);
		}
	}
	if (s->got == -1) {
		*err = s->err;
		goto out;
	}
	if (sp->o.prune && (begin(sp, st, ig, &in_txn, &based, err) == -1 ||
	    prune(sp, ig, err) == -1))
		goto out;
	/* a bulk load's end in the last batch's transaction, when it is open
	 * and the end can be made in it */
	if (ev_ingest_finish(ig, in_txn, err) == -1)
		goto out;
	if (in_txn) {
		if (ev_ingest_commit(ig, err) == -1)
			goto out;
		in_txn = 0;
	}
	if (flush_out(sp->o.out, &out, err) == -1)
		goto out;
	if (empty > EV_INGESTPASS_NAMED)
		ev_note(sp->o.note, sp->o.ctx, "%lld documents stored with no chunk: no search can find them", empty);
	rc = 0;
out:
	feed_stop(&feed);
	sp->st.empty = empty;
	if (in_txn)
		ev_store_rollback(st);
	ev_buf_release(&out);
	return rc;
}

/* Delete one name as --delete (sources 0) or --delete-source does: 1 when
 * something went, 0 when nothing matched, -1 with *err set. */
static int
delete_one(struct ev_ingest *ig, int sources, const char *name, long long *deleted,
	struct ev_err *err)
{
	long long before = *deleted;
	int got;

	if (sources)
		return ev_ingest_delete_source(ig, name, deleted, err) == -1 ? -1 :
		    *deleted > before;
	if ((got = ev_ingest_delete(ig, name, err)) == 1)
		(*deleted)++;
	return got;
}

int
ev_ingestpass_delete(const struct ev_ingestpass_opts *o, struct ev_store *st, struct ev_ingest *ig,
	int sources, char **names, int n, long long *deleted, struct ev_err *err)
{
	struct stat sb;

	if (ev_store_begin(st, err) == -1)
		return -1;
	for (int i = 0; i < n; i++) {
		int got = delete_one(ig, sources, names[i], deleted, err);

		if (got == 0 && stat(names[i], &sb) == 0) {	/* a path: by its id */
			char *id = ev_ingest_ids_of(o->ids_of, names[i], err);

			got = id == NULL ? -1 : delete_one(ig, sources, id, deleted, err);
			free(id);
		}
		if (got == -1)
			goto fail;
		if (got == 0)
			ev_note(o->note, o->ctx, "%s: no %s '%s' in the store", ev_store_path(st),
			    sources ? "source" : "document", names[i]);
	}
	if (ev_ingest_commit(ig, err) == 0)
		return 0;
fail:
	ev_store_rollback(st);
	return -1;
}
