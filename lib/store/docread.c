/* docread.c: document records read and checked (see docread.h). */
#include "docread.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "chunk.h"
#include "jscan.h"
#include "jsonl.h"

static int
digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* YYYY, YYYY-MM, YYYY-MM-DD, then nothing or 'T'/' ' and anything. */
static int
date_ok(const char *s)
{
	if (!digits(s, 4))
		return 0;
	s += 4;
	if (*s == '\0')
		return 1;
	if (s[0] != '-' || !digits(s + 1, 2) || s[1] > '1' || (s[1] == '1' && s[2] > '2') ||
	    (s[1] == '0' && s[2] == '0'))
		return 0;
	s += 3;
	if (*s == '\0')
		return 1;
	if (s[0] != '-' || !digits(s + 1, 2) || s[1] > '3' || (s[1] == '3' && s[2] > '1') ||
	    (s[1] == '0' && s[2] == '0'))
		return 0;
	s += 3;
	return *s == '\0' || *s == 'T' || *s == ' ';
}

int
ev_ingest_check(const json_t *doc, const char *where, struct ev_err *err)
{
	static const char *const strs[] = {
		"title", "source_uri", "source_type", "language", "published_date", NULL
	};
	const char *id, *text, *s;
	json_t *m = NULL;	/* ev_field_obj() leaves it when absent */

	if (!json_is_object(doc))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "a document must be a JSON object with 'id' and 'text'");
	if (ev_field_str(doc, "id", 1, &id, where, err) == -1 ||
	    ev_field_str(doc, "text", 1, &text, where, err) == -1)
		return -1;
	if (*id == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'id' must not be empty");
	for (int i = 0; strs[i]; i++)
		if (ev_field_str(doc, strs[i], 0, &s, where, err) == -1)
			return -1;
	s = NULL;
	if (ev_field_str(doc, "published_date", 0, &s, where, err) == 1 && !date_ok(s))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'published_date' must be a date (YYYY-MM-DD): '%.40s'", s);
	if (ev_field_obj(doc, "metadata", 0, &m, where, err) == -1)
		return -1;
	if (ev_regions_present(m)) {
		struct ev_regions r = EV_REGIONS_INIT;
		int rc = ev_regions_read(m, json_string_length(json_object_get(doc, "text")), &r,
		    where, err);

		ev_regions_release(&r);
		return rc;
	}
	return 0;
}

/* The extension of path's last component ("" when it has none; a leading
 * dot does not start one). */
static const char *
extension(const char *path)
{
	const char *slash = strrchr(path, '/'), *b = slash ? slash + 1 : path;
	const char *dot = strrchr(b, '.');

	return dot && dot > b ? dot : "";
}

int
ev_ingest_kind(const char *path)
{
	static const char *const md[] = { ".md", ".markdown", NULL };
	static const char *const text[] = { ".txt", ".text", ".rst", "", NULL };
	static const char *const jsonl[] = { ".jsonl", ".ndjson", ".json", NULL };
	static const char *const extract[] = { ".pdf", ".html", ".htm", NULL };
	const char *x = extension(path), *slash = strrchr(path, '/');

	/* a README of no extension is Markdown, as the forges show it */
	if (strcasecmp(slash ? slash + 1 : path, "README") == 0)
		return EV_CHUNK_MARKDOWN;
	for (int i = 0; md[i]; i++)
		if (strcasecmp(x, md[i]) == 0)
			return EV_CHUNK_MARKDOWN;
	for (int i = 0; text[i]; i++)
		if (strcasecmp(x, text[i]) == 0)
			return EV_CHUNK_TEXT;
	for (int i = 0; jsonl[i]; i++)
		if (strcasecmp(x, jsonl[i]) == 0)
			return EV_INGEST_KIND_JSONL;
	for (int i = 0; extract[i]; i++)
		if (strcasecmp(x, extract[i]) == 0)
			return EV_INGEST_KIND_EXTRACT;
	return EV_INGEST_KIND_OTHER;
}

/* A fast reader for the JSON of document records: objects, arrays, strings,
 * true, false and null, as Jansson would read them.  Anything else (numbers,
 * errors of any kind, deep nesting) makes it give up, and the line is read
 * again by ev_json_parse_line(), so that the values and the messages are
 * Jansson's. */
struct fast {
	const char *p, *end;
	struct ev_buf s;	/* a string being decoded */
};

static void
fast_ws(struct fast *f)
{
	while (f->p < f->end && (*f->p == ' ' || *f->p == '\t' || *f->p == '\n' || *f->p == '\r'))
		f->p++;
}

static int
fast_hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A string after its opening quote, decoded into f->s (NUL-terminated).
 * Returns 0, or -1 to give up. */
static int
fast_str(struct fast *f)
{
	const char *p = f->p, *end = f->end, *run = p;

	ev_buf_reset(&f->s);
	for (;;) {
		unsigned char c;
		uint64_t x;

		/* eight bytes at a time while all are plain ASCII */
		while (end - p >= 8 && (memcpy(&x, p, 8), !ev_jscan_stops8(x, 1)))
			p += 8;
		while (p < end && (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80 &&
		    *p != '"' && *p != '\\')
			p++;
		if (p >= end)
			return -1;
		c = (unsigned char)*p;
		if (c == '"') {
			if (ev_buf_add(&f->s, run, (size_t)(p - run)) == -1)
				return -1;
			f->p = p + 1;
			return 0;
		}
		if (c < 0x20)
			return -1;
		if (c >= 0x80) {
			size_t k = ev_utf8_len((const unsigned char *)p, (size_t)(end - p));

			if (k == 0)
				return -1;
			p += k;
			continue;
		}
		/* A backslash. */
		{
			unsigned u, lo;
			char utf[4];
			size_t n;

			if (ev_buf_add(&f->s, run, (size_t)(p - run)) == -1 || end - p < 2)
				return -1;
			switch (p[1]) {
			case '"': case '\\': case '/':
				utf[0] = p[1];
				break;
			case 'b': utf[0] = '\b'; break;
			case 'f': utf[0] = '\f'; break;
			case 'n': utf[0] = '\n'; break;
			case 'r': utf[0] = '\r'; break;
			case 't': utf[0] = '\t'; break;
			case 'u':
				if (end - p < 6 || fast_hex4(p + 2, &u) == -1 || u == 0 ||
				    (u >= 0xDC00 && u <= 0xDFFF))
					return -1;
				if (u >= 0xD800 && u <= 0xDBFF) {
					if (end - p < 12 || p[6] != '\\' || p[7] != 'u' ||
					    fast_hex4(p + 8, &lo) == -1 || lo < 0xDC00 || lo > 0xDFFF)
						return -1;
					u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
					p += 6;
				}
				if (u < 0x80)
					utf[0] = (char)u, n = 1;
				else if (u < 0x800)
					utf[0] = (char)(0xC0 | u >> 6), utf[1] = (char)(0x80 | (u & 0x3F)),
					n = 2;
				else if (u < 0x10000)
					utf[0] = (char)(0xE0 | u >> 12),
					utf[1] = (char)(0x80 | ((u >> 6) & 0x3F)),
					utf[2] = (char)(0x80 | (u & 0x3F)), n = 3;
				else
					utf[0] = (char)(0xF0 | u >> 18),
					utf[1] = (char)(0x80 | ((u >> 12) & 0x3F)),
					utf[2] = (char)(0x80 | ((u >> 6) & 0x3F)),
					utf[3] = (char)(0x80 | (u & 0x3F)), n = 4;
				if (ev_buf_add(&f->s, utf, n) == -1)
					return -1;
				p += 6;
				run = p;
				continue;
			default:
				return -1;
			}
			if (ev_buf_addc(&f->s, utf[0]) == -1)
				return -1;
			p += 2;
			run = p;
		}
	}
}

/* A value at f->p, or NULL to give up. */
static json_t *
fast_value(struct fast *f, int depth)
{
	json_t *v = NULL, *x;
	size_t left;

	fast_ws(f);
	if (f->p >= f->end || depth > 32)
		return NULL;
	left = (size_t)(f->end - f->p);
	switch (*f->p) {
	case '"':
		f->p++;
		if (fast_str(f) == -1)
			return NULL;
		return json_stringn_nocheck(ev_buf_str(&f->s), f->s.len);
	case 'n':
		if (left < 4 || memcmp(f->p, "null", 4) != 0)
			return NULL;
		f->p += 4;
		return json_null();
	case 't':
		if (left < 4 || memcmp(f->p, "true", 4) != 0)
			return NULL;
		f->p += 4;
		return json_true();
	case 'f':
		if (left < 5 || memcmp(f->p, "false", 5) != 0)
			return NULL;
		f->p += 5;
		return json_false();
	case '[':
		f->p++;
		if ((v = json_array()) == NULL)
			return NULL;
		fast_ws(f);
		if (f->p < f->end && *f->p == ']') {
			f->p++;
			return v;
		}
		for (;;) {
			if ((x = fast_value(f, depth + 1)) == NULL || json_array_append_new(v, x) == -1)
				goto fail;
			fast_ws(f);
			if (f->p >= f->end)
				goto fail;
			if (*f->p++ == ']')
				return v;
			if (f->p[-1] != ',')
				goto fail;
		}
	case '{':
		f->p++;
		if ((v = json_object()) == NULL)
			return NULL;
		fast_ws(f);
		if (f->p < f->end && *f->p == '}') {
			f->p++;
			return v;
		}
		for (;;) {
			char small[128], *key;

			fast_ws(f);
			if (f->p >= f->end || *f->p != '"')
				goto fail;
			f->p++;
			if (fast_str(f) == -1 || memchr(f->s.p, '\0', f->s.len) != NULL ||
			    json_object_get(v, ev_buf_str(&f->s)) != NULL)
				goto fail;
			if (f->s.len < sizeof small)
				key = memcpy(small, ev_buf_str(&f->s), f->s.len + 1);
			else if ((key = strdup(ev_buf_str(&f->s))) == NULL)
				goto fail;
			fast_ws(f);
			if (f->p >= f->end || *f->p != ':') {
				if (key != small)
					free(key);
				goto fail;
			}
			f->p++;
			x = fast_value(f, depth + 1);
			if (x == NULL || json_object_set_new_nocheck(v, key, x) == -1) {
				if (key != small)
					free(key);
				goto fail;
			}
			if (key != small)
				free(key);
			fast_ws(f);
			if (f->p >= f->end)
				goto fail;
			if (*f->p++ == '}')
				return v;
			if (f->p[-1] != ',')
				goto fail;
		}
	default:
		return NULL;
	}
fail:
	json_decref(v);
	return NULL;
}

json_t *
ev_ingest_parse(const char *line, size_t len, const char *where, struct ev_err *err)
{
	struct fast f = { line, line + len, EV_BUF_INIT };
	json_t *v = NULL;

	fast_ws(&f);
	if (f.p < f.end && *f.p == '{' && (v = fast_value(&f, 0)) != NULL) {
		fast_ws(&f);
		if (f.p != f.end) {
			json_decref(v);
			v = NULL;
		}
	}
	ev_buf_release(&f.s);
	return v ? v : ev_json_parse_line(line, len, where, err);
}

struct paged {
	struct ev_regions *regs;
	int line;		/* reading lines (1) or pages (0) */
	size_t i, text_len;
	const char *where;
	struct ev_err *err;
};

/* One entry of metadata.pages or .lines, parsed alone. */
static int
paged_entry(const char *elem, size_t elen, void *data)
{
	struct paged *pg = data;
	json_t *e = ev_ingest_parse(elem, elen, pg->where, pg->err);
	int rc;

	if (e == NULL)
		return 1;
	rc = ev_regions_add(pg->regs, pg->line, e, pg->i++, pg->text_len, pg->where, pg->err);
	json_decref(e);
	return rc == -1;
}

json_t *
ev_ingest_parse_paged(const char *line, size_t len, const char *where, struct ev_regions *regs,
	struct ev_err *err)
{
	struct ev_jscan js = { 0 };
	struct ev_jmems mm = { 0 };
	struct ev_buf shell = EV_BUF_INIT;
	const struct ev_jmem *md = NULL, *arr[2] = { NULL, NULL };
	struct paged pg = { regs, 0, 0, 0, where, err };
	json_t *doc = NULL, *meta, *text;
	const char *from = line;

	ev_regions_release(regs);
	if (memmem(line, len, "\"lines\"", 7) == NULL && memmem(line, len, "\"pages\"", 7) == NULL)
		return ev_ingest_parse(line, len, where, err);
	if (ev_jscan_value(&js, line, len, where, err) != EV_JOBJ) {
		/* not a record: its message as for any other line */
		ev_jscan_release(&js);
		ev_err_clear(err);
		return ev_ingest_parse(line, len, where, err);
	}
	for (size_t i = 0; i < js.top.n; i++)
		if (js.top.m[i].type == EV_JOBJ && ev_jscan_str_eq(js.top.m[i].key, js.top.m[i].klen,
		    "metadata"))
			md = &js.top.m[i];
	if (md != NULL && ev_jscan_members(md->val, md->vlen, &mm) == -1)
		goto nomem;
	for (size_t i = 0; i < mm.n; i++) {
		int k = ev_jscan_str_eq(mm.m[i].key, mm.m[i].klen, "pages") ? 0 :
		    ev_jscan_str_eq(mm.m[i].key, mm.m[i].klen, "lines") ? 1 : -1;

		if (k >= 0 && mm.m[i].type == EV_JARR)
			arr[k] = &mm.m[i];
	}
	if (arr[0] == NULL && arr[1] == NULL) {
		doc = ev_ingest_parse(line, len, where, err);
		goto out;
	}
	/* the record with null (absent) for the two arrays, taken in the
	 * order they come in the line */
	if (arr[0] != NULL && arr[1] != NULL && arr[1]->val < arr[0]->val) {
		const struct ev_jmem *t = arr[0];

		arr[0] = arr[1];
		arr[1] = t;
	}
	for (int k = 0; k < 2; k++) {
		if (arr[k] == NULL)
			continue;
		if (ev_buf_add(&shell, from, (size_t)(arr[k]->val - from)) == -1 ||
		    ev_buf_adds(&shell, "null") == -1)
			goto nomem;
		from = arr[k]->val + arr[k]->vlen;
	}
	if (ev_buf_add(&shell, from, (size_t)(line + len - from)) == -1)
		goto nomem;
	if ((doc = ev_ingest_parse(shell.p, shell.len, where, err)) == NULL)
		goto out;
	ev_buf_release(&shell);
	meta = json_object_get(doc, "metadata");
	json_object_del(meta, "pages");
	json_object_del(meta, "lines");
	/* a record without its text is refused by ev_ingest_check() */
	if (!json_is_string(text = json_object_get(doc, "text")))
		goto out;
	pg.text_len = json_string_length(text);
	for (int k = 0; k < 2; k++) {
		if (arr[k] == NULL)
			continue;
		pg.line = ev_jscan_str_eq(arr[k]->key, arr[k]->klen, "lines");
		pg.i = 0;
		if (ev_jscan_elements(arr[k]->val, arr[k]->vlen, paged_entry, &pg) != 0) {
			json_decref(doc);
			doc = NULL;
			ev_regions_release(regs);
			goto out;
		}
	}
	goto out;
nomem:
	ev_err_nomem(err);
	json_decref(doc);
	doc = NULL;
out:
	ev_buf_release(&shell);
	free(mm.m);
	ev_jscan_release(&js);
	return doc;
}

json_t *
ev_ingest_read_file(const char *path, const char *id, int format, struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT;
	char chunk[65536], where[300];
	const char *text;
	size_t n, bad, len;
	FILE *fp;
	json_t *doc;
	int md = format == EV_INGEST_AUTO ? ev_ingest_kind(path) == EV_CHUNK_MARKDOWN : format == EV_CHUNK_MARKDOWN;

	if ((fp = fopen(path, "rb")) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot open: %s", strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		if (ev_buf_add(&b, chunk, n) == -1) {
			fclose(fp);
			ev_buf_release(&b);
			ev_err_nomem(err);
			return NULL;
		}
	if (ferror(fp)) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "read error: %s", strerror(errno ? errno : EIO));
		fclose(fp);
		ev_buf_release(&b);
		return NULL;
	}
	fclose(fp);
	text = ev_buf_str(&b);
	len = b.len;
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		text += 3;
		len -= 3;
	}
	if ((bad = ev_utf8_bad(text, len)) < len) {
		size_t line = 1, col = 1;

		for (size_t i = 0; i < bad; i++, col++)
			if (text[i] == '\n')
				line++, col = 0;
		snprintf(where, sizeof where, "%s:%zu", path, line);
		ev_err_set(err, EV_EXIT_USAGE, where, text[bad] == '\0' ?
		    "NUL byte at column %zu" : "invalid UTF-8 at column %zu", col);
		ev_buf_release(&b);
		return NULL;
	}
	if (id == NULL)
		id = path;
	doc = json_pack("{s:s,s:s%,s:s,s:s}", "id", id, "text", text, len, "source_uri", id,
	    "source_type", md ? "markdown" : "text");
	ev_buf_release(&b);
	if (doc == NULL)
		ev_err_set(err, EV_EXIT_USAGE, path, "file name is not valid UTF-8");
	return doc;
}
