/* jsonl.c: reading and writing JSON Lines.  See jsonl.h. */
#include "jsonl.h"

#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ev_jsonl {
	char *const *paths;
	int npaths;
	int next_path;		/* index of the next input to open */
	FILE *fp;		/* the current input, or NULL */
	const char *name;	/* its name for messages */
	size_t lineno;		/* of the line last read */
	size_t seqno;		/* the same, counted over every input */
	int at_start;		/* nothing read yet from the current input */
	int regular;		/* the current input is a named regular file */
	long long pos;		/* its bytes read so far */
	long long line_at;	/* where the line last read begins in it */
	char *line;		/* getline's buffer */
	size_t cap;
	char where[EV_WHERE_MAX];
};

static int flush_each_record;
static ev_jsonl_observer *observer;
static void *observer_ctx;

/* Jansson's lexer mishandles failed allocations: it drops a byte of a string
 * and goes on (a silent wrong value), or, when the byte dropped follows a
 * backslash, fails an assert() and aborts.  So its allocations go through
 * this wrapper, which remembers a failure and, during json_loadb() (armed),
 * jumps out of the parse at once: the parse is abandoned and reported as out
 * of memory, and what Jansson had allocated for it is leaked (out of memory
 * ends the run).  Outside a parse (json_pack() and the like, which check
 * their allocations) a failure is only remembered. */
static int json_alloc_failed;
static int json_jump_armed;
static jmp_buf json_oom;

static void *
json_alloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		json_alloc_failed = 1;
		if (json_jump_armed) {
			json_jump_armed = 0;
			longjmp(json_oom, 1);
		}
	}
	return p;
}

/* The check of ev_jsonl_stdin_once() and ev_input_distinct(): option (NULL
 * for a command's inputs) is named in the message when given. */
static int
stdin_once(const char *const *paths, size_t n, const char *option, struct ev_err *err)
{
	size_t seen = 0;

	for (size_t i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0 && seen++)
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "standard input '-' named more "
			    "than once%s%s: it can be read only once; give each input once, or save "
			    "standard input to a file to read it twice", option ? " by " : "",
			    option ? option : "");
	return 0;
}

int
ev_jsonl_stdin_once(char *const *paths, int n, struct ev_err *err)
{
	return stdin_once((const char *const *)paths, n > 0 ? (size_t)n : 0, NULL, err);
}

/* The key "DEV:INO" of sb into key: 1, or 0 when it is not a regular file. */
static int
stat_key(const struct stat *sb, char key[EV_FILE_KEY_MAX])
{
	if (!S_ISREG(sb->st_mode))
		return 0;
	snprintf(key, EV_FILE_KEY_MAX, "%ju:%ju", (uintmax_t)sb->st_dev, (uintmax_t)sb->st_ino);
	return 1;
}

int
ev_file_key(const char *path, char key[EV_FILE_KEY_MAX])
{
	struct stat sb;

	if (strcmp(path, "-") == 0)
		return fstat(STDIN_FILENO, &sb) == 0 && stat_key(&sb, key);
	return stat(path, &sb) == 0 && stat_key(&sb, key);
}

int
ev_input_distinct(const char *const *paths, size_t n, const char *option, struct ev_err *err)
{
	char a[EV_FILE_KEY_MAX], b[EV_FILE_KEY_MAX];

	if (stdin_once(paths, n, option, err) == -1)
		return -1;
	for (size_t j = 1; j < n; j++)
		for (size_t i = 0; i < j && ev_file_key(paths[j], b); i++)
			if (ev_file_key(paths[i], a) && strcmp(a, b) == 0)
				return ev_err_set(err, EV_EXIT_USAGE, paths[j], "the same file as %s'%s':"
				    " %s names it twice, and it would count twice; name each file once",
				    strcmp(paths[i], "-") == 0 ? "standard input " : "", paths[i], option);
	return 0;
}

struct ev_jsonl *
ev_jsonl_open(char *const *paths, int npaths, struct ev_err *err)
{
	static char *const stdin_only[] = { "-" };
	struct ev_jsonl *in;

	if (ev_jsonl_stdin_once(paths, npaths, err) == -1)
		return NULL;
	if ((in = calloc(1, sizeof *in)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	in->paths = npaths > 0 ? paths : stdin_only;
	in->npaths = npaths > 0 ? npaths : 1;
	in->name = "stdin";
	return in;
}

static void
close_current(struct ev_jsonl *in)
{
	if (in->fp != NULL && in->fp != stdin)
		fclose(in->fp);
	in->fp = NULL;
}

/* Open the next input.  Returns 1, 0 when there is none, -1 on error. */
static int
open_next(struct ev_jsonl *in, struct ev_err *err)
{
	const char *path;
	struct stat sb;

	close_current(in);
	if (in->next_path >= in->npaths)
		return 0;
	path = in->paths[in->next_path++];
	in->lineno = 0;
	in->at_start = 1;
	in->regular = 0;
	in->pos = 0;
	if (strcmp(path, "-") == 0) {
		in->fp = stdin;
		in->name = "stdin";
		return 1;
	}
	in->name = path;
	if ((in->fp = ev_input_open(path, "r", "a JSON Lines file", err)) == NULL)
		return -1;
	in->regular = fstat(fileno(in->fp), &sb) == 0 && S_ISREG(sb.st_mode);
	return 1;
}

FILE *
ev_input_open(const char *path, const char *mode, const char *what, struct ev_err *err)
{
	struct stat sb;
	FILE *fp;

	if ((fp = fopen(path, mode)) == NULL) {	/* bad usage, unless memory ran out */
		ev_err_set(err, errno == ENOMEM ? EV_EXIT_RUNTIME : EV_EXIT_USAGE, path,
		    "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fclose(fp);
		ev_err_set(err, EV_EXIT_USAGE, path, "is a directory, not %s", what);
		return NULL;
	}
	return fp;
}

int
ev_jsonl_next_line(struct ev_jsonl *in, const char **line, size_t *len, struct ev_err *err)
{
	ssize_t n;
	int r;

	for (;;) {
		if (in->fp == NULL) {
			if ((r = open_next(in, err)) != 1)
				return r;
		}
		errno = 0;
		n = getline(&in->line, &in->cap, in->fp);
		if (n == -1) {
			/* glibc's getline() fails with ENOMEM without setting the
			 * stream's error flag: that is not the end of the input */
			if (!ferror(in->fp) && errno == ENOMEM) {
				close_current(in);
				return ev_err_nomem(err);
			}
			if (ferror(in->fp)) {
				int e = errno;

				close_current(in);
				return ev_err_set(err, EV_EXIT_RUNTIME, in->name, "read error: %s",
				    strerror(e ? e : EIO));
			}
			close_current(in);
			continue;
		}
		in->lineno++;
		in->seqno++;
		in->line_at = in->pos;
		in->pos += n;
		if (n > 0 && in->line[n - 1] == '\n')
			n--;
		if (n > 0 && in->line[n - 1] == '\r')
			n--;
		in->line[n] = '\0';
		*line = in->line;
		if (in->at_start) {
			in->at_start = 0;
			if (n >= 3 && memcmp(in->line, "\xEF\xBB\xBF", 3) == 0) {
				*line += 3;
				n -= 3;
				in->line_at += 3;
			}
		}
		*len = (size_t)n;
		if (observer != NULL)
			observer(observer_ctx, *line, *len, in->lineno);
		return 1;
	}
}

int
ev_jsonl_at_end(struct ev_jsonl *in)
{
	struct pollfd pfd;
	int c;

	if (in->fp == NULL || in->next_path < in->npaths)
		return 0;
	/* ready: reading the stream's next byte cannot wait (its buffer
	 * holds one, or the file, pipe or terminal has one or its end) */
	pfd.fd = fileno(in->fp);
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) != 1)
		return 0;
	if ((c = getc(in->fp)) != EOF)
		return ungetc(c, in->fp), 0;
	return feof(in->fp) != 0;
}

void
ev_jsonl_observe(ev_jsonl_observer *fn, void *ctx)
{
	observer = fn;
	observer_ctx = ctx;
}

void
ev_json_refused(const char *line, size_t len, const char *where, struct ev_err *err)
{
	struct ev_err jerr = { 0 };
	json_t *v;

	if (err->code != EV_EXIT_USAGE)
		return;
	if ((v = ev_json_parse_line(line, len, where, &jerr)) == NULL)
		*err = jerr;
	json_decref(v);
}

int
ev_jsonl_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

json_t *
ev_json_parse_line(const char *line, size_t len, const char *where, struct ev_err *err)
{
	json_error_t je;
	const char *nul;
	json_t *v;

	if ((nul = memchr(line, '\0', len)) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, where, "invalid JSON at column %zu: NUL byte in the line",
		    (size_t)(nul - line) + 1);
		return NULL;
	}
	json_set_alloc_funcs(json_alloc, free);
	json_alloc_failed = 0;
	if (setjmp(json_oom) == 0) {
		json_jump_armed = 1;
		v = json_loadb(line, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
		json_jump_armed = 0;
	} else
		v = NULL;	/* json_alloc() jumped: json_alloc_failed is set */
	if (json_alloc_failed) {
		json_decref(v);
		ev_err_nomem(err);
		ev_err_set_where(err, where);
		return NULL;
	}
	if (v == NULL) {
		/* Jansson names its flag for a \u0000, which no user can set */
		const char *nul = strstr(je.text, "JSON_ALLOW_NUL");
		const char *near = nul != NULL ? strstr(je.text, " near ") : NULL;

		size_t end = je.position > 0 && (size_t)je.position <= len ? (size_t)je.position : 0;
		size_t start = end;

		while (start > 0 && ((line[start - 1] >= '0' && line[start - 1] <= '9') ||
		    line[start - 1] == '-'))
			start--;
		if (strncmp(je.text, "too big ", 8) == 0 && start < end)
			ev_err_big_int(err, where, start + 1, line + start, end - start);
		else if (je.position >= (int)len && len > 0 && strstr(je.text, "end of file") != NULL)
			ev_err_set(err, EV_EXIT_USAGE, where, "invalid JSON: truncated record (%s)", je.text);
		else if (nul != NULL)
			ev_err_set(err, EV_EXIT_USAGE, where, "invalid JSON at column %d: \\u0000 (a NUL "
			    "character) in a string%s", je.column > 0 ? je.column : je.position + 1,
			    near != NULL ? near : "");
		else
			ev_err_set(err, EV_EXIT_USAGE, where, "invalid JSON at column %d: %s",
			    je.column > 0 ? je.column : je.position + 1, je.text);
	}
	return v;
}

int
ev_jsonl_next(struct ev_jsonl *in, json_t **out, struct ev_err *err)
{
	const char *line;
	size_t len;
	int r;

	for (;;) {
		if ((r = ev_jsonl_next_line(in, &line, &len, err)) != 1)
			return r;
		if (ev_jsonl_blank(line, len))
			continue;
		*out = ev_json_parse_line(line, len, ev_jsonl_where(in), err);
		return *out ? 1 : -1;
	}
}

const char *
ev_jsonl_file(const struct ev_jsonl *in)
{
	return in->name;
}

size_t
ev_jsonl_lineno(const struct ev_jsonl *in)
{
	return in->lineno;
}

long long
ev_jsonl_line_offset(const struct ev_jsonl *in)
{
	return in->fp != NULL && in->regular ? in->line_at : -1;
}

size_t
ev_jsonl_seqno(const struct ev_jsonl *in)
{
	return in->seqno;
}

const char *
ev_jsonl_where(const struct ev_jsonl *in)
{
	struct ev_jsonl *w = (struct ev_jsonl *)in;	/* the message buffer only */

	snprintf(w->where, sizeof w->where, "%s:%zu", in->name, in->lineno);
	return in->where;
}

void
ev_jsonl_close(struct ev_jsonl *in)
{
	if (in == NULL)
		return;
	close_current(in);
	free(in->line);
	free(in);
}

void
ev_out_init(void)
{
	struct stat sb;

	flush_each_record = fstat(STDOUT_FILENO, &sb) == 0 &&
	    (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode) || S_ISCHR(sb.st_mode));
}

/* Reals are written with 10 significant digits: exact enough for every score
 * and for float32 vectors, and far shorter than %.17g. */
#define EV_JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(10))

/* A record's bytes gathered before they are written: Jansson gives a
 * record in pieces (a key, a colon, a string...), a hundred and more of
 * them, each its own fwrite() (its lock, its checks) when dumped to the
 * file itself. */
struct gathered {
	FILE *out;
	size_t n;
	char b[4096];
};

/* Write what g holds.  Returns 0 or -1. */
static int
gathered_flush(struct gathered *g)
{
	size_t n = g->n;

	g->n = 0;
	return n == 0 || fwrite(g->b, 1, n, g->out) == n ? 0 : -1;
}

static int
dump_gathered(const char *s, size_t n, void *data)
{
	struct gathered *g = data;

	if (n > sizeof g->b - g->n) {
		if (gathered_flush(g) == -1)
			return -1;
		if (n > sizeof g->b)
			return fwrite(s, 1, n, g->out) == n ? 0 : -1;
	}
	memcpy(g->b + g->n, s, n);
	g->n += n;
	return 0;
}

int
ev_jsonl_write(FILE *out, const json_t *v, struct ev_err *err)
{
	struct gathered g;

	g.out = out;
	g.n = 0;
	if (json_dump_callback(v, dump_gathered, &g, EV_JSON_FLAGS) == -1 ||
	    dump_gathered("\n", 1, &g) == -1 || gathered_flush(&g) == -1 ||
	    ((out != stdout || flush_each_record) && fflush(out) == EOF) || ferror(out))
		return ev_err_set(err, EV_EXIT_RUNTIME, out == stdout ? "stdout" : NULL,
		    "write error: %s", strerror(errno ? errno : EIO));
	return 0;
}

static int
dump_to_buf(const char *s, size_t n, void *data)
{
	return ev_buf_add(data, s, n);
}

int
ev_json_dump(struct ev_buf *b, const json_t *v)
{
	return json_dump_callback(v, dump_to_buf, b, EV_JSON_FLAGS);
}

/* Look key up in obj for the typed getters: 1 with *v set when present and
 * not null, 0 when absent and not required, -1 when required and absent. */
static int
lookup(const json_t *obj, const char *key, int required, json_t **v, const char *where,
    struct ev_err *err)
{
	*v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
	if (*v != NULL && !json_is_null(*v))
		return 1;
	if (required)
		return ev_err_set(err, EV_EXIT_USAGE, where, "missing field '%s'", key);
	return 0;
}

static int
wrong_type(const char *key, const char *want, const char *where, struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_USAGE, where, "field '%s' must be %s", key, want);
}

int
ev_field_str(const json_t *obj, const char *key, int required, const char **out,
    const char *where, struct ev_err *err)
{
	json_t *v;
	int r = lookup(obj, key, required, &v, where, err);

	if (r != 1)
		return r;
	if (!json_is_string(v))
		return wrong_type(key, "a string", where, err);
	*out = json_string_value(v);
	return 1;
}

int
ev_field_num(const json_t *obj, const char *key, int required, double *out,
    const char *where, struct ev_err *err)
{
	json_t *v;
	int r = lookup(obj, key, required, &v, where, err);

	if (r != 1)
		return r;
	if (!json_is_number(v))
		return wrong_type(key, "a number", where, err);
	*out = json_number_value(v);
	return 1;
}

int
ev_field_int(const json_t *obj, const char *key, int required, long long *out,
    const char *where, struct ev_err *err)
{
	json_t *v;
	int r = lookup(obj, key, required, &v, where, err);

	if (r != 1)
		return r;
	if (ev_json_whole_value(v, out))
		return 1;
	return wrong_type(key, "an integer", where, err);
}

int
ev_json_whole(double d, long long *out)
{
	if (!(d > -9.2e18 && d < 9.2e18) || d != (double)(long long)d)
		return 0;
	*out = (long long)d;
	return 1;
}

int
ev_json_whole_value(const json_t *v, long long *out)
{
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return 1;
	}
	return json_is_real(v) && ev_json_whole(json_real_value(v), out);
}

int
ev_json_whole_member(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	long long n;

	return json_is_real(v) && ev_json_whole(json_real_value(v), &n) ?
	    json_object_set_new(o, key, json_integer(n)) : 0;
}

int
ev_field_obj(const json_t *obj, const char *key, int required, json_t **out,
    const char *where, struct ev_err *err)
{
	json_t *v;
	int r = lookup(obj, key, required, &v, where, err);

	if (r != 1)
		return r;
	if (!json_is_object(v))
		return wrong_type(key, "an object", where, err);
	*out = v;
	return 1;
}

int
ev_field_arr(const json_t *obj, const char *key, int required, json_t **out,
    const char *where, struct ev_err *err)
{
	json_t *v;
	int r = lookup(obj, key, required, &v, where, err);

	if (r != 1)
		return r;
	if (!json_is_array(v))
		return wrong_type(key, "an array", where, err);
	*out = v;
	return 1;
}

int
ev_json_id_buf(const json_t *id, struct ev_buf *b)
{
	int r;

	ev_buf_reset(b);
	if (json_is_string(id))
		r = ev_buf_adds(b, json_string_value(id));
	else if (json_is_integer(id))
		r = ev_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(id));
	else
		return -1;
	if (r == -1) {
		ev_buf_reset(b);
		return -2;
	}
	return 0;
}

json_t *
ev_query_record(json_t *v, size_t lineno, const char *where, struct ev_err *err)
{
	json_t *q, *id;
	const char *text;

	if (json_is_string(v)) {
		q = json_pack("{s:I,s:O}", "query_id", (json_int_t)lineno, "query", v);
		if (q == NULL)
			ev_err_nomem(err);
		return q;
	}
	if (!json_is_object(v)) {
		ev_err_set(err, EV_EXIT_USAGE, where, "a query must be an object or a string");
		return NULL;
	}
	if (ev_field_str(v, "query", 1, &text, where, err) == -1)
		return NULL;
	id = json_object_get(v, "query_id");
	if (id != NULL && !json_is_null(id) && !json_is_string(id) && !json_is_integer(id)) {
		ev_err_query_id(err, where);
		return NULL;
	}
	if (ev_query_id_default(v, lineno) == -1) {
		ev_err_nomem(err);
		return NULL;
	}
	return json_incref(v);
}

int
ev_query_id_default(json_t *rec, size_t lineno)
{
	const json_t *id = json_object_get(rec, "query_id");

	return id == NULL || json_is_null(id) ?
	    json_object_set_new(rec, "query_id", json_integer((json_int_t)lineno)) : 0;
}

int
ev_err_query_id(struct ev_err *err, const char *where)
{
	return ev_err_set(err, EV_EXIT_USAGE, where, "field 'query_id' must be a string or an integer");
}

int
ev_err_hit_twice(struct ev_err *err, const char *where, const char *id, const char *lane,
	const char *qid, const char *first)
{
	return ev_err_set(err, EV_EXIT_USAGE, where, "id '%s' appears twice in %s%s%squery '%s'"
	    " (first at %s): a lane lists a chunk at most once per query", id,
	    lane ? "lane '" : "", lane ? lane : "", lane ? "' of " : "", qid, first);
}

