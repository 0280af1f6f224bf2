/* textstats.c: BM25's statistics, summed over stores.  See textstats.h. */
#include "textstats.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "jsonl.h"

#define HEADER "evkit-text-stats\t4"
#define HEADER_OLDER "evkit-text-stats\t"	/* and an earlier version: */
static const char *const older[] = {
	NULL,
	"without the chunk lengths' squares",			/* 1 */
	"whose query words do not say their languages",		/* 2 */
	"without the counts of the chunks that have titles",	/* 3 */
};

static const char *const kind_names[EV_STATS_NKIND] = { "term", "phrase", "language", "chunk-language" };

struct entry {
	char *key;
	long long n;
	long long line;		/* its line in the file read (0: not read from a file) */
};

struct entries {
	struct entry *e;
	size_t n, cap;
	int sorted;		/* e is in key order, each key once */
};

/* The totals, in the file's order. */
enum { ROWS, TOKENS, SQUARES, TITLED, SECTIONED, NTOTAL };
static const char *const total_names[NTOTAL] = { "rows", "tokens", "squares", "titled",
	"sectioned" };

struct ev_textstats {
	long long total[NTOTAL];
	struct entries k[EV_STATS_NKIND];
};

struct ev_textstats *
ev_textstats_new(struct ev_err *err)
{
	struct ev_textstats *s = calloc(1, sizeof *s);

	if (s == NULL)
		ev_err_nomem(err);
	for (int i = 0; s != NULL && i < EV_STATS_NKIND; i++)
		s->k[i].sorted = 1;
	return s;
}

void
ev_textstats_free(struct ev_textstats *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < EV_STATS_NKIND; i++) {
		for (size_t j = 0; j < s->k[i].n; j++)
			free(s->k[i].e[j].key);
		free(s->k[i].e);
	}
	free(s);
}

void
ev_textstats_add_totals(struct ev_textstats *s, long long rows, long long tokens,
    long long squares, long long titled, long long sectioned)
{
	s->total[ROWS] += rows;
	s->total[TOKENS] += tokens;
	s->total[SQUARES] += squares;
	s->total[TITLED] += titled;
	s->total[SECTIONED] += sectioned;
}

int
ev_textstats_add(struct ev_textstats *s, enum ev_stats_kind kind, const char *key, size_t len,
    long long n, struct ev_err *err)
{
	struct entries *es = &s->k[kind];
	char *copy;

	if (ev_grow(&es->e, &es->cap, es->n, sizeof *es->e, 256) == -1 ||
	    (copy = strndup(key, len)) == NULL)
		return ev_err_nomem(err);
	if (es->n > 0 && es->sorted && strcmp(es->e[es->n - 1].key, copy) >= 0)
		es->sorted = 0;
	es->e[es->n].key = copy;
	es->e[es->n].line = 0;
	es->e[es->n++].n = n;
	return 0;
}

static int
cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->key, ((const struct entry *)b)->key);
}

/* Put the entries of es in key order, the counts of a key summed into one. */
static void
seal(struct entries *es)
{
	size_t i, j;

	if (es->sorted)
		return;
	qsort(es->e, es->n, sizeof *es->e, cmp_entry);
	for (i = j = 0; i < es->n; i++) {
		if (j > 0 && strcmp(es->e[j - 1].key, es->e[i].key) == 0) {
			es->e[j - 1].n += es->e[i].n;
			free(es->e[i].key);
			continue;
		}
		es->e[j++] = es->e[i];
	}
	es->n = j;
	es->sorted = 1;
}

long long
ev_textstats_rows(const struct ev_textstats *s)
{
	return s->total[ROWS];
}

long long
ev_textstats_tokens(const struct ev_textstats *s)
{
	return s->total[TOKENS];
}

long long
ev_textstats_squares(const struct ev_textstats *s)
{
	return s->total[SQUARES];
}

long long
ev_textstats_titled(const struct ev_textstats *s)
{
	return s->total[TITLED];
}

long long
ev_textstats_sectioned(const struct ev_textstats *s)
{
	return s->total[SECTIONED];
}

long long
ev_textstats_get(struct ev_textstats *s, enum ev_stats_kind kind, const char *key)
{
	struct entries *es = &s->k[kind];
	struct entry want = { (char *)key, 0, 0 }, *e;

	seal(es);
	if (es->n == 0)
		return -1;
	e = bsearch(&want, es->e, es->n, sizeof *es->e, cmp_entry);
	return e != NULL ? e->n : -1;
}

size_t
ev_textstats_count(struct ev_textstats *s, enum ev_stats_kind kind)
{
	seal(&s->k[kind]);
	return s->k[kind].n;
}

const char *
ev_textstats_key(struct ev_textstats *s, enum ev_stats_kind kind, size_t i, long long *n)
{
	struct entries *es = &s->k[kind];

	seal(es);
	*n = es->e[i].n;
	return es->e[i].key;
}

/* A count: decimal digits, at most LLONG_MAX.  Returns 0 or -1. */
static int
parse_count(const char *s, long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

/* What reading one statistics file keeps: the line it is at, the lines of
 * its totals (0: not given yet), and the entries it began at. */
struct reading {
	const char *path;
	long long lineno;
	long long total_line[NTOTAL];
	size_t first[EV_STATS_NKIND];
};

/* Why a statistics file's key must not come twice. */
#define ONCE "a statistics file counts each once (to add two stores' statistics, give" \
	" each its own --stats)"

/* One line of a statistics file (no newline), into s. */
static int
read_line(struct ev_textstats *s, char *line, struct reading *rd, const char *where,
    struct ev_err *err)
{
	char *f[3], *p = line;
	int nf = 0, kind;
	long long n;

	for (;;) {
		if (nf == 3)
			return ev_err_set(err, EV_EXIT_USAGE, where, "more than 3 fields");
		f[nf++] = p;
		if ((p = strchr(p, '\t')) == NULL)
			break;
		*p++ = '\0';
	}
	for (int t = 0; nf == 2 && t < NTOTAL; t++) {
		if (strcmp(f[0], total_names[t]) != 0)
			continue;
		if (parse_count(f[1], &n) == -1)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "%s takes a count (0 or more): '%s'", f[0], f[1]);
		if (rd->total_line[t] > 0)
			return ev_err_set(err, EV_EXIT_USAGE, where, "'%s' again (first at line %lld):"
			    " " ONCE, f[0], rd->total_line[t]);
		if (n > LLONG_MAX - s->total[t])
			return ev_err_set(err, EV_EXIT_USAGE, where, "%s: the sum is too large", f[0]);
		s->total[t] += n;
		rd->total_line[t] = rd->lineno;
		return 0;
	}
	for (kind = 0; kind < EV_STATS_NKIND && strcmp(f[0], kind_names[kind]) != 0; kind++)
		;
	if (kind == EV_STATS_NKIND)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "unknown entry '%.40s' (rows, tokens, squares, titled, sectioned, term,"
		    " phrase, language or chunk-language)", f[0]);
	if (nf != 3 || f[1][0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "%s takes a key and a count", f[0]);
	if (parse_count(f[2], &n) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "%s '%.80s': bad count '%.40s'", f[0], f[1],
		    f[2]);
	if (ev_textstats_add(s, (enum ev_stats_kind)kind, f[1], strlen(f[1]), n, err) == -1)
		return -1;
	s->k[kind].e[s->k[kind].n - 1].line = rd->lineno;
	return 0;
}

static int
cmp_entry_line(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

/* Refuse a key that the file rd read gave twice, naming the second line
 * of the first key repeated.  The file's entries, e[rd->first[kind] ..],
 * come in key order each once when --stats-out wrote it: then nothing is
 * sorted.  Returns 0, or -1 with *err set (code 2). */
static int
once_each(struct ev_textstats *s, const struct reading *rd, struct ev_err *err)
{
	char where[EV_WHERE_MAX];

	for (int kind = 0; kind < EV_STATS_NKIND; kind++) {
		struct entries *es = &s->k[kind];
		struct entry *e = es->e + rd->first[kind], *again = NULL;
		size_t n = es->n - rd->first[kind], i;

		for (i = 1; i < n && strcmp(e[i - 1].key, e[i].key) < 0; i++)
			;
		if (i >= n)
			continue;
		qsort(e, n, sizeof *e, cmp_entry_line);
		es->sorted = 0;
		for (i = 1; i < n; i++)
			if (strcmp(e[i - 1].key, e[i].key) == 0 && (again == NULL || e[i].line < again->line))
				again = &e[i];
		if (again == NULL)
			continue;
		for (i = 0; strcmp(e[i].key, again->key) != 0; i++)
			;
		snprintf(where, sizeof where, "%s:%lld", rd->path, again->line);
		return ev_err_set(err, EV_EXIT_USAGE, where, "%s '%.80s' again (first at line %lld): "
		    ONCE, kind_names[kind], again->key, e[i].line);
	}
	return 0;
}

/* Whether s, with the file path just added, holds together: the file gave
 * every total; no term or phrase, and no more titled or sectioned chunks,
 * are in more rows than the rows counted, no term in more rows than the
 * tokens counted (all the lengths 0 would make every score 0, as if each
 * chunk were endless), and the lengths' squares are at
 * least what their sum over the rows makes (rows x squares >= tokens^2).  What --stats-out writes always does, each
 * file and so their sums: a sum that does not was made so by path.
 * Returns 0, or -1 with *err set (code 2, naming path). */
static int
holds_together(struct ev_textstats *s, const struct reading *rd, const char *path,
    struct ev_err *err)
{
	static const char *const why = "not a statistics file as ev-search-text --stats-out writes"
	    " it: make it again";

	for (int t = 0; t < NTOTAL; t++)
		if (rd->total_line[t] == 0)
			return ev_err_set(err, EV_EXIT_USAGE, path, "no '%s' line: %s", total_names[t], why);
	if ((unsigned __int128)s->total[ROWS] * (unsigned __int128)s->total[SQUARES] <
	    (unsigned __int128)s->total[TOKENS] * (unsigned __int128)s->total[TOKENS])
		return ev_err_set(err, EV_EXIT_USAGE, path, "squares %lld is too small for %lld tokens"
		    " over %lld rows (the chunk lengths' squares sum to at least tokens^2 / rows): %s",
		    s->total[SQUARES], s->total[TOKENS], s->total[ROWS], why);
	for (int t = TITLED; t <= SECTIONED; t++)
		if (s->total[t] > s->total[ROWS])
			return ev_err_set(err, EV_EXIT_USAGE, path, "%s %lld is more than the %lld rows"
			    " counted: %s", total_names[t], s->total[t], s->total[ROWS], why);
	for (int kind = EV_STATS_TERM; kind <= EV_STATS_PHRASE; kind++) {
		struct entries *es = &s->k[kind];

		seal(es);
		for (size_t i = 0; i < es->n; i++) {
			if (es->e[i].n > s->total[ROWS])
				return ev_err_set(err, EV_EXIT_USAGE, path, "%s '%.80s' is in %lld rows,"
				    " more than the %lld counted: %s", kind_names[kind], es->e[i].key,
				    es->e[i].n, s->total[ROWS], why);
			/* (a word in n rows is n tokens at least) */
			if (kind == EV_STATS_TERM && es->e[i].n > s->total[TOKENS])
				return ev_err_set(err, EV_EXIT_USAGE, path, "%s '%.80s' is in %lld rows,"
				    " more than the %lld tokens counted: %s", kind_names[kind],
				    es->e[i].key, es->e[i].n, s->total[TOKENS], why);
		}
	}
	return 0;
}

/* The version of an earlier statistics file whose first line is line, or
 * 0 when it is none. */
static int
older_version(const char *line)
{
	size_t n = strlen(HEADER_OLDER);

	if (strncmp(line, HEADER_OLDER, n) != 0)
		return 0;
	for (int v = 1; v < (int)(sizeof older / sizeof *older); v++)
		if (line[n] == '0' + v && line[n + 1] == '\0')
			return v;
	return 0;
}

int
ev_textstats_read(struct ev_textstats *s, const char *path, struct ev_err *err)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : ev_input_open(path, "r", "a statistics file", err);
	char *line = NULL, where[EV_WHERE_MAX];
	size_t cap = 0;
	ssize_t len;
	long long lineno = 0;
	struct reading rd = { path, 0, { 0 }, { 0 } };
	int r = 0, version;

	if (fp == NULL)
		return -1;
	for (int kind = 0; kind < EV_STATS_NKIND; kind++)
		rd.first[kind] = s->k[kind].n;
	while (r == 0 && (len = getline(&line, &cap, fp)) != -1) {
		rd.lineno = ++lineno;
		snprintf(where, sizeof where, "%s:%lld", path, lineno);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len != strlen(line))
			r = ev_err_set(err, EV_EXIT_USAGE, where, "a NUL byte");
		else if (lineno == 1 && (version = older_version(line)) > 0)
			r = ev_err_set(err, EV_EXIT_USAGE, where, "statistics made by an earlier"
			    " evkit, %s: make them again (ev-search-text --stats-out)", older[version]);
		else if (lineno == 1 && strcmp(line, HEADER) != 0)
			r = ev_err_set(err, EV_EXIT_USAGE, where, "not a statistics file (made by"
			    " ev-search-text --stats-out): its first line is not 'evkit-text-stats<TAB>4'");
		else if (lineno > 1)
			r = read_line(s, line, &rd, where, err);
	}
	if (r == 0 && ferror(fp))
		r = ev_err_set(err, EV_EXIT_RUNTIME, path, "read error: %s", strerror(errno));
	else if (r == 0 && lineno == 0)
		r = ev_err_set(err, EV_EXIT_USAGE, path, "empty: not a statistics file (made by"
		    " ev-search-text --stats-out)");
	else if (r == 0 && (r = once_each(s, &rd, err)) == 0)
		r = holds_together(s, &rd, path, err);
	free(line);
	if (fp != stdin)
		fclose(fp);
	return r;
}

int
ev_textstats_write(struct ev_textstats *s, FILE *f, const char *name, struct ev_err *err)
{
	fprintf(f, "%s\n", HEADER);
	for (int t = 0; t < NTOTAL; t++)
		fprintf(f, "%s\t%lld\n", total_names[t], s->total[t]);
	for (int kind = 0; kind < EV_STATS_NKIND; kind++) {
		struct entries *es = &s->k[kind];

		seal(es);
		for (size_t i = 0; i < es->n; i++)
			fprintf(f, "%s\t%s\t%lld\n", kind_names[kind], es->e[i].key, es->e[i].n);
	}
	if (fflush(f) == EOF || ferror(f))
		return ev_err_set(err, EV_EXIT_RUNTIME, name, "write error: %s", strerror(errno));
	return 0;
}

int
ev_textstats_read_all(struct ev_textstats *s, const char *const *paths, size_t n,
    struct ev_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (ev_textstats_read(s, paths[i], err) == -1)
			return -1;
	return 0;
}

/* mkstemp() makes a file only its owner reads: give it the mode a new file
 * gets (0666 less the umask).  Returns 0 or -1. */
static int
default_mode(const char *path)
{
	mode_t mask = umask(0);

	umask(mask);
	return chmod(path, 0666 & ~mask);
}

int
ev_textstats_save(struct ev_textstats *s, const char *path, struct ev_err *err)
{
	struct ev_buf tmp = EV_BUF_INIT;
	struct stat sb;
	FILE *f = NULL;
	int r, fd = -1;

	if (strcmp(path, "-") == 0)
		return ev_textstats_write(s, stdout, "stdout", err);
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return ev_err_set(err, EV_EXIT_USAGE, path, "is a directory: --stats-out names the"
		    " file to write the statistics to");
	if (ev_buf_printf(&tmp, "%s.XXXXXX", path) == -1)
		return ev_err_nomem(err);
	if ((fd = mkstemp(tmp.p)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		r = ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot create: %s", strerror(errno));
		if (fd != -1) {
			close(fd);
			unlink(tmp.p);
		}
		ev_buf_release(&tmp);
		return r;
	}
	r = ev_textstats_write(s, f, path, err);
	if (fclose(f) == EOF && r == 0)
		r = ev_err_set(err, EV_EXIT_RUNTIME, path, "write error: %s", strerror(errno));
	if (r == 0 && (default_mode(tmp.p) == -1 || rename(tmp.p, path) == -1))
		r = ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot write: %s", strerror(errno));
	if (r == -1)
		unlink(tmp.p);
	ev_buf_release(&tmp);
	return r;
}
