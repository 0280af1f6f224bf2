/* fuzz_jscan.c: libFuzzer target for the strict scanner (lib/base/jscan.h) and
 * ev-fuse's text path (lib/merge/fuse.h).  requires: lib/base/jscan.h lib/merge/fuse.h */
/*
 * 1. The whole input is one JSON text: the scanner must take it exactly when
 *    Jansson (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES) does, refuse it with
 *    exit code 2 and an "invalid JSON at column N" message otherwise, and for
 *    an object record members whose keys decode to Jansson's keys and whose
 *    value spans parse to Jansson's values; ev_jscan_members() on the object's
 *    text must find the same spans.
 * 2. The input as lines is fed to ev_fuse_add_line() (a bad hit is refused
 *    with code 2 and a message, and dropped), then fused with and without
 *    explain: every fused hit written must be a JSON object Jansson reads.
 * Anything else aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "fuse.h"
#include "jscan.h"

static struct ev_jscan js;

static json_t *
jansson(const char *s, size_t n)
{
	json_error_t je;

	if (memchr(s, '\0', n) != NULL)
		return NULL;
	return json_loadb(s, n, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
}

static void
check_members(const struct ev_jmems *ms, json_t *obj)
{
	struct ev_buf k = EV_BUF_INIT;
	size_t i;

	if (ms->n != json_object_size(obj))
		abort();
	for (i = 0; i < ms->n; i++) {
		const struct ev_jmem *m = &ms->m[i];
		json_t *want, *got;

		ev_buf_reset(&k);
		if (ev_jscan_decode(&k, m->key, m->klen) == -1)
			abort();
		if ((want = json_object_get(obj, ev_buf_str(&k))) == NULL)
			abort();
		if ((got = jansson(m->val, m->vlen)) == NULL || !json_equal(got, want))
			abort();
		json_decref(got);
	}
	ev_buf_release(&k);
}

static void
scan_whole(const char *s, size_t n)
{
	struct ev_err err = { 0 };
	json_t *v = jansson(s, n);
	int t = ev_jscan_value(&js, s, n, "f.jsonl:1", &err);

	if ((t >= 0) != (v != NULL))
		abort();
	if (t < 0) {
		if (err.code == EV_EXIT_USAGE && strncmp(err.msg, "invalid JSON at column ", 23) != 0)
			abort();
		if (err.code != EV_EXIT_USAGE && err.code != EV_EXIT_RUNTIME)
			abort();
		return;
	}
	if (t == EV_JOBJ) {
		struct ev_jmems again = { 0 };
		const char *o = js.top.n > 0 ? js.top.m[0].key : NULL;
		size_t i;

		check_members(&js.top, v);
		/* the object's own text: from its '{' to its '}' */
		for (o = s + n - 1; o > s && *o != '}'; o--)
			;
		while (*s != '{')
			s++;
		if (ev_jscan_members(s, (size_t)(o - s) + 1, &again) == -1)
			abort();
		if (again.n != js.top.n)
			abort();
		for (i = 0; i < again.n; i++)
			if (again.m[i].key != js.top.m[i].key || again.m[i].vlen != js.top.m[i].vlen ||
			    again.m[i].val != js.top.m[i].val || again.m[i].type != js.top.m[i].type)
				abort();
		free(again.m);
	}
	json_decref(v);
}

static void
fuse_lines(const char *s, size_t n, int explain, int doc)
{
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	struct ev_buf out = EV_BUF_INIT;
	struct ev_fuse *f;
	const char *p = s, *end = s + n, *nl;
	long long nout;

	ev_fuse_opts_init(&o);
	o.explain = explain;
	if (doc)
		o.group = EV_GROUP_DOC;
	if ((f = ev_fuse_new(&o, &err)) == NULL || ev_fuse_begin(f, "q", &err) == -1)
		abort();
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (ev_fuse_add_line(f, p, (size_t)(nl - p), "f.jsonl:1", &err) == -1 &&
		    (err.code != EV_EXIT_USAGE || err.msg[0] == '\0'))
			abort();
		p = nl + 1;
	}
	if (ev_fuse_write(f, &out, &nout, &err) == -1)
		abort();
	for (p = out.p; p != NULL && p < out.p + out.len; p = nl + 1) {
		json_t *v;

		nl = memchr(p, '\n', out.len - (size_t)(p - out.p));
		if (nl == NULL || (v = jansson(p, (size_t)(nl - p))) == NULL || !json_is_object(v))
			abort();
		json_decref(v);
		nout--;
	}
	if (nout != 0)
		abort();
	ev_buf_release(&out);
	ev_fuse_free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;

	scan_whole(s, size);
	fuse_lines(s, size, 1, 0);
	fuse_lines(s, size, 0, size & 1);
	return 0;
}
