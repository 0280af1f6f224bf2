/* extract.c: files, ids and the document record of the extractors.  See
 * extract.h. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract.h"
#include "buf.h"
#include "jscan.h"
#include "jsonl.h"

int
ev_extract_kind(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

	if (dot == NULL || (slash && dot < slash))
		return EV_EXTRACT_NONE;
	if (strcasecmp(dot, ".pdf") == 0)
		return EV_EXTRACT_PDF;
	if (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0)
		return EV_EXTRACT_HTML;
	return EV_EXTRACT_NONE;
}

struct list {
	char **v;
	size_t n, cap;
};


static int
hidden(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

static int
bytewise(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
walk(const char *dir, struct list *out, int depth, struct ev_err *err)
{
	struct dirent **names = NULL;
	int n, rc = 0;

	if (depth > 64)
		return ev_err_set(err, EV_EXIT_USAGE, dir, "directories nested too deeply");
	if ((n = scandir(dir, &names, hidden, bytewise)) == -1)
		return errno == ENOMEM ? ev_err_nomem(err) :
		    ev_err_set(err, EV_EXIT_USAGE, dir, "cannot read directory: %s", strerror(errno));
	for (int i = 0; i < n; i++) {
		size_t dl = strlen(dir);
		char *p = rc == 0 ? malloc(dl + strlen(names[i]->d_name) + 2) : NULL;
		struct stat sb, lsb;

		if (rc == 0 && p == NULL)
			rc = ev_err_nomem(err);
		if (p != NULL) {
			sprintf(p, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", names[i]->d_name);
			if (stat(p, &sb) == -1 || lstat(p, &lsb) == -1) {
				free(p);	/* a dangling link */
			} else if (S_ISDIR(sb.st_mode)) {
				if (!S_ISLNK(lsb.st_mode) && walk(p, out, depth + 1, err) == -1)
					rc = -1;
				free(p);
			} else if (S_ISREG(sb.st_mode) && ev_extract_kind(p) != EV_EXTRACT_NONE) {
				if (ev_ptr_take(&out->v, &out->n, &out->cap, p, 32) == -1)
					rc = ev_err_nomem(err);
			} else {
				free(p);
			}
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int
ev_extract_walk(const char *dir, char ***paths, size_t *n, struct ev_err *err)
{
	struct list l = { NULL, 0, 0 };

	if (walk(dir, &l, 0, err) == -1) {
		ev_extract_paths_free(l.v, l.n);
		return -1;
	}
	*paths = l.v;
	*n = l.n;
	return 0;
}

void
ev_extract_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

void
ev_extract_id(const char *path, char *out, size_t size)
{
	size_t o = 0;
	const char *p = path;

	if (size == 0)
		return;
	if (*p == '/' && o + 1 < size)
		out[o++] = '/';
	while (*p) {
		const char *e;

		while (*p == '/')
			p++;
		for (e = p; *e && *e != '/'; e++)
			;
		if (e - p == 1 && *p == '.') {
			p = e;
			continue;
		}
		if (e > p) {
			if (o > 0 && out[o - 1] != '/' && o + 1 < size)
				out[o++] = '/';
			for (; p < e && o + 1 < size; p++)
				out[o++] = *p;
		}
		p = e;
	}
	if (o == 0 && size > 1)
		out[o++] = '.';
	out[o] = '\0';
}

/* A temporary file, made once, emptied for each record. */
static int
spool(FILE **fp, struct ev_err *err)
{
	if (*fp == NULL && (*fp = tmpfile()) == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, "temporary file", "cannot create: %s",
		    strerror(errno));
	rewind(*fp);
	if (ftruncate(fileno(*fp), 0) == -1)
		return ev_err_set(err, EV_EXIT_RUNTIME, "temporary file", "cannot empty: %s",
		    strerror(errno));
	return 0;
}

int
ev_xrec_begin(struct ev_xrec *r, struct ev_err *err)
{
	if (spool(&r->text, err) == -1 || spool(&r->lines, err) == -1 ||
	    spool(&r->pages, err) == -1)
		return -1;
	r->len = 0;
	r->nlines = r->npages = 0;
	r->nl = 2;		/* the start of the text is a block's start */
	r->pending = 0;
	r->sticky = 0;
	return 0;
}

/* Append s[0..n) escaped for a JSON string to fp. */
static void
put_escaped(struct ev_xrec *r, FILE *fp, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[7] = "\\u00";

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		if (i > run && fwrite(s + run, 1, i - run, fp) != i - run)
			r->sticky = 1;
		run = i + 1;
		if (c == '"' || c == '\\') {
			e[1] = (char)c;
			e[2] = '\0';
		} else if (c == '\n' || c == '\t' || c == '\r') {
			e[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
			e[2] = '\0';
		} else {
			e[4] = hex[c >> 4];
			e[5] = hex[c & 15];
			e[6] = '\0';
		}
		if (fputs(e, fp) == EOF)
			r->sticky = 1;
	}
	if (n > run && fwrite(s + run, 1, n - run, fp) != n - run)
		r->sticky = 1;
}

void
ev_xrec_text(struct ev_xrec *r, const char *s, size_t n)
{
	static const char repl[] = "\xEF\xBF\xBD";

	if (n == 0)
		return;
	if (r->len > 0 && r->pending > 0) {
		put_escaped(r, r->text, "\n\n", (size_t)r->pending);
		r->len += (size_t)r->pending;
	}
	r->pending = 0;
	while (n > 0) {
		size_t ok = ev_utf8_bad(s, n);

		put_escaped(r, r->text, s, ok);
		r->len += ok;
		if (ok == n) {
			r->nl = 0;
			for (size_t i = n; i > 0 && s[i - 1] == '\n' && r->nl < 2; i--)
				r->nl++;
			return;
		}
		/* a NUL byte or a bad sequence: one U+FFFD for the bytes up to the
		 * next that may start a character */
		put_escaped(r, r->text, repl, 3);
		r->len += 3;
		ok++;
		while (ok < n && ((unsigned char)s[ok] & 0xC0) == 0x80)
			ok++;
		s += ok;
		n -= ok;
	}
	r->nl = 0;
}

void
ev_xrec_break(struct ev_xrec *r, int blank)
{
	int want = blank ? 2 : 1;

	if (r->nl + r->pending < want)
		r->pending = want - r->nl;
}

size_t
ev_xrec_pos(const struct ev_xrec *r)
{
	return r->len > 0 ? r->len + (size_t)r->pending : 0;
}

int
ev_extract_num(struct ev_buf *b, double v)
{
	char s[64];
	int n = snprintf(s, sizeof s, "%.2f", v);

	while (n > 0 && s[n - 1] == '0')
		n--;
	if (n > 0 && s[n - 1] == '.')
		n--;
	s[n] = '\0';
	if (strcmp(s, "-0") == 0)
		strcpy(s, "0");
	return ev_buf_adds(b, s);
}

static void
put_entry(struct ev_xrec *r, FILE *fp, long count)
{
	if ((count > 0 && fputc(',', fp) == EOF) ||
	    fwrite(r->tmp.p, 1, r->tmp.len, fp) != r->tmp.len)
		r->sticky = 1;
}

void
ev_xrec_line(struct ev_xrec *r, long page, size_t start, size_t end, const double bbox[4])
{
	ev_buf_reset(&r->tmp);
	if (ev_buf_printf(&r->tmp, "{\"page\":%ld,\"offset_start\":%zu,\"offset_end\":%zu,\"bbox\":[",
	    page, start, end) == -1) {
		r->sticky = 1;
		return;
	}
	for (int i = 0; i < 4; i++) {
		if (i > 0)
			ev_buf_addc(&r->tmp, ',');
		ev_extract_num(&r->tmp, bbox[i]);
	}
	if (ev_buf_adds(&r->tmp, "]}") == -1)
		r->sticky = 1;
	else
		put_entry(r, r->lines, r->nlines++);
}

void
ev_xrec_page(struct ev_xrec *r, long page, size_t start, size_t end, double width,
	double height)
{
	ev_buf_reset(&r->tmp);
	ev_buf_printf(&r->tmp, "{\"page\":%ld,\"offset_start\":%zu,\"offset_end\":%zu,\"width\":",
	    page, start, end);
	ev_extract_num(&r->tmp, width);
	ev_buf_adds(&r->tmp, ",\"height\":");
	ev_extract_num(&r->tmp, height);
	if (ev_buf_addc(&r->tmp, '}') == -1)
		r->sticky = 1;
	else
		put_entry(r, r->pages, r->npages++);
}

/* Copy the temporary file fp to out. */
static int
copy(FILE *fp, FILE *out)
{
	char b[65536];
	size_t n;

	if (fflush(fp) == EOF)
		return -1;
	rewind(fp);
	while ((n = fread(b, 1, sizeof b, fp)) > 0)
		if (fwrite(b, 1, n, out) != n)
			return -1;
	return ferror(fp) ? -1 : 0;
}

/* The members of object v, without its braces, appended to b (with a comma
 * before when b does not end an opening brace). */
static int
members(struct ev_buf *b, const json_t *v)
{
	size_t at = b->len;

	if (v == NULL || json_object_size(v) == 0)
		return 0;
	if (b->len > 0 && b->p[b->len - 1] != '{' && ev_buf_addc(b, ',') == -1)
		return -1;
	at = b->len;
	if (ev_json_dump(b, v) == -1)
		return -1;
	/* drop the braces */
	memmove(b->p + at, b->p + at + 1, b->len - at - 2);
	b->len -= 2;
	b->p[b->len] = '\0';
	return 0;
}

int
ev_xrec_write(struct ev_xrec *r, FILE *out, const json_t *head, const json_t *tail,
	const json_t *meta, struct ev_err *err)
{
	struct ev_buf *b = &r->tmp;
	int bad = r->sticky;

	ev_buf_reset(b);
	if (ev_buf_addc(b, '{') == -1 || members(b, head) == -1 ||
	    ev_buf_adds(b, b->len > 1 ? ",\"text\":\"" : "\"text\":\"") == -1)
		return ev_err_nomem(err);
	bad |= fwrite(b->p, 1, b->len, out) != b->len || copy(r->text, out) == -1;
	ev_buf_reset(b);
	if (ev_buf_addc(b, '"') == -1 || members(b, tail) == -1 ||
	    ev_buf_adds(b, ",\"metadata\":{") == -1 || members(b, meta) == -1)
		return ev_err_nomem(err);
	if (r->npages > 0) {
		if (ev_buf_adds(b, json_object_size(meta) ? ",\"pages\":[" : "\"pages\":[") == -1)
			return ev_err_nomem(err);
		bad |= fwrite(b->p, 1, b->len, out) != b->len || copy(r->pages, out) == -1;
		ev_buf_reset(b);
		if (ev_buf_addc(b, ']') == -1)
			return ev_err_nomem(err);
	}
	if (r->nlines > 0) {
		if (ev_buf_adds(b, ",\"lines\":[") == -1)
			return ev_err_nomem(err);
		bad |= fwrite(b->p, 1, b->len, out) != b->len || copy(r->lines, out) == -1;
		ev_buf_reset(b);
		if (ev_buf_addc(b, ']') == -1)
			return ev_err_nomem(err);
	}
	if (ev_buf_adds(b, "}}\n") == -1)
		return ev_err_nomem(err);
	bad |= fwrite(b->p, 1, b->len, out) != b->len;
	if (bad)
		return ev_err_set(err, EV_EXIT_RUNTIME, r->sticky ? "temporary file" : "stdout",
		    "write error: %s", strerror(errno ? errno : EIO));
	return 0;
}

void
ev_xrec_release(struct ev_xrec *r)
{
	if (r == NULL)
		return;
	if (r->text)
		fclose(r->text);
	if (r->lines)
		fclose(r->lines);
	if (r->pages)
		fclose(r->pages);
	ev_buf_release(&r->tmp);
	*r = (struct ev_xrec)EV_XREC_INIT;
}

int
ev_extract_md_line(struct ev_buf *b, const char *s, size_t n)
{
	size_t i = 0, k;
	int lit = 0;

	while (i < n && i < 3 && s[i] == ' ')
		i++;
	if (i < n && s[i] == '#')
		lit = 1;
	else if (n - i >= 3 && (memcmp(s + i, "```", 3) == 0 || memcmp(s + i, "~~~", 3) == 0))
		lit = 1;
	else if (i < n && (s[i] == '=' || s[i] == '-')) {
		for (k = i; k < n && (s[k] == s[i] || s[k] == ' '); k++)
			;
		lit = k == n;
	}
	if (lit && (ev_buf_add(b, s, i) == -1 || ev_buf_addc(b, '\\') == -1 ||
	    ev_buf_add(b, s + i, n - i) == -1))
		return -1;
	return lit ? 0 : ev_buf_add(b, s, n);
}
