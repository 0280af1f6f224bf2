/* extract_html.c: an HTML page's main text as Markdown, through libxml2's
 * HTML parser.  See extract_html.h. */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <uchardet.h>

#include "extract_html.h"
#include "analyze.h"
#include "jscan.h"
#include "jsonl.h"
#include "utf8.h"

#define MAX_DEPTH 512		/* deeper elements are left out */
#define LIST_NUMBER_MAX 999999999LL	/* Markdown's largest list number */
#define PRESCAN 1024		/* the bytes searched for a <meta> charset, or binary bytes */

struct html {
	struct ev_xrec *r;
	struct ev_buf para;	/* inline text of the block being read */
	struct ev_buf line;
	char *h1;		/* the first <h1>'s text */
	const char *marker;	/* the list item marker of the next paragraph */
	char num[24];
	int lists;		/* list nesting */
	int quotes;		/* blockquote nesting */
	int oom;
};

static int
name_is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcasecmp((const char *)n->name, name) == 0;
}

static int
name_in(const xmlNode *n, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (name_is(n, names[i]))
			return 1;
	return 0;
}

static const char *const skipped[] = {
	"script", "style", "noscript", "template", "nav", "aside", "form", "button", "select",
	"textarea", "iframe", "svg", "canvas", "head", "object", "embed", "dialog", NULL
};

static const char *const blocks[] = {
	"p", "div", "section", "article", "main", "header", "footer", "ul", "ol", "dl", "dt", "dd",
	"figure", "figcaption", "address", "hr", "details", "summary", "center", "fieldset",
	"caption", "body", "html", "li", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
	"table", "tr", "td", "th", "legend", "hgroup", NULL
};

/* An attribute's value, or NULL (the caller xmlFree()s it). */
static char *
attr(const xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* Whether n is left out wherever it is: hidden, or given the ARIA role of
 * navigation, a search form or an aside. */
static int
is_hidden(const xmlNode *n)
{
	static const char *const roles[] = { "navigation", "search", "complementary", NULL };
	char *a = attr(n, "aria-hidden"), *r = attr(n, "role");
	int h = (a && strcasecmp(a, "true") == 0) || xmlHasProp(n, (const xmlChar *)"hidden");

	for (int i = 0; r && !h && roles[i]; i++)
		h = strcasecmp(r, roles[i]) == 0;
	xmlFree(a);
	xmlFree(r);
	return h;
}

/* Whether n is the page's own header or footer: <header>, <footer> or the
 * roles banner and contentinfo, outside <main> and <article>. */
static int
is_banner(const xmlNode *n)
{
	char *r = attr(n, "role");
	int b = name_is(n, "header") || name_is(n, "footer") ||
	    (r && (strcasecmp(r, "banner") == 0 || strcasecmp(r, "contentinfo") == 0));

	xmlFree(r);
	return b;
}

/* Append text to b with white space collapsed as a browser does. */
static void
add_collapsed(struct html *h, struct ev_buf *b, const char *s)
{
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			if (b->len > 0 && b->p[b->len - 1] != ' ' && b->p[b->len - 1] != '\n' &&
			    ev_buf_addc(b, ' ') == -1)
				h->oom = 1;
		} else if (ev_buf_addc(b, *s) == -1) {
			h->oom = 1;
		}
	}
}

/* The inline text of n and its descendants, collapsed, appended to b;
 * <br> is a new line when br is set, else a space; a block inside (the
 * paragraphs or list items of a table's cell) is set apart by spaces, as
 * its words are apart on the page. */
static void inline_text(struct html *h, const xmlNode *n, struct ev_buf *b, int br, int depth);

/* The inline text of the node c itself (a text, or an element and what it
 * holds), as inline_text() reads each of a node's children. */
static void
inline_node(struct html *h, const xmlNode *c, struct ev_buf *b, int br, int depth)
{
	if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE)
		add_collapsed(h, b, (const char *)c->content);
	else if (c->type != XML_ELEMENT_NODE || name_in(c, skipped) || is_hidden(c))
		return;
	else if (name_is(c, "br"))
		add_collapsed(h, b, br ? "\n" : " ");
	else if (name_in(c, blocks)) {
		add_collapsed(h, b, " ");
		inline_text(h, c, b, br, depth + 1);
		add_collapsed(h, b, " ");
	} else
		inline_text(h, c, b, br, depth + 1);
}

static void
inline_text(struct html *h, const xmlNode *n, struct ev_buf *b, int br, int depth)
{
	for (const xmlNode *c = n->children; c && depth < MAX_DEPTH; c = c->next)
		inline_node(h, c, b, br, depth);
	if (br && b->len > 0 && b->p[b->len - 1] == ' ')
		b->len--, b->p[b->len] = '\0';
}

/* Write the paragraph gathered so far: each of its lines, trimmed, behind the
 * block's prefixes. */
static void
flush(struct html *h)
{
	const char *p = ev_buf_str(&h->para);
	int first = 1;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n;

		if (e == NULL)
			e = p + strlen(p);
		while (p < e && *p == ' ')
			p++;
		for (n = (size_t)(e - p); n > 0 && p[n - 1] == ' '; n--)
			;
		if (n > 0) {
			ev_buf_reset(&h->line);
			for (int q = 0; q < h->quotes; q++)
				ev_buf_adds(&h->line, "> ");
			for (int l = 1; l < h->lists; l++)
				ev_buf_adds(&h->line, "   ");
			if (h->lists > 0)
				ev_buf_adds(&h->line, h->marker ? h->marker : "   ");
			h->marker = NULL;
			ev_xrec_break(h->r, h->lists == 0 && first);
			if (ev_extract_md_line(&h->line, p, n) == -1)
				h->oom = 1;
			ev_xrec_text(h->r, h->line.p, h->line.len);
			first = 0;
		}
		p = *e ? e + 1 : e;
	}
	ev_buf_reset(&h->para);
}

static void
heading(struct html *h, const xmlNode *n, int level)
{
	struct ev_buf t = EV_BUF_INIT;

	inline_text(h, n, &t, 0, 0);
	while (t.len > 0 && t.p[t.len - 1] == ' ')
		t.p[--t.len] = '\0';
	if (t.len > 0) {
		const char *s = t.p + (t.p[0] == ' ');

		ev_buf_reset(&h->line);
		for (int i = 0; i < level; i++)
			ev_buf_addc(&h->line, '#');
		ev_buf_addc(&h->line, ' ');
		if (ev_buf_adds(&h->line, s) == -1)
			h->oom = 1;
		ev_xrec_break(h->r, 1);
		ev_xrec_text(h->r, h->line.p, h->line.len);
		ev_xrec_break(h->r, 1);
		if (level == 1 && h->h1 == NULL && (h->h1 = strdup(s)) == NULL)
			h->oom = 1;
	}
	ev_buf_release(&t);
}

/* A fenced code block of pre's text, with a fence longer than any run of
 * backticks inside. */
static void
code(struct html *h, const xmlNode *n)
{
	char *text = (char *)xmlNodeGetContent(n), *cls = attr(n, "class"), *lang = NULL;
	size_t run = 0, longest = 0, len;
	const char *s;

	for (const xmlNode *c = n->children; cls == NULL && c; c = c->next)
		if (name_is(c, "code"))
			cls = attr(c, "class");
	if (cls && (lang = strstr(cls, "language-")) != NULL)
		lang += 9;
	else if (cls && (lang = strstr(cls, "lang-")) != NULL)
		lang += 5;
	for (s = text ? text : ""; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	s = text ? text : "";
	if (*s == '\n')
		s++;
	for (len = strlen(s); len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' '); len--)
		;
	ev_buf_reset(&h->line);
	for (size_t i = 0; i < (longest >= 3 ? longest + 1 : 3); i++)
		ev_buf_addc(&h->line, '`');
	for (; lang && *lang && !isspace((unsigned char)*lang) && *lang != '`'; lang++)
		ev_buf_addc(&h->line, *lang);
	ev_buf_addc(&h->line, '\n');
	ev_buf_add(&h->line, s, len);
	ev_buf_addc(&h->line, '\n');
	for (size_t i = 0; i < (longest >= 3 ? longest + 1 : 3); i++)
		if (ev_buf_addc(&h->line, '`') == -1)
			h->oom = 1;
	ev_xrec_break(h->r, 1);
	ev_xrec_text(h->r, h->line.p, h->line.len);
	ev_xrec_break(h->r, 1);
	xmlFree(text);
	xmlFree(cls);
}

/* The rows of a table (not of tables inside it), in order, into out; its
 * caption and any text outside its rows into the paragraph h gathers. */
static void
rows(struct html *h, const xmlNode *n, struct ev_buf *out, int *nrows, size_t *ncols,
	int depth)
{
	for (const xmlNode *c = n->children; c && depth < 4; c = c->next) {
		if (name_is(c, "tr")) {
			size_t cols = 0;

			ev_buf_adds(out, "|");
			for (const xmlNode *td = c->children; td; td = td->next) {
				struct ev_buf t = EV_BUF_INIT;

				if (!name_is(td, "td") && !name_is(td, "th"))
					continue;
				inline_text(h, td, &t, 0, 0);
				ev_buf_addc(out, ' ');
				for (const char *s = ev_buf_str(&t); *s; s++) {
					if (*s == '|')
						ev_buf_addc(out, '\\');
					ev_buf_addc(out, *s);
				}
				while (out->len > 0 && out->p[out->len - 1] == ' ')
					out->len--;
				if (ev_buf_adds(out, " |") == -1)
					h->oom = 1;
				ev_buf_release(&t);
				cols++;
			}
			ev_buf_addc(out, '\n');
			if (*nrows == 0) {
				ev_buf_adds(out, "|");
				for (size_t i = 0; i < cols; i++)
					ev_buf_adds(out, " --- |");
				ev_buf_addc(out, '\n');
			}
			if (cols > *ncols)
				*ncols = cols;
			(*nrows)++;
		} else if (name_is(c, "thead") || name_is(c, "tbody") || name_is(c, "tfoot")) {
			rows(h, c, out, nrows, ncols, depth + 1);
		} else if (!name_is(c, "colgroup") && !name_is(c, "col")) {
			/* a caption, or text a page left outside the rows (a
			 * browser shows it before the table) */
			inline_node(h, c, &h->para, 0, 0);
			if (name_in(c, blocks))	/* a caption, a paragraph */
				flush(h);
		}
	}
}

static void
table(struct html *h, const xmlNode *n)
{
	struct ev_buf t = EV_BUF_INIT;
	int nrows = 0;
	size_t ncols = 0;

	rows(h, n, &t, &nrows, &ncols, 0);
	flush(h);
	if (ncols > 0) {
		while (t.len > 0 && t.p[t.len - 1] == '\n')
			t.p[--t.len] = '\0';
		ev_xrec_break(h->r, 1);
		ev_xrec_text(h->r, t.p, t.len);
		ev_xrec_break(h->r, 1);
	}
	ev_buf_release(&t);
}

static void walk(struct html *h, const xmlNode *n, int content, int depth);

/* The first number of an ordered list: its start attribute read as a
 * browser reads an integer (leading space, a sign, digits; else 1), held
 * to the nine digits a Markdown list number may have. */
static long long
list_start(const xmlNode *n)
{
	char *start = attr(n, "start"), *end;
	long long k = 1;

	if (start != NULL) {
		k = strtoll(start, &end, 10);
		if (end == start)
			k = 1;
		k = k < -LIST_NUMBER_MAX ? -LIST_NUMBER_MAX : k > LIST_NUMBER_MAX ? LIST_NUMBER_MAX : k;
		xmlFree(start);
	}
	return k;
}

static void
list(struct html *h, const xmlNode *n, int content, int depth)
{
	int ordered = name_is(n, "ol");
	long long k = ordered ? list_start(n) : 1;

	flush(h);
	if (h->lists == 0)
		ev_xrec_break(h->r, 1);
	h->lists++;
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (!name_is(c, "li")) {
			walk(h, c, content, depth + 1);
			continue;
		}
		flush(h);
		if (ordered)
			snprintf(h->num, sizeof h->num, "%lld. ", k < LIST_NUMBER_MAX ? k++ : k);
		h->marker = ordered ? h->num : "- ";
		walk(h, c, content, depth + 1);
		flush(h);
	}
	h->lists--;
	h->marker = NULL;
	ev_xrec_break(h->r, h->lists == 0);
}

/* The href of the link n when it is relative, to another page of the site
 * ("guide.html", "../api/tokens.htm#scopes"), that a Markdown link can
 * hold; else NULL (a URL with a scheme, a mail address, a path from the
 * site's root, a fragment of this page).  The caller xmlFree()s it. */
static char *
relative_href(const xmlNode *n)
{
	char *href = attr(n, "href");
	size_t path;

	if (href == NULL)
		return NULL;
	path = strcspn(href, "?#");
	if (path == 0 || href[0] == '/' || memchr(href, ':', path) != NULL ||
	    strpbrk(href, " \t\r\n()<>[]") != NULL) {
		xmlFree(href);
		return NULL;
	}
	return href;
}

/* The link n into the paragraph as a Markdown link, "[text](href)", so
 * that ev-expand can follow it; returns 0 when n is no such link (its
 * text is then read as any other inline element's). */
static int
add_link(struct html *h, const xmlNode *n)
{
	struct ev_buf t = EV_BUF_INIT;
	char *href = relative_href(n);
	int done = 0;

	if (href == NULL)
		return 0;
	inline_text(h, n, &t, 0, 0);
	if (t.len > 0 && strpbrk(t.p, "[]") == NULL && strspn(t.p, " ") < t.len) {
		size_t lead = strspn(t.p, " "), len = t.len - lead;

		while (len > 0 && t.p[lead + len - 1] == ' ')
			len--;
		if (lead > 0)
			add_collapsed(h, &h->para, " ");
		if (ev_buf_addc(&h->para, '[') == -1 || ev_buf_add(&h->para, t.p + lead, len) == -1 ||
		    ev_buf_printf(&h->para, "](%s)", href) == -1)
			h->oom = 1;
		if (lead + len < t.len)
			add_collapsed(h, &h->para, " ");
		done = 1;
	}
	ev_buf_release(&t);
	xmlFree(href);
	return done;
}

/* Walk n's children; content: inside <main> or <article>. */
static void
walk(struct html *h, const xmlNode *n, int content, int depth)
{
	if (depth > MAX_DEPTH)
		return;
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			add_collapsed(h, &h->para, (const char *)c->content);
			continue;
		}
		if (c->type != XML_ELEMENT_NODE || name_in(c, skipped) || is_hidden(c))
			continue;
		if (!content && is_banner(c))
			continue;
		if (name_is(c, "br")) {
			if (h->para.len > 0 && h->para.p[h->para.len - 1] == ' ')
				h->para.p[--h->para.len] = '\0';
			if (ev_buf_addc(&h->para, '\n') == -1)
				h->oom = 1;
		} else if (c->name[0] == 'h' && c->name[1] >= '1' && c->name[1] <= '6' && !c->name[2]) {
			flush(h);
			heading(h, c, c->name[1] - '0');
		} else if (name_is(c, "pre")) {
			flush(h);
			code(h, c);
		} else if (name_is(c, "table")) {
			flush(h);
			table(h, c);
		} else if (name_is(c, "ul") || name_is(c, "ol")) {
			list(h, c, content, depth);
		} else if (name_is(c, "blockquote")) {
			flush(h);
			h->quotes++;
			walk(h, c, content, depth + 1);
			flush(h);
			h->quotes--;
		} else if (name_in(c, blocks)) {
			flush(h);
			walk(h, c, content || name_is(c, "main") || name_is(c, "article"), depth + 1);
			flush(h);
		} else if (name_is(c, "a") && add_link(h, c)) {
			continue;
		} else {
			walk(h, c, content, depth + 1);
		}
	}
}

/* Walk, as content, each element named name under n (not inside one
 * another; for "main", role="main" too), in order, however many there are.
 * Returns how many there were (0: nothing was read). */
static int
walk_each(struct html *h, const xmlNode *n, const char *name, int depth)
{
	int found = 0;

	for (const xmlNode *c = n->children; c && depth < MAX_DEPTH; c = c->next) {
		char *role;

		if (c->type != XML_ELEMENT_NODE || name_in(c, skipped))
			continue;
		role = strcmp(name, "main") == 0 ? attr(c, "role") : NULL;
		if (name_is(c, name) || (role && strcasecmp(role, "main") == 0)) {
			walk(h, c, 1, 0);
			flush(h);
			found++;
		} else
			found += walk_each(h, c, name, depth + 1);
		xmlFree(role);
	}
	return found;
}

/* Whether s[0..n) starts with the ASCII word w, in any case. */
static int
starts_with_word(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && strncasecmp(s, w, k) == 0;
}

/* The charset a <meta> tag s[0..n) (from "<meta" to before its '>')
 * declares, as charset=X anywhere in it (the charset attribute, or
 * http-equiv's content="text/html; charset=X"), into name.  Returns 1 when
 * found. */
static int
meta_charset(const char *s, size_t n, char *name, size_t size)
{
	for (size_t i = 0; i + 7 <= n; i++) {
		size_t j = i + 7, k = 0;

		if (!starts_with_word(s + i, n - i, "charset"))
			continue;
		while (j < n && isspace((unsigned char)s[j]))
			j++;
		if (j >= n || s[j++] != '=')
			continue;
		while (j < n && (isspace((unsigned char)s[j]) || s[j] == '"' || s[j] == '\''))
			j++;
		while (j < n && k + 1 < size && (isalnum((unsigned char)s[j]) || strchr("-_.:", s[j])))
			name[k++] = s[j++];
		name[k] = '\0';
		if (k > 0)
			return 1;
	}
	return 0;
}

/* The first <meta> of s[0..n) that declares a charset (comments skipped),
 * as the HTML standard's prescan does.  Returns 1 with name filled. */
static int
declared_charset(const char *s, size_t n, char *name, size_t size)
{
	for (size_t i = 0; i < n; i++) {
		const char *end;

		if (s[i] != '<')
			continue;
		if (starts_with_word(s + i, n - i, "<!--")) {
			end = memmem(s + i + 4, n - i - 4, "-->", 3);
			if (end == NULL)
				return 0;
			i = (size_t)(end - s) + 2;
		} else if (starts_with_word(s + i, n - i, "<meta") && i + 5 < n &&
		    (isspace((unsigned char)s[i + 5]) || s[i + 5] == '/')) {
			end = memchr(s + i, '>', n - i);
			if (meta_charset(s + i, (end ? (size_t)(end - s) : n) - i, name, size))
				return 1;
		}
	}
	return 0;
}

/* name as a browser decodes it: the labels the WHATWG Encoding Standard
 * gives windows-1252, -1254 and -874 (ASCII and ISO-8859-1, -9 and -11
 * among them: a page "in ISO-8859-1" whose bytes 0x93 and 0x94 are curly
 * quotes, as most are, means them, not C1 controls) by that encoding's
 * name, which iconv knows; any other name as it is. */
static void
browser_encoding(char *name, size_t size)
{
	static const char *const map[][2] = {
		{ "ansi_x3.4-1968", "WINDOWS-1252" }, { "ascii", "WINDOWS-1252" },
		{ "cp1252", "WINDOWS-1252" }, { "cp819", "WINDOWS-1252" },
		{ "csisolatin1", "WINDOWS-1252" }, { "ibm819", "WINDOWS-1252" },
		{ "iso-8859-1", "WINDOWS-1252" }, { "iso-ir-100", "WINDOWS-1252" },
		{ "iso8859-1", "WINDOWS-1252" }, { "iso88591", "WINDOWS-1252" },
		{ "iso_8859-1", "WINDOWS-1252" }, { "iso_8859-1:1987", "WINDOWS-1252" },
		{ "l1", "WINDOWS-1252" }, { "latin1", "WINDOWS-1252" },
		{ "us-ascii", "WINDOWS-1252" }, { "x-cp1252", "WINDOWS-1252" },
		{ "cp1254", "WINDOWS-1254" }, { "csisolatin5", "WINDOWS-1254" },
		{ "iso-8859-9", "WINDOWS-1254" }, { "iso-ir-148", "WINDOWS-1254" },
		{ "iso8859-9", "WINDOWS-1254" }, { "iso88599", "WINDOWS-1254" },
		{ "iso_8859-9", "WINDOWS-1254" }, { "iso_8859-9:1989", "WINDOWS-1254" },
		{ "l5", "WINDOWS-1254" }, { "latin5", "WINDOWS-1254" },
		{ "x-cp1254", "WINDOWS-1254" }, { "dos-874", "WINDOWS-874" },
		{ "iso-8859-11", "WINDOWS-874" }, { "iso8859-11", "WINDOWS-874" },
		{ "iso885911", "WINDOWS-874" }, { "tis-620", "WINDOWS-874" },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcasecmp(name, map[i][0]) == 0) {
			snprintf(name, size, "%s", map[i][1]);
			return;
		}
}

/* Whether iconv decodes the encoding name (a <meta> may declare any). */
static int
known_encoding(const char *name)
{
	iconv_t cd = iconv_open("UTF-8", name);

	if (cd == (iconv_t)-1)
		return 0;
	iconv_close(cd);
	return 1;
}

enum ev_html_found
ev_html_encoding(const char *s, size_t n, char *name, size_t size)
{
	uchardet_t ud;
	const char *guess;

	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		snprintf(name, size, "UTF-8");
		return EV_HTML_BOM;
	}
	if (n >= 2 && (memcmp(s, "\xFE\xFF", 2) == 0 || memcmp(s, "\xFF\xFE", 2) == 0)) {
		snprintf(name, size, s[0] == '\xFE' ? "UTF-16BE" : "UTF-16LE");
		return EV_HTML_BOM;
	}
	if (declared_charset(s, n < PRESCAN ? n : PRESCAN, name, size)) {
		if (strncasecmp(name, "UTF-16", 6) == 0)
			snprintf(name, size, "UTF-8");	/* a <meta> that can be read is not UTF-16 */
		browser_encoding(name, size);
		if (known_encoding(name))
			return EV_HTML_DECLARED;
	}
	if (ev_utf8_bad(s, n) == n) {
		snprintf(name, size, "UTF-8");
		return EV_HTML_UTF8;
	}
	guess = NULL;
	if ((ud = uchardet_new()) != NULL) {
		if (uchardet_handle_data(ud, s, n) == 0) {
			uchardet_data_end(ud);
			guess = uchardet_get_charset(ud);
		}
	}
	snprintf(name, size, "%s", guess != NULL && *guess ? guess : "WINDOWS-1252");
	uchardet_delete(ud);
	browser_encoding(name, size);
	return EV_HTML_GUESSED;
}

size_t
ev_html_binary_at(const char *s, size_t n)
{
	if (n >= 2 && (memcmp(s, "\xFE\xFF", 2) == 0 || memcmp(s, "\xFF\xFE", 2) == 0))
		return n;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0 || (i < PRESCAN && c < 0x20 && !strchr("\t\n\f\r\x1B", c)))
			return i;
	}
	return n;
}

/* Read the file at path whole into b.  Returns 0, or -1 with *err set. */
static int
read_whole(const char *path, struct ev_buf *b, struct ev_err *err)
{
	char chunk[65536];
	size_t got;
	FILE *fp;

	/* (libxml2 says nothing of a file it cannot open) */
	if ((fp = fopen(path, "rb")) == NULL)
		return errno == ENOMEM ? ev_err_nomem(err) :
		    ev_err_set(err, EV_EXIT_USAGE, path, "cannot open: %s", strerror(errno));
	while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
		if (ev_buf_add(b, chunk, got) == -1) {
			fclose(fp);
			return ev_err_nomem(err);
		}
	if (ferror(fp)) {
		fclose(fp);
		return ev_err_set(err, EV_EXIT_RUNTIME, path, "read error: %s", strerror(errno ? errno : EIO));
	}
	fclose(fp);
	return 0;
}

/* The page s[0..n) (its byte-order mark left out), in the encoding name
 * (one iconv knows), into out as UTF-8, as a browser decodes it: a byte that
 * is no character of the encoding (an invalid or cut sequence, a byte its
 * table lacks) is one U+FFFD, and the text goes on after it (two bytes for
 * UTF-16, whose units they are).  Returns 0, or -1 with *err set. */
static int
decode_page(const char *path, const char *s, size_t n, const char *name, struct ev_buf *out,
	struct ev_err *err)
{
	static const char repl[] = "\xEF\xBF\xBD";
	size_t unit = strncasecmp(name, "UTF-16", 6) == 0 ? 2 : 1, left = n, k;
	char buf[16384], *in = (char *)s, *o;
	iconv_t cd;
	int bad = 0;
	uint32_t cp;

	if (strcasecmp(name, "UTF-8") == 0 || strcasecmp(name, "UTF8") == 0) {
		for (size_t i = 0; i < n && !bad; i += k) {
			k = ev_utf8_decode(s + i, n - i, &cp);
			bad = EV_UTF8_IS_BAD(cp) ? ev_buf_add(out, repl, 3) : ev_buf_add(out, s + i, k);
		}
		return bad ? ev_err_nomem(err) : 0;
	}
	if ((cd = iconv_open("UTF-8", name)) == (iconv_t)-1)
		return errno == ENOMEM ? ev_err_nomem(err) : ev_err_set(err, EV_EXIT_RUNTIME, path,
		    "cannot decode '%s': %s", name, strerror(errno));
	while (left > 0 && !bad) {
		size_t room = sizeof buf, r;

		o = buf;
		r = iconv(cd, &in, &left, &o, &room);
		bad = ev_buf_add(out, buf, (size_t)(o - buf));
		if (r != (size_t)-1 || errno == E2BIG)
			continue;
		if (errno != EILSEQ && errno != EINVAL) {
			iconv_close(cd);
			return ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot decode '%s': %s", name,
			    strerror(errno));
		}
		/* EILSEQ: no character of the encoding; EINVAL: cut by the end */
		bad |= ev_buf_add(out, repl, 3);
		k = left < unit ? left : unit;
		in += k;
		left -= k;
		iconv(cd, NULL, NULL, NULL, NULL);	/* a stateful encoding starts afresh */
	}
	iconv_close(cd);
	return bad ? ev_err_nomem(err) : 0;
}

/* The page at path, n bytes of UTF-8 at p, parsed into a tree (NULL out of
 * memory or when there is none).  libxml2 stops reading a page whose
 * elements nest deeper than its limit (256, that keeps its parsing of
 * stray end tags linear): what follows is not in the tree, and cb is told
 * where the text stops, rather than losing it unsaid. */
static htmlDocPtr
parse_page(const char *path, const char *p, int n, const struct ev_extract_cb *cb)
{
	htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
	htmlDocPtr doc;
	const xmlError *e;
	char where[4200];

	if (ctxt == NULL)
		return NULL;
	doc = htmlCtxtReadMemory(ctxt, p, n, path, "UTF-8", HTML_PARSE_RECOVER |
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
	    HTML_PARSE_IGNORE_ENC);
	e = &ctxt->lastError;
	if (doc != NULL && e->code == XML_ERR_INTERNAL_ERROR && e->message != NULL &&
	    strncmp(e->message, "Excessive depth", 15) == 0 && cb != NULL && cb->warn != NULL) {
		snprintf(where, sizeof where, "%s:%d", path, e->line);
		cb->warn(cb->ctx, where, "elements nested more than 256 deep: the page is read up"
		    " to the element on this line that goes deeper, the rest left out (close the"
		    " elements the page leaves open)");
	}
	htmlFreeParserCtxt(ctxt);
	return doc;
}

/* The page at path parsed, its encoding found as ev_html_encoding() says
 * (a guess told to cb).  Returns the tree, or NULL with *err set.  An empty
 * page (no byte, or only white space, comments and a doctype) is a tree
 * without a root element, as an empty text file is a document without
 * text. */
static htmlDocPtr
read_page(const char *path, const struct ev_extract_cb *cb, struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT, u = EV_BUF_INIT;
	char name[64], where[4200], msg[200];
	htmlDocPtr doc = NULL;
	enum ev_html_found how;
	size_t bad, bom, line = 1, col = 1;

	if (read_whole(path, &b, err) == -1)
		goto out;
	if ((bad = ev_html_binary_at(b.p, b.len)) < b.len) {
		for (size_t i = 0; i < bad; i++, col++)
			if (b.p[i] == '\n')
				line++, col = 0;
		snprintf(where, sizeof where, "%s:%zu", path, line);
		ev_err_set(err, EV_EXIT_USAGE, where, "binary content (byte 0x%02X at column %zu),"
		    " not HTML: only text files are read", (unsigned char)b.p[bad], col);
		goto out;
	}
	how = ev_html_encoding(b.p, b.len, name, sizeof name);
	if (how == EV_HTML_GUESSED && cb != NULL && cb->warn != NULL) {
		snprintf(msg, sizeof msg, "no encoding declared and not UTF-8: read as %s, a guess"
		    " (declare it with <meta charset>)", name);
		cb->warn(cb->ctx, path, msg);
	}
	/* decoded here, so that libxml2 (which reads the rest of a UTF-8 page
	 * as Latin-1 after a bad byte, and stops at a byte its converter
	 * refuses) is given UTF-8 that is valid, and told to keep to it */
	bom = how != EV_HTML_BOM ? 0 : strcmp(name, "UTF-8") == 0 ? 3 : 2;
	if (decode_page(path, b.p + bom, b.len - bom, name, &u, err) == -1)
		goto out;
	if (u.len > INT_MAX)
		ev_err_set(err, EV_EXIT_USAGE, path, "too large to read as HTML (2 GB at most)");
	else if ((doc = u.len > 0 ? parse_page(path, u.p, (int)u.len, cb) :
	    htmlNewDocNoDtD(NULL, NULL)) == NULL)
		ev_err_set(err, EV_EXIT_USAGE, path, "not readable as HTML");
out:
	ev_buf_release(&b);
	ev_buf_release(&u);
	return doc;
}

int
ev_extract_html(const char *path, const char *id, const struct ev_extract_cb *cb,
	struct ev_xrec *r, FILE *out, struct ev_err *err)
{
	struct html h = { 0 };
	const xmlNode *root;
	int rc = -1;
	json_t *head = NULL, *tail = NULL, *meta = NULL;
	struct ev_buf title = EV_BUF_INIT;
	htmlDocPtr doc;
	char *lang, code[EV_ANALYZE_CODE_MAX];

	if ((doc = read_page(path, cb, err)) == NULL)
		return -1;
	root = xmlDocGetRootElement(doc);
	h.r = r;
	if (ev_xrec_begin(r, err) == -1) {
		xmlFreeDoc(doc);
		return -1;
	}
	if (root != NULL && walk_each(&h, root, "main", 0) == 0 &&
	    walk_each(&h, root, "article", 0) == 0)
		walk(&h, root, 0, 0);
	flush(&h);
	for (const xmlNode *hd = root ? root->children : NULL; hd && title.len == 0; hd = hd->next)
		for (const xmlNode *c = name_is(hd, "head") ? hd->children : NULL; c; c = c->next)
			if (name_is(c, "title")) {
				inline_text(&h, c, &title, 0, 0);
				break;
			}
	while (title.len > 0 && title.p[title.len - 1] == ' ')
		title.p[--title.len] = '\0';
	head = json_object();
	tail = json_object();
	meta = json_object();
	if (h.oom || head == NULL || tail == NULL || meta == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	json_object_set_new(head, "id", json_string(id));
	if (title.len > 0 && json_object_set_new(head, "title",
	    json_string(title.p + (title.p[0] == ' '))) == -1)
		goto out_nomem;
	if (title.len == 0 && h.h1 && json_object_set_new(head, "title", json_string(h.h1)) == -1)
		goto out_nomem;
	json_object_set_new(tail, "source_uri", json_string(id));
	json_object_set_new(tail, "source_type", json_string("markdown"));
	/* a page's lang that is no language code is left out: its text's
	 * language is found, as ev-ingest would refuse the record */
	if ((lang = root ? attr(root, "lang") : NULL) != NULL &&
	    ev_analyze_norm(lang, strlen(lang), code) == 0)
		json_object_set_new(tail, "language", json_string(lang));
	xmlFree(lang);
	json_object_set_new(meta, "format", json_string("html"));
	rc = ev_xrec_write(r, out, head, tail, meta, err);
	if (rc == 0 && r->len == 0 && cb && cb->warn)
		cb->warn(cb->ctx, path, root == NULL ? "an empty page: no element and no text" :
		    "no text in its main content");
	goto out;
out_nomem:
	ev_err_nomem(err);
out:
	json_decref(head);
	json_decref(tail);
	json_decref(meta);
	ev_buf_release(&title);
	ev_buf_release(&h.para);
	ev_buf_release(&h.line);
	free(h.h1);
	xmlFreeDoc(doc);
	return rc;
}
