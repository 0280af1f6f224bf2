/* fuzz_jsonl.c: libFuzzer target for the JSON Lines reader (lib/base/jsonl.h).
 *
 * The input is written to a file and read back with ev_jsonl_next(), so the
 * line splitting (CR, BOM, blank lines, no final newline) is exercised as
 * well as the parser; each value is then turned into a query record and its
 * fields read with the typed getters, and serialised again.  A record must
 * either parse or fail with an error that names the line and has exit code 2
 * (1 only for out of memory): anything else aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"

static char path[64];

static void
check_err(const struct ev_err *err)
{
	if (err->code != EV_EXIT_USAGE && err->code != EV_EXIT_RUNTIME)
		abort();
	if (err->msg[0] == '\0')
		abort();
}

static void
use_value(json_t *v, size_t lineno, const char *where)
{
	struct ev_err err = { 0 };
	struct ev_buf b = EV_BUF_INIT, id = EV_BUF_INIT;
	const char *s;
	double d;
	long long ll;
	json_t *o, *q;

	ev_field_str(v, "text", 0, &s, where, &err);
	ev_field_num(v, "score", 0, &d, where, &err);
	ev_field_int(v, "rank", 0, &ll, where, &err);
	ev_field_obj(v, "metadata", 0, &o, where, &err);
	ev_field_arr(v, "vector", 0, &o, where, &err);
	ev_json_id_buf(json_object_get(v, "query_id"), &id);
	ev_buf_release(&id);
	ev_err_clear(&err);
	if ((q = ev_query_record(v, lineno, where, &err)) == NULL)
		check_err(&err);
	json_decref(q);
	if (ev_json_dump(&b, v) == 0 && b.len > 0) {
		/* what we write must read back */
		json_t *back = ev_json_parse_line(b.p, b.len, where, &err);

		if (back == NULL)
			abort();
		json_decref(back);
	}
	ev_buf_release(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_err err = { 0 };
	struct ev_jsonl *in;
	char *paths[1];
	json_t *v;
	FILE *fp;
	int r, n = 0;

	if (path[0] == '\0')
		snprintf(path, sizeof path, "/tmp/evkit-fuzz-jsonl.%d", (int)getpid());
	if ((fp = fopen(path, "w")) == NULL)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);

	/* the one-line parser straight on the bytes */
	if ((v = ev_json_parse_line((const char *)data, size, "fuzz:1", &err)) == NULL)
		check_err(&err);
	json_decref(v);

	paths[0] = path;
	if ((in = ev_jsonl_open(paths, 1, &err)) == NULL)
		return 0;
	while (n++ < 10000) {
		ev_err_clear(&err);
		r = ev_jsonl_next(in, &v, &err);
		if (r == 0)
			break;
		if (r == -1) {
			check_err(&err);
			if (strncmp(err.where, path, strlen(path)) != 0)
				abort();	/* a bad record must name FILE:LINE */
			continue;
		}
		use_value(v, ev_jsonl_lineno(in), ev_jsonl_where(in));
		json_decref(v);
	}
	ev_jsonl_close(in);
	return 0;
}
