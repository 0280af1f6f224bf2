/* bench-json: measure three JSON libraries on JSON Lines of hit records.
 *
 *   bench-json gen N FILE     write N realistic hit records to FILE
 *   bench-json speed FILE     parse every line, then emit every parsed value,
 *                             with Jansson, json-c and cJSON; best of 3 rounds
 *   bench-json errors         parse a set of bad lines with each library and
 *                             print the position each reports
 *
 * Each library is used as evkit would use it: Jansson with
 * JSON_DECODE_ANY | JSON_REJECT_DUPLICATES (as lib/base/jsonl.c), json-c with a
 * reused tokener in strict mode with UTF-8 validation, cJSON with
 * cJSON_ParseWithLengthOpts.  Emitting writes compact JSON into a reused
 * buffer where the library allows it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib.h"

/* ---- Test data ---- */

static uint64_t rng = 88172645463325252ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *const words[] = {
	"boundary", "layer", "supersonic", "flow", "pressure", "distribution", "heat",
	"transfer", "wing", "\\\"slender\\\"", "body", "théorie", "Mach", "number", "shock",
	"wave", "viscous", "laminar", "turbulent", "jet", "nozzle", "–", "temperature",
	"stagnation", "point", "空气动力学", "similarity", "law", "aeroelastic", "model",
	"cylinder", "plate", "\\n", "incompressible", "hypersonic", "cone", "skin", "friction"
};
#define NWORDS (sizeof words / sizeof words[0])

static void
put_words(FILE *fp, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", i ? " " : "", words[rnd(NWORDS)]);
}

static int
gen(long n, const char *path)
{
	FILE *fp = fopen(path, "w");
	long i;

	if (fp == NULL) {
		fprintf(stderr, "bench-json: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		unsigned doc = rnd(1400) + 1, q = (unsigned)(i / 100) + 1;
		double fts = rnd(2000000) / 100000.0, vec = rnd(1000000) / 1000000.0;

		fprintf(fp, "{\"query_id\":\"%u\",\"query\":\"", q);
		put_words(fp, 8);
		fprintf(fp, "\",\"id\":\"%u:%u:%u\",\"doc_id\":\"%u\",\"rank\":%ld,\"score\":%.10g,"
		    "\"lane\":\"fused\",\"signals\":{\"fts_score\":%.10g,\"fts_rank\":%u,"
		    "\"vector_score\":%.10g,\"vector_rank\":%u,\"rrf_score\":%.10g},\"snippet\":\"",
		    doc, rnd(4), rnd(12), doc, i % 100 + 1, 1.0 / (60 + i % 100), fts, rnd(100) + 1,
		    vec, rnd(100) + 1, 1.0 / (61 + rnd(100)));
		put_words(fp, 30);
		fprintf(fp, "\",\"evidence\":[{\"lane\":\"text\",\"snippet\":\"");
		put_words(fp, 12);
		fprintf(fp, "\"},{\"lane\":\"vector\",\"score\":%.10g}],\"metadata\":{\"title\":\"", vec);
		put_words(fp, 6);
		fprintf(fp, "\",\"source_uri\":\"file:///data/cranfield/%u.txt\",\"chunk_index\":%u,"
		    "\"offset_start\":%u,\"offset_end\":%u,\"tags\":[\"aero\",\"physics\",null,true]}}\n",
		    doc, rnd(12), rnd(5000), 5000 + rnd(5000));
	}
	if (fclose(fp) == EOF) {
		fprintf(stderr, "bench-json: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- Speed ---- */

struct line {
	const char *p;
	size_t len;
};

/* Processor time of this process: on a shared, busy machine it varies far
 * less than the time on the clock. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (fp == NULL)
		return NULL;
	for (;;) {
		if (cap - *len < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			if ((buf = realloc(buf, cap + 1)) == NULL)
				exit(1);
		}
		if ((n = fread(buf + *len, 1, cap - *len, fp)) == 0)
			break;
		*len += n;
	}
	fclose(fp);
	buf[*len] = '\0';
	return buf;
}

static const struct jlib *const libs[] = {
	&lib_jansson, &lib_jsonc, &lib_cjson, &lib_jansson_lax	/* the error table shows the first 3 */
};
#define NLIBS 4
#define ROUNDS 3

static int
speed(const char *path)
{
	size_t len, cap = 1 << 20;
	char *data = slurp(path, &len), *buf = malloc(cap), *p;
	struct line *lines;
	long n = 0, i, maxn;
	void **vals;
	int lib, run;
	double best_parse[NLIBS], best_emit[NLIBS];
	size_t out_bytes[NLIBS];
	long failed[NLIBS];

	if (data == NULL || buf == NULL) {
		fprintf(stderr, "bench-json: %s: cannot read\n", path);
		return 1;
	}
	for (maxn = 1, p = data; *p; p++)
		maxn += *p == '\n';
	lines = malloc(maxn * sizeof *lines);
	vals = malloc(maxn * sizeof *vals);
	for (p = data; *p; ) {
		char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		lines[n].p = p;
		lines[n++].len = l;
		p += l + (nl != NULL);
	}
	for (lib = 0; lib < NLIBS; lib++)
		best_parse[lib] = best_emit[lib] = 1e9;
	/* Rounds take the libraries in turn, so that a busy machine slows all
	 * of them alike; the best round of each counts. */
	for (run = 0; run < ROUNDS; run++) {
		for (lib = 0; lib < NLIBS; lib++) {
			const struct jlib *L = libs[lib];
			double t0 = now(), t1, t2;

			failed[lib] = 0;
			for (i = 0; i < n; i++)
				if ((vals[i] = L->parse(lines[i].p, lines[i].len)) == NULL)
					failed[lib]++;
			t1 = now();
			out_bytes[lib] = 0;
			for (i = 0; i < n; i++)
				if (vals[i] != NULL)
					out_bytes[lib] += L->emit(vals[i], buf, cap);
			t2 = now();
			for (i = 0; i < n; i++)
				if (vals[i] != NULL)
					L->release(vals[i]);
			if (t1 - t0 < best_parse[lib])
				best_parse[lib] = t1 - t0;
			if (t2 - t1 < best_emit[lib])
				best_emit[lib] = t2 - t1;
		}
	}
	printf("%ld lines, %.1f MB of hit records; processor time, best of %d rounds\n\n", n,
	    (double)len / 1e6, ROUNDS);
	printf("| library | version | parse lines/s | parse MB/s | emit lines/s | emit MB/s | "
	    "parse vs jansson | emit vs jansson | refused |\n");
	printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (lib = 0; lib < NLIBS; lib++)
		printf("| %s | %s | %.0f | %.1f | %.0f | %.1f | %.2f | %.2f | %ld |\n", libs[lib]->name,
		    libs[lib]->version(), n / best_parse[lib], len / 1e6 / best_parse[lib],
		    n / best_emit[lib], out_bytes[lib] / 1e6 / best_emit[lib],
		    best_parse[0] / best_parse[lib], best_emit[0] / best_emit[lib], failed[lib]);
	free(lines);
	free(vals);
	free(data);
	free(buf);
	return 0;
}

/* ---- Error positions ---- */

struct bad {
	const char *what;
	const char *text;
	size_t len;		/* 0: strlen */
	int col;		/* the 1-based column where the fault is */
};

static int
errors(void)
{
	static char deep[100002];
	static const struct bad bads[] = {
		{ "truncated record", "{\"query_id\":\"q1\",\"doc_", 0, 23 },
		{ "missing comma", "{\"a\":1 \"b\":2}", 0, 8 },
		{ "bad literal", "{\"a\":tru}", 0, 6 },
		{ "invalid UTF-8", "{\"a\":\"caf\xe9\"}", 0, 10 },
		{ "NUL byte", "{\"a\":\"x\0y\"}", 11, 8 },
		{ "\\u0000 escape", "{\"a\":\"x\\u0000y\"}", 0, 8 },
		{ "duplicate key", "{\"rank\":1,\"rank\":2}", 0, 11 },
		{ "trailing garbage", "{\"a\":1} x", 0, 9 },
		{ "NaN", "{\"score\":NaN}", 0, 10 },
		{ "overflowing real", "{\"score\":1e999}", 0, 10 },
		{ "overflowing integer", "{\"rank\":123456789012345678901234567890}", 0, 9 },
		{ "lone surrogate", "{\"a\":\"\\ud800\"}", 0, 7 },
		{ "deep nesting (100000 [)", deep, 0, 0 },
	};
	size_t i;
	int lib;

	memset(deep, '[', 100000);
	printf("| bad input | column at fault | jansson | json-c | cJSON |\n");
	printf("| --- | ---: | --- | --- | --- |\n");
	for (i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		printf("| %s | %s", bads[i].what, bads[i].col ? "" : "-");
		if (bads[i].col)
			printf("%d", bads[i].col);
		printf(" |");
		for (lib = 0; lib < 3; lib++) {
			char text[200], *p;

			libs[lib]->report(bads[i].text, bads[i].len ? bads[i].len : strlen(bads[i].text),
			    text, sizeof text);
			for (p = text; *p; p++)
				if (*p == '|' || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x80)
					*p = '?';
			printf(" %s |", text);
		}
		printf("\n");
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	if (argc == 4 && strcmp(argv[1], "gen") == 0)
		return gen(atol(argv[2]), argv[3]);
	if (argc == 3 && strcmp(argv[1], "speed") == 0)
		return speed(argv[2]);
	if (argc == 2 && strcmp(argv[1], "errors") == 0)
		return errors();
	fprintf(stderr, "usage: bench-json gen N FILE | speed FILE | errors\n");
	return 2;
}
