/* docread.c: document records read and checked (see docread.h). */
#include "docread.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze.h"
#include "buf.h"
#include "chunk.h"
#include "clock.h"
#include "jscan.h"
#include "jsonl.h"

int
ev_docread_check(const json_t *doc, const char *where, struct ev_err *err)
{
	static const char *const strs[] = {
		"title", "source_uri", "source_type", "language", "published_date", NULL
	};
	const char *id, *text, *s;
	char code[EV_ANALYZE_CODE_MAX];
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
	if (ev_field_str(doc, "language", 0, &s, where, err) == 1 &&
	    ev_analyze_norm(s, strlen(s), code) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'language' must be a language"
		    " code such as \"en\", \"fr\" or \"zh\": '%.40s'", s);
	s = NULL;
	if (ev_field_str(doc, "published_date", 0, &s, where, err) == 1 && !ev_clock_date_ok(s))
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
ev_docread_kind(const char *path)
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
			return EV_DOCREAD_KIND_JSONL;
	for (int i = 0; extract[i]; i++)
		if (strcasecmp(x, extract[i]) == 0)
			return EV_DOCREAD_KIND_EXTRACT;
	return EV_DOCREAD_KIND_OTHER;
}

/* The tree of JSON values of document records, built from the text that
 * ev_jscan_value() validated (jscan.h): the scan accepts exactly what
 * Jansson accepts, so the values are Jansson's own; a line it refuses is read
 * again by ev_json_parse_line(), so that the messages are Jansson's too. */

static json_t *tree_value(struct ev_buf *s, const char *v, size_t n, int type);

struct tree_array {
	json_t *a;
	struct ev_buf *s;
};

static int
tree_element(const char *elem, size_t elen, void *data)
{
	struct tree_array *ta = data;

	return json_array_append_new(ta->a, tree_value(ta->s, elem, elen,
	    ev_jscan_type(elem, elen))) == -1;
}

/* The members mm of a validated object as a Jansson object, keys and
 * strings decoded through s; NULL when out of memory. */
static json_t *
tree_members(struct ev_buf *s, const struct ev_jmems *mm)
{
	json_t *o = json_object(), *x;
	char small[128], *key;

	for (size_t i = 0; o != NULL && i < mm->n; i++) {
		const struct ev_jmem *m = &mm->m[i];

		ev_buf_reset(s);
		/* the key copied out of s, which the value's strings reuse */
		if ((m->kesc ? ev_jscan_decode(s, m->key, m->klen) : ev_buf_add(s, m->key, m->klen)) ==
		    -1 || (key = s->len < sizeof small ? memcpy(small, ev_buf_str(s), s->len + 1) :
		    strdup(ev_buf_str(s))) == NULL) {
			json_decref(o);
			return NULL;
		}
		x = tree_value(s, m->val, m->vlen, m->type);
		if (json_object_set_new_nocheck(o, key, x) == -1) {
			json_decref(o);
			o = NULL;
		}
		if (key != small)
			free(key);
	}
	return o;
}

/* The validated object text v[0..n) as a Jansson object. */
static json_t *
tree_object(struct ev_buf *s, const char *v, size_t n)
{
	struct ev_jmems mm = { 0 };
	json_t *o = ev_jscan_members(v, n, &mm) == -1 ? NULL : tree_members(s, &mm);

	free(mm.m);
	return o;
}

/* The validated value text v[0..n) of type `type` as a Jansson value
 * (strings decoded through s), or NULL when out of memory. */
static json_t *
tree_value(struct ev_buf *s, const char *v, size_t n, int type)
{
	struct tree_array ta = { NULL, s };
	double d;

	switch (type) {
	case EV_JNULL: return json_null();
	case EV_JTRUE: return json_true();
	case EV_JFALSE: return json_false();
	case EV_JINT: return json_integer(ev_jscan_integer(v, n));
	case EV_JREAL: return ev_jscan_number(v, n, &d) == -1 ? NULL : json_real(d);
	case EV_JSTR:
		ev_buf_reset(s);
		if (ev_jscan_decode(s, v + 1, n - 2) == -1)
			return NULL;
		return json_stringn_nocheck(ev_buf_str(s), s->len);
	case EV_JOBJ:
		return tree_object(s, v, n);
	default:
		if ((ta.a = json_array()) != NULL &&
		    ev_jscan_elements(v, n, tree_element, &ta) != 0) {
			json_decref(ta.a);
			ta.a = NULL;
		}
		return ta.a;
	}
}

json_t *
ev_docread_parse(const char *line, size_t len, const char *where, struct ev_err *err)
{
	struct ev_jscan js = { 0 };
	struct ev_buf s = EV_BUF_INIT;
	json_t *v = NULL;

	if (ev_jscan_value(&js, line, len, where, err) == EV_JOBJ)
		v = tree_members(&s, &js.top);
	ev_jscan_release(&js);
	ev_buf_release(&s);
	if (v != NULL)
		return v;
	ev_err_clear(err);
	return ev_json_parse_line(line, len, where, err);
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
	json_t *e = ev_docread_parse(elem, elen, pg->where, pg->err);
	int rc;

	if (e == NULL)
		return 1;
	rc = ev_regions_add(pg->regs, pg->line, e, pg->i++, pg->text_len, pg->where, pg->err);
	json_decref(e);
	return rc == -1;
}

json_t *
ev_docread_parse_paged(const char *line, size_t len, const char *where, struct ev_regions *regs,
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
		return ev_docread_parse(line, len, where, err);
	if (ev_jscan_value(&js, line, len, where, err) != EV_JOBJ) {
		/* not a record: its message as for any other line */
		ev_jscan_release(&js);
		ev_err_clear(err);
		return ev_docread_parse(line, len, where, err);
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
		doc = ev_docread_parse(line, len, where, err);
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
	if ((doc = ev_docread_parse(shell.p, shell.len, where, err)) == NULL)
		goto out;
	ev_buf_release(&shell);
	/* the arrays taken out (null now) leave the metadata; a "pages" or
	 * "lines" of another type stays, for ev_docread_check() to refuse */
	meta = json_object_get(doc, "metadata");
	if (json_is_null(json_object_get(meta, "pages")))
		json_object_del(meta, "pages");
	if (json_is_null(json_object_get(meta, "lines")))
		json_object_del(meta, "lines");
	/* a record without its text is refused by ev_docread_check() */
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
ev_docread_read_file(const char *path, const char *id, int format, struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT;
	char chunk[65536], where[EV_WHERE_MAX];
	const char *text;
	size_t n, bad, len;
	FILE *fp;
	json_t *doc;
	int md = format == EV_INGEST_AUTO ? ev_docread_kind(path) == EV_CHUNK_MARKDOWN : format == EV_CHUNK_MARKDOWN;

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
		ev_err_set(err, EV_EXIT_USAGE, path, "%s", EV_DOCREAD_NAME_NOT_UTF8);
	return doc;
}
