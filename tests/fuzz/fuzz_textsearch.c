/* fuzz_textsearch.c: libFuzzer target for the query handling of the text lane
 * (lib/lanes/textsearch.h).
 * requires: lib/lanes/textsearch.h */
/* A small store is made once (real SQLite, real FTS5).  The first byte of the
 * input chooses the options (AND/OR, fuzzy distance, raw FTS5, feedback from
 * 2 chunks or none; proximity is on); the rest is
 * either a query record (when it parses as a JSON object: filters are fuzzed
 * too) or the text of a query.  The guarantee checked: a query's text is
 * always text -- without raw_fts and filters, a search never fails, whatever
 * quotes, operators or bytes the text holds; with them, a failure is bad
 * input (code 2) with a message.  Hits come back with rank 1, 2, ... */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"
#include "textsearch.h"

static struct ev_store *st;

static void
setup(void)
{
	struct ev_err err = { 0 };
	char path[64];
	static const char *const texts[] = {
		"Wing lift and drag in supersonic flow", "Boundary layer transition on a flat plate",
		"Heat transfer near the stagnation point", "Buckling of thin cylindrical shells",
		"Flutter of panels at high Mach number", "café naïve résumé über straße",
	};
	char sql[512];
	size_t i;

	snprintf(path, sizeof path, "/tmp/evkit-fuzz-ts.%d.db", (int)getpid());
	unlink(path);
	if ((st = ev_store_open(path, EV_STORE_CREATE, &err)) == NULL)
		abort();
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		snprintf(sql, sizeof sql,
		    "INSERT INTO documents(doc_id, title, metadata, content_hash) VALUES ('d%zu', 'T%zu', '{\"k\":%zu}', 'sha256:0');"
		    "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, title, section_title,"
		    " section_path, text, offset_start, offset_end, content_hash) VALUES (%zu, 'd%zu:_top:0',"
		    " 'd%zu', '_top', 0, 'T%zu', '', '', '%s', 0, %zu, 'sha256:0');"
		    "INSERT INTO chunks_fts(rowid, title, section_title, text) VALUES (%zu, 'T%zu', '', '%s');",
		    i, i, i, i + 1, i, i, i, texts[i], strlen(texts[i]), i + 1, i, texts[i]);
		if (ev_store_exec(st, sql, &err) == -1) {
			fprintf(stderr, "setup: %s\n", err.msg);
			abort();
		}
	}
	unlink(path);	/* the open connection keeps it */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_textsearch *ts;
	struct ev_err err = { 0 };
	json_t *q, *v, *hits;
	int flags = 0, n, strict;
	size_t i;

	if (st == NULL)
		setup();
	if (size < 1)
		return 0;
	o.k = 1 + data[0] % 5;
	o.all_terms = data[0] >> 3 & 1;
	o.fuzzy = data[0] >> 4 & 3;
	o.raw_fts = (data[0] >> 6) == 3;
	o.feedback_docs = data[0] >> 2 & 1 ? 2 : 0;	/* the store is too small for 10 */
	v = json_loadb((const char *)data + 1, size - 1, 0, NULL);
	if (json_is_object(v)) {
		q = ev_query_record(v, 1, "fuzz:1", &err);
		json_decref(v);
		if (q == NULL)
			return 0;
	} else {
		json_decref(v);
		json_t *text = json_stringn((const char *)data + 1, size - 1);

		if (text == NULL)
			return 0;	/* not UTF-8 text: the JSON reader refuses it before */
		q = json_pack("{s:i,s:o}", "query_id", 1, "query", text);
		if (q == NULL)
			abort();
	}
	strict = !o.raw_fts && json_object_get(q, "filters") == NULL;
	if ((ts = ev_textsearch_open(st, &o, &err)) == NULL)
		abort();
	hits = json_array();
	n = ev_textsearch_query(ts, q, "fuzz:1", hits, &flags, &err);
	if (n == -1) {
		if (strict || err.code != 2 || err.msg[0] == '\0') {
			fprintf(stderr, "unexpected failure: code %d: %s: %s\n", err.code, err.where, err.msg);
			abort();
		}
	} else {
		if ((size_t)n != json_array_size(hits) || n > o.k)
			abort();
		for (i = 0; i < json_array_size(hits); i++)
			if (json_integer_value(json_object_get(json_array_get(hits, i), "rank")) !=
			    (json_int_t)i + 1)
				abort();
	}
	json_decref(hits);
	json_decref(q);
	ev_textsearch_close(ts);
	return 0;
}
