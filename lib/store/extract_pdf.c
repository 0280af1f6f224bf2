/* extract_pdf.c: PDF text by page, with line boxes and headings, through
 * poppler-glib.  See extract_pdf.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <poppler.h>

#include "extract_pdf.h"
#include "buf.h"
#include "jsonl.h"

#define MAX_STYLES 256
#define MAX_LEVELS 6
#define HEADING_MAX 200		/* bytes: a longer line is never a heading */
#define OUTLINE_DEPTH 64	/* deeper outline entries are left out */
#define OUTLINE_MAX 1000000	/* and entries past this many */

/* A text style: a font size (to half a point) and whether it is bold. */
struct style {
	double size;
	int bold;
	long long chars, lines;
	int level;		/* 1..6 for a heading style, else 0 */
};

/* An outline entry. */
struct entry {
	char *title;		/* normalised: see norm() */
	char *shown;		/* as the outline gives it */
	int level;
	long page;		/* from 0 */
	double top;		/* where on the page it goes (PDF's y, from the
				 * bottom), or -1 when the outline does not say */
	int done;		/* a line of its page holds it */
};

/* A line of a page's text. */
struct line {
	size_t b0, b1;		/* bytes of the page's text */
	double box[4];
	int boxed;		/* box holds a glyph */
	int level;		/* heading level, 0 for body text */
	int style;		/* index into styles, -1 for none */
};

struct pdf {
	PopplerDocument *doc;
	const char *path;
	const struct ev_extract_cb *cb;
	struct ev_xrec *r;
	struct style styles[MAX_STYLES];
	int nstyles;
	struct entry *ent;
	size_t nent, cap_ent;
	long npages;
	long steps, nsteps;	/* progress */
	char *title;		/* the first heading */
	long scan_from, scan_to;	/* a run of pages with images but no text, from 1 */
	int scanned;		/* such a run was warned about */
	struct line *lines;
	size_t nlines, cap_lines;
	float *csize;		/* per character of the page: its font size */
	unsigned char *cbold;	/* and whether it is bold */
	size_t cap_chars;
	struct ev_buf b;
	int oom;
};

static int
is_bold(const char *font)
{
	static const char *const heavy[] = { "bold", "black", "heavy", "semibold", "demi", NULL };

	for (int i = 0; heavy[i]; i++)
		if (font && strcasestr(font, heavy[i]))
			return 1;
	return 0;
}

/* Lowercase ASCII, runs of white space one space, none at either end. */
static char *
norm(const char *s)
{
	char *o = malloc(strlen(s) + 1), *p = o;

	if (o == NULL)
		return NULL;
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			if (p > o && p[-1] != ' ')
				*p++ = ' ';
		} else {
			*p++ = (char)tolower((unsigned char)*s);
		}
	}
	if (p > o && p[-1] == ' ')
		p--;
	*p = '\0';
	return o;
}

static void
progress(struct pdf *d)
{
	d->steps++;
	if (d->cb && d->cb->progress)
		d->cb->progress(d->cb->ctx, d->steps, d->nsteps, d->r->len);
}

/* The page (from 0) an outline action goes to, or -1; *top where on it. */
static long
action_page(PopplerDocument *doc, PopplerAction *a, double *top)
{
	PopplerDest *dest, *named = NULL;
	long page;

	if (a == NULL || a->type != POPPLER_ACTION_GOTO_DEST || (dest = a->goto_dest.dest) == NULL)
		return -1;
	if (dest->type == POPPLER_DEST_NAMED) {
		if ((named = poppler_document_find_dest(doc, dest->named_dest)) == NULL)
			return -1;
		dest = named;
	}
	page = dest->page_num - 1;
	*top = dest->change_top ? dest->top : -1;
	if (named)
		poppler_dest_free(named);
	return page;
}

/* Collect the outline's entries under it, at depth level, in order. */
static void
outline(struct pdf *d, PopplerIndexIter *it, int level)
{
	do {
		PopplerAction *a = poppler_index_iter_get_action(it);
		PopplerIndexIter *child;
		double top = -1;
		long page = action_page(d->doc, a, &top);
		const char *t = a && a->any.title ? a->any.title : "";

		if (page >= 0 && page < d->npages && *t && d->nent < OUTLINE_MAX) {
			struct entry *e;

			if (d->nent == d->cap_ent) {
				size_t nc = d->cap_ent ? d->cap_ent * 2 : 32;
				struct entry *x = realloc(d->ent, nc * sizeof *x);

				if (x == NULL) {
					d->oom = 1;
					poppler_action_free(a);
					return;
				}
				d->ent = x;
				d->cap_ent = nc;
			}
			e = &d->ent[d->nent];
			*e = (struct entry){ norm(t), strdup(t), level < MAX_LEVELS ? level : MAX_LEVELS,
			    page, top, 0 };
			if (e->title == NULL || e->shown == NULL) {
				free(e->title);
				free(e->shown);
				d->oom = 1;
			} else {
				d->nent++;
			}
		}
		if (a)
			poppler_action_free(a);
		if (level < OUTLINE_DEPTH && (child = poppler_index_iter_get_child(it)) != NULL) {
			outline(d, child, level + 1);
			poppler_index_iter_free(child);
		}
	} while (!d->oom && poppler_index_iter_next(it));
}

/* Outline entries in page order (document order within a page). */
static int
by_page(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->page != y->page)
		return x->page < y->page ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Whether a line in a heading's style may be a heading: at most HEADING_MAX
 * bytes, two letters at least (not a page number), no dot leaders (a table
 * of contents' line). */
static int
may_head(const char *s, size_t n)
{
	int letters = 0;

	if (n > HEADING_MAX || memmem(s, n, ". . .", 5) || memmem(s, n, "...", 3) ||
	    memmem(s, n, "\xE2\x80\xA6", 3))
		return 0;
	for (size_t i = 0; i < n && letters < 2; i++)
		letters += isalpha((unsigned char)s[i]) || ((unsigned char)s[i] >= 0xC0);
	return letters >= 2;
}

/* Split the page's text into lines, each with its style (and box when rects
 * is given). */
static int
page_lines(struct pdf *d, PopplerPage *pg, const char *text, PopplerRectangle *rects,
	guint nrects)
{
	size_t nchars = (size_t)g_utf8_strlen(text, -1);
	GList *attrs = poppler_page_get_text_attributes(pg);
	const char *p = text;
	size_t ci = 0;

	d->nlines = 0;
	if (nchars > d->cap_chars) {
		float *s = realloc(d->csize, nchars * sizeof *s);
		unsigned char *w = s ? realloc(d->cbold, nchars) : NULL;

		if (s)
			d->csize = s;
		if (w == NULL) {
			poppler_page_free_text_attributes(attrs);
			return -1;
		}
		d->cbold = w;
		d->cap_chars = nchars;
	}
	memset(d->csize, 0, nchars * sizeof *d->csize);
	memset(d->cbold, 0, nchars);
	for (GList *l = attrs; l; l = l->next) {
		PopplerTextAttributes *a = l->data;
		int bold = is_bold(a->font_name);

		for (long i = a->start_index; i <= a->end_index && i >= 0 && (size_t)i < nchars; i++) {
			d->csize[i] = (float)a->font_size;
			d->cbold[i] = (unsigned char)bold;
		}
	}
	poppler_page_free_text_attributes(attrs);

	while (*p) {
		struct line *ln;
		double sizes[8];
		long counts[8] = { 0 };
		int nsizes = 0, bold = 1, glyphs = 0;
		const char *e = p;

		if (ev_grow(&d->lines, &d->cap_lines, d->nlines, sizeof *d->lines, 64) == -1)
			return -1;
		ln = &d->lines[d->nlines];
		*ln = (struct line){ (size_t)(p - text), 0, { 0, 0, 0, 0 }, 0, 0, -1 };
		for (; *e && *e != '\n'; e = g_utf8_next_char(e), ci++) {
			int k;

			if (isspace((unsigned char)*e) || ci >= nchars)
				continue;
			glyphs++;
			bold &= d->cbold[ci];
			for (k = 0; k < nsizes && fabs(sizes[k] - d->csize[ci]) > 0.01; k++)
				;
			if (k == nsizes && nsizes < 8)
				sizes[nsizes++] = d->csize[ci];
			if (k < nsizes)
				counts[k]++;
			if (rects && ci < nrects) {
				const PopplerRectangle *rc = &rects[ci];
				double x0 = fmin(rc->x1, rc->x2), x1 = fmax(rc->x1, rc->x2);
				double y0 = fmin(rc->y1, rc->y2), y1 = fmax(rc->y1, rc->y2);

				if (!ln->boxed) {
					ln->box[0] = x0, ln->box[1] = y0, ln->box[2] = x1, ln->box[3] = y1;
					ln->boxed = 1;
				} else {
					ln->box[0] = fmin(ln->box[0], x0), ln->box[1] = fmin(ln->box[1], y0);
					ln->box[2] = fmax(ln->box[2], x1), ln->box[3] = fmax(ln->box[3], y1);
				}
			}
		}
		ln->b1 = (size_t)(e - text);
		if (*e == '\n') {
			e++;
			ci++;
		}
		p = e;
		if (glyphs == 0)
			continue;	/* a line of white space only */
		{
			int best = 0, si;
			double size;

			for (int k = 1; k < nsizes; k++)
				if (counts[k] > counts[best])
					best = k;
			size = nsizes ? round(sizes[best] * 2) / 2 : 0;
			for (si = 0; si < d->nstyles; si++)
				if (d->styles[si].size == size && d->styles[si].bold == bold)
					break;
			if (si == d->nstyles && si < MAX_STYLES)
				d->styles[d->nstyles++] = (struct style){ size, bold, 0, 0, 0 };
			ln->style = si < MAX_STYLES ? si : -1;
			if (ln->style >= 0)
				ln->level = d->styles[si].level;
			if (ln->level && !may_head(text + ln->b0, ln->b1 - ln->b0))
				ln->level = 0;
			if (ln->style >= 0 && !rects) {
				d->styles[si].chars += glyphs;
				d->styles[si].lines++;
			}
		}
		d->nlines++;
	}
	return 0;
}

static int
by_rank(const void *a, const void *b)
{
	const struct style *x = *(struct style *const *)a, *y = *(struct style *const *)b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return y->bold - x->bold;
}

/* First pass: measure the styles, then rank those of headings. */
static int
measure(struct pdf *d)
{
	struct style *body = NULL, *h[MAX_STYLES];
	int nh = 0;

	for (long i = 0; i < d->npages; i++) {
		PopplerPage *pg = poppler_document_get_page(d->doc, (int)i);
		char *text = pg ? poppler_page_get_text(pg) : NULL;
		int rc = text ? page_lines(d, pg, text, NULL, 0) : 0;

		g_free(text);
		if (pg)
			g_object_unref(pg);
		if (rc == -1)
			return -1;
		progress(d);
	}
	for (int i = 0; i < d->nstyles; i++)
		if (body == NULL || d->styles[i].chars > body->chars)
			body = &d->styles[i];
	for (int i = 0; body && i < d->nstyles; i++) {
		struct style *s = &d->styles[i];

		if (s == body || s->lines == 0 || s->chars / s->lines > 120)
			continue;
		if (s->size >= body->size * 1.15 || (s->bold && !body->bold && s->size >= body->size - 0.25))
			h[nh++] = s;
	}
	qsort(h, (size_t)nh, sizeof *h, by_rank);
	for (int i = 0; i < nh; i++)
		h[i]->level = i < MAX_LEVELS ? i + 1 : MAX_LEVELS;
	return 0;
}

/* Write a heading line of the given level; the text is text[b0, b1) with
 * its white space collapsed. */
static void
heading(struct pdf *d, int level, const char *s, size_t n)
{
	ev_buf_reset(&d->b);
	for (int i = 0; i < level; i++)
		ev_buf_addc(&d->b, '#');
	ev_buf_addc(&d->b, ' ');
	ev_buf_add(&d->b, s, n);
	ev_xrec_text(d->r, d->b.p, d->b.len);
	if (d->title == NULL && (d->title = strndup(s, n)) == NULL)
		d->oom = 1;
}

/* s without a leading section number ("2.1 ", "iv. ", "a.3 "), or s. */
static const char *
unnumbered(const char *s)
{
	const char *p = s;

	while (*p && *p != ' ' && (isdigit((unsigned char)*p) || *p == '.' ||
	    (p == s && isalpha((unsigned char)*p)) || strchr("ivxlc", *p)))
		p++;
	return *p == ' ' && p > s && strpbrk(s, "0123456789.") < p ? p + 1 : s;
}

/* Mark the page's lines that its outline entries (*e0 on) name as headings,
 * and the entries so matched; *e1 is set past the page's entries.  A line
 * matches an entry's title as it is or without a section number before it. */
static void
outline_page(struct pdf *d, long page, const char *text, size_t e0, size_t *e1)
{
	*e1 = e0;
	while (*e1 < d->nent && d->ent[*e1].page == page)
		(*e1)++;
	for (size_t k = 0; k < d->nlines; k++) {
		char *t = strndup(text + d->lines[k].b0, d->lines[k].b1 - d->lines[k].b0);
		char *nt = t ? norm(t) : NULL;

		d->lines[k].level = 0;
		for (size_t e = e0; nt && e < *e1; e++) {
			const char *et = d->ent[e].title;

			if (!d->ent[e].done && (strcmp(et, nt) == 0 ||
			    strcmp(et, unnumbered(nt)) == 0 || strcmp(unnumbered(et), nt) == 0)) {
				d->ent[e].done = 1;
				d->lines[k].level = d->ent[e].level;
				break;
			}
		}
		if (t == NULL || nt == NULL)
			d->oom = 1;
		free(nt);
		free(t);
	}
}

/* Write the outline entries from *e on that no line matched, up to the first
 * placed below y (points from the top of a page of height h; y < 0: all). */
static void
outline_insert(struct pdf *d, size_t *e, size_t e1, double y, double h)
{
	for (; *e < e1; (*e)++) {
		struct entry *en = &d->ent[*e];

		if (en->done)
			continue;
		if (y >= 0 && en->top >= 0 && h - en->top > y + 2)
			break;
		ev_xrec_break(d->r, 1);
		heading(d, en->level, en->shown, strlen(en->shown));
		ev_xrec_break(d->r, 1);
	}
}

/* Warn of the run of pages with images but no text that ends here, once. */
static void
scan_warn(struct pdf *d)
{
	char where[EV_WHERE_MAX];

	if (d->scan_from == 0 || d->cb == NULL || d->cb->warn == NULL) {
		d->scan_from = d->scan_to = 0;
		return;
	}
	if (d->scan_from == d->scan_to)
		snprintf(where, sizeof where, "%s: page %ld", d->path, d->scan_from);
	else
		snprintf(where, sizeof where, "%s: pages %ld-%ld", d->path, d->scan_from, d->scan_to);
	d->cb->warn(d->cb->ctx, where, "images but no text (a scan?): nothing extracted; OCR it first");
	d->scan_from = d->scan_to = 0;
	d->scanned = 1;
}

/* Second pass: one page into the record; *ei is the first outline entry of
 * this page or a later one. */
static int
page_out(struct pdf *d, long i, size_t *ei)
{
	size_t e1 = *ei;
	PopplerPage *pg = poppler_document_get_page(d->doc, (int)i);
	PopplerRectangle *rects = NULL;
	guint nrects = 0;
	char *text = pg ? poppler_page_get_text(pg) : NULL;
	double w = 0, h = 0, prev_y1 = 0, prev_h = 0;
	size_t start;
	int rc = 0, prev_level = -1, prev_style = -2;

	if (pg == NULL)
		return 0;
	poppler_page_get_size(pg, &w, &h);
	if (text && *text && !poppler_page_get_text_layout(pg, &rects, &nrects))
		rects = NULL, nrects = 0;
	if (text && page_lines(d, pg, text, rects, nrects) == -1)
		rc = -1;
	if (text == NULL)
		d->nlines = 0;
	ev_xrec_break(d->r, 1);
	if (rc == 0 && d->nent > 0)
		outline_page(d, i, text, *ei, &e1);
	start = ev_xrec_pos(d->r);
	for (size_t k = 0; rc == 0 && k < d->nlines; k++) {
		struct line *ln = &d->lines[k];
		int gap = ln->boxed && (ln->box[1] - prev_y1 > 0.6 * prev_h || ln->box[3] < prev_y1);
		int merge = ln->level && ln->level == prev_level && ln->style == prev_style && !gap;
		size_t s0, was = *ei;

		outline_insert(d, ei, e1, ln->boxed ? ln->box[1] : 0, h);
		if (*ei != was)
			merge = 0, prev_level = -1;

		if (merge) {
			/* a heading wrapped onto a second line: one heading */
			ev_xrec_text(d->r, " ", 1);
		} else {
			ev_xrec_break(d->r, ln->level || prev_level != 0 || gap);
			if (ln->level) {
				ev_buf_reset(&d->b);
				for (int l = 0; l < ln->level; l++)
					ev_buf_addc(&d->b, '#');
				ev_buf_addc(&d->b, ' ');
				ev_xrec_text(d->r, d->b.p, d->b.len);
				if (d->title == NULL &&
				    (d->title = strndup(text + ln->b0, ln->b1 - ln->b0)) == NULL)
					d->oom = 1;
			}
		}
		s0 = merge ? d->r->len : ev_xrec_pos(d->r);
		ev_buf_reset(&d->b);
		if (ln->level ? ev_buf_add(&d->b, text + ln->b0, ln->b1 - ln->b0) == -1 :
		    ev_extract_md_line(&d->b, text + ln->b0, ln->b1 - ln->b0) == -1)
			d->oom = 1;
		ev_xrec_text(d->r, d->b.p, d->b.len);
		if (ln->boxed)
			ev_xrec_line(d->r, i + 1, s0, d->r->len, ln->box);
		prev_level = ln->level;
		prev_style = ln->style;
		if (ln->boxed) {
			prev_y1 = ln->box[3];
			prev_h = ln->box[3] - ln->box[1];
		}
	}
	if (start > d->r->len)
		start = d->r->len;
	outline_insert(d, ei, e1, -1, h);
	/* a page without text is an empty range where the text stands */
	ev_xrec_page(d->r, i + 1, d->nlines ? start : d->r->len, d->r->len, w, h);
	if (rc == 0 && d->nlines == 0) {
		GList *img = poppler_page_get_image_mapping(pg);

		if (img && d->scan_from && d->scan_to == i) {
			d->scan_to = i + 1;
		} else if (img) {
			scan_warn(d);
			d->scan_from = d->scan_to = i + 1;
		}
		poppler_page_free_image_mapping(img);
	}
	g_free(rects);
	g_free(text);
	g_object_unref(pg);
	progress(d);
	return rc;
}

/* The UTF-8 text s made one line, in place, as an HTML page's title is:
 * each run of white space (and U+0085, a new line) one space, none at either
 * end, other control characters (C0, DEL, C1) dropped.  Returns s; s empty when it held nothing
 * else.  (poppler ends a string of the document's information at a NUL.) */
static char *
one_line(char *s)
{
	char *o = s;

	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		int c1 = c == 0xc2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f;

		if (isspace(c) || (c1 && (unsigned char)p[1] == 0x85)) {	/* U+0085: NEL */
			if (o > s && o[-1] != ' ')
				*o++ = ' ';
			p += c1;
		} else if (c1) {
			p++;	/* U+0080 to U+009F */
		} else if (c >= 0x20 && c != 0x7f) {
			*o++ = (char)c;
		}
	}
	if (o > s && o[-1] == ' ')
		o--;
	*o = '\0';
	return s;
}

/* The document's information string v (freed), when valid UTF-8, one line
 * (one_line()) and not empty, as m's member key. */
static void
meta_str(json_t *m, const char *key, char *v)
{
	if (v && g_utf8_validate(v, -1, NULL) && *one_line(v))
		json_object_set_new(m, key, json_string(v));
	g_free(v);
}

static int
open_doc(struct pdf *d, const char *path, const char *password, struct ev_err *err)
{
	GError *ge = NULL;
	char *abs = realpath(path, NULL), *uri;

	if (abs == NULL)
		return errno == ENOMEM ? ev_err_nomem(err) :
		    ev_err_set(err, EV_EXIT_USAGE, path, "cannot open: %s", strerror(errno));
	uri = g_filename_to_uri(abs, NULL, NULL);
	free(abs);
	if (uri == NULL)
		return ev_err_nomem(err);
	d->doc = poppler_document_new_from_file(uri, password, &ge);
	if (d->doc == NULL && password && ge && ge->domain == POPPLER_ERROR &&
	    ge->code == POPPLER_ERROR_ENCRYPTED) {
		/* --password is for the files that need one: one encrypted
		 * with an empty user password opens without */
		GError *ge2 = NULL;

		if ((d->doc = poppler_document_new_from_file(uri, NULL, &ge2)) == NULL)
			g_error_free(ge2);
	}
	g_free(uri);
	if (d->doc)
		return 0;
	if (ge && ge->domain == POPPLER_ERROR && ge->code == POPPLER_ERROR_ENCRYPTED)
		ev_err_set(err, EV_EXIT_USAGE, path, password ?
		    "encrypted, and --password is not its password" :
		    "encrypted: give its password with --password");
	else if (ge && ge->domain == G_FILE_ERROR)
		ev_err_set(err, EV_EXIT_USAGE, path, "cannot open: %s", ge->message);
	else
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "not a readable PDF (damaged or truncated beyond repair): %s",
		    ge ? ge->message : "unknown error");
	if (ge)
		g_error_free(ge);
	return -1;
}

int
ev_extract_pdf(const char *path, const char *id, const char *password,
	const struct ev_extract_cb *cb, struct ev_xrec *r, FILE *out, struct ev_err *err)
{
	struct pdf d = { 0 };
	json_t *head = NULL, *tail = NULL, *meta = NULL;
	PopplerIndexIter *it;
	GDateTime *created;
	size_t ei = 0;
	int rc = -1;
	char *t;

	d.path = path;
	d.cb = cb;
	d.r = r;
	if (open_doc(&d, path, password, err) == -1)
		return -1;
	d.npages = poppler_document_get_n_pages(d.doc);
	if ((it = poppler_index_iter_new(d.doc)) != NULL) {
		outline(&d, it, 1);
		poppler_index_iter_free(it);
		if (d.nent > 1)
			qsort(d.ent, d.nent, sizeof *d.ent, by_page);
	}
	d.nsteps = d.nent > 0 ? d.npages : 2 * d.npages;
	if (d.oom || ev_xrec_begin(r, err) == -1 || (d.nent == 0 && measure(&d) == -1))
		goto out;
	for (long i = 0; i < d.npages; i++)
		if (page_out(&d, i, &ei) == -1)
			goto out;
	scan_warn(&d);
	if (d.oom)
		goto out;
	head = json_object();
	tail = json_object();
	meta = json_object();
	if (head == NULL || tail == NULL || meta == NULL)
		goto out;
	t = poppler_document_get_title(d.doc);
	json_object_set_new(head, "id", json_string(id));
	if (t && g_utf8_validate(t, -1, NULL) && *one_line(t))
		json_object_set_new(head, "title", json_string(t));
	else if (d.title)
		json_object_set_new(head, "title", json_string(d.title));
	json_object_set_new(tail, "source_uri", json_string(id));
	json_object_set_new(tail, "source_type", json_string("markdown"));
	json_object_set_new(meta, "format", json_string("pdf"));
	json_object_set_new(meta, "page_count", json_integer(d.npages));
	json_object_set_new(meta, "headings", json_string(d.nent ? "outline" : "fonts"));
	meta_str(meta, "pdf_title", t);
	meta_str(meta, "author", poppler_document_get_author(d.doc));
	meta_str(meta, "subject", poppler_document_get_subject(d.doc));
	meta_str(meta, "keywords", poppler_document_get_keywords(d.doc));
	if ((created = poppler_document_get_creation_date_time(d.doc)) != NULL) {
		meta_str(meta, "created", g_date_time_format_iso8601(created));
		g_date_time_unref(created);
	}
	rc = ev_xrec_write(r, out, head, tail, meta, err) == -1 ? -1 : (int)d.npages;
	if (rc >= 0 && r->len == 0 && !d.scanned && cb && cb->warn)
		cb->warn(cb->ctx, path, d.npages ? "no text on any page" : "no pages");
out:
	if (rc == -1 && err->code == 0)
		ev_err_nomem(err);
	json_decref(head);
	json_decref(tail);
	json_decref(meta);
	for (size_t i = 0; i < d.nent; i++) {
		free(d.ent[i].title);
		free(d.ent[i].shown);
	}
	free(d.ent);
	free(d.lines);
	free(d.csize);
	free(d.cbold);
	free(d.title);
	ev_buf_release(&d.b);
	g_object_unref(d.doc);
	return rc;
}
