/* Tests of lib/store/vecinput.c: vector records (JSON Lines, fvecs, npy) read into a
 * load of a real store's vector index. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "test_util.h"
#include "vecinput.h"
#include "vload.h"

static char dir[] = "/tmp/evkit-vecinput-XXXXXX";
static char db[256], idx[256];
static struct ev_store *st;
static struct ev_err err;
static int skipped, steps;

static void
setup(void)
{
	tu_mkdir(dir, db, sizeof db);
	snprintf(idx, sizeof idx, "%s/kb.faiss", dir);
	st = tu_store_create(db, &err);
	cr_assert_eq(ev_store_exec(st,
	    "INSERT INTO documents(doc_id, content_hash) VALUES ('d1', 'h');"
	    "INSERT INTO chunks(id, doc_id, section_id, chunk_index, text, offset_start, offset_end,"
	    " content_hash) VALUES ('d1:s1:0', 'd1', 's1', 0, 'a', 0, 1, 'c0'),"
	    " ('d1:s1:1', 'd1', 's1', 1, 'b', 1, 2, 'c1');", &err), 0, "%s", err.msg);
	ev_err_clear(&err);
	skipped = steps = 0;
}

static void
teardown(void)
{
	ev_store_close(st);
	tu_rmdir(dir);
}

TestSuite(vecinput, .init = setup, .fini = teardown);

static char *
file(const char *name, const void *data, size_t n)
{
	static char path[8][300];	/* the last 8 stay valid */
	static int i;
	char *p = path[i++ % 8];
	FILE *f;

	snprintf(p, 300, "%s/%s", dir, name);
	cr_assert_not_null(f = fopen(p, "wb"));
	cr_assert_eq(fwrite(data, 1, n, f), n);
	fclose(f);
	return p;
}

static int
skip(void *ctx, const struct ev_err *e)
{
	(void)ctx, (void)e;
	skipped++;
	return 1;
}

static void
step(void *ctx, long long bytes)
{
	(void)ctx, (void)bytes;
	steps++;
}

/* Read paths into a new load, and commit it: the vectors the index holds,
 * or -1 when reading failed (err set). */
static long long
load(struct ev_vecinput *L, char **paths, int n)
{
	struct ev_vload_stats stats;
	long long total = -1;

	L->ld = ev_vload_begin(st, idx, NULL, &err);
	cr_assert_not_null(L->ld, "%s", err.msg);
	L->progress = step;
	if (ev_vecinput_read(L, paths, n, &err) == 0) {
		cr_assert_eq(ev_vload_commit(L->ld, &stats, &err), 0, "%s", err.msg);
		total = stats.total;
	}
	ev_vload_free(L->ld);
	ev_vecinput_release(L);
	return total;
}

Test(vecinput, format_names)
{
	cr_assert_eq(ev_vecinput_format("jsonl"), EV_VECINPUT_JSONL);
	cr_assert_eq(ev_vecinput_format("fvecs"), EV_VECINPUT_FVECS);
	cr_assert_eq(ev_vecinput_format("npy"), EV_VECINPUT_NPY);
	cr_assert_eq(ev_vecinput_format("csv"), -1);
	cr_assert_eq(ev_vecinput_format(""), -1);
}

Test(vecinput, json_lines_by_the_fast_reader_and_by_jansson)
{
	/* the second record's extra field sends it through Jansson */
	static const char in[] = "{\"id\":\"d1:s1:0\",\"vector\":[1,0],\"model\":\"m\"}\n\n"
	    "{\"id\":\"d1:s1:1\",\"vector\":[0,1],\"more\":{\"x\":[1]}}\n";
	struct ev_vecinput L = EV_VECINPUT_INIT;
	char *paths[] = { file("v.jsonl", in, sizeof in - 1) };

	L.model = "m";
	cr_assert_eq(load(&L, paths, 1), 2, "%s", err.msg);
	cr_assert_eq(L.read, 2, "a blank line is not a record");
	cr_assert_eq(steps, 2);
}

Test(vecinput, a_record_without_a_model_is_bad_unless_one_is_given)
{
	static const char in[] = "{\"id\":\"d1:s1:0\",\"vector\":[1,0]}\n"
	    "{\"id\":\"d1:s1:1\",\"vector\":[0,1],\"model\":\"m\"}\n";
	struct ev_vecinput L = EV_VECINPUT_INIT;
	char *paths[] = { file("v.jsonl", in, sizeof in - 1) };

	cr_assert_eq(load(&L, paths, 1), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "record has no field 'model' (give --model ID for such records)");
	cr_assert_not_null(strstr(err.where, "v.jsonl:1"), "%s", err.where);

	ev_err_clear(&err);
	L.skip = skip;
	cr_assert_eq(load(&L, paths, 1), 1, "%s", err.msg);
	cr_assert_eq(skipped, 1);
	cr_assert_eq(L.read, 3, "the first run stopped at its first record");
}

Test(vecinput, fvecs_with_ids)
{
	unsigned char buf[2 * (4 + 8)];
	int32_t d = 2;
	float v0[2] = { 1, 0 }, v1[2] = { 0, 1 };
	struct ev_vecinput L = EV_VECINPUT_INIT;
	char *paths[1];

	memcpy(buf, &d, 4), memcpy(buf + 4, v0, 8);
	memcpy(buf + 12, &d, 4), memcpy(buf + 16, v1, 8);
	paths[0] = file("v.fvecs", buf, sizeof buf);
	L.format = EV_VECINPUT_FVECS;
	L.model = "m";
	L.ids = file("ids.txt", "d1:s1:0\nd1:s1:1\n", 16);
	cr_assert_eq(load(&L, paths, 1), 2, "%s", err.msg);

	L.ids = file("ids.txt", "d1:s1:0\n", 8);
	cr_assert_eq(load(&L, paths, 1), -1);
	cr_assert_str_eq(err.msg, "fewer ids (1) than vectors");

	ev_err_clear(&err);
	paths[0] = file("v.fvecs", buf, 20);
	L.ids = file("ids.txt", "d1:s1:0\nd1:s1:1\n", 16);
	cr_assert_eq(load(&L, paths, 1), -1);
	cr_assert_str_eq(err.msg, "truncated vector");
}

Test(vecinput, npy_headers)
{
	static const char good[] = "\x93NUMPY\x01\x00\x46\x00"
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 7), }          \n";
	static const char f8[] = "\x93NUMPY\x01\x00\x46\x00"
	    "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 7), }          \n";
	static const char fortran[] = "\x93NUMPY\x01\x00\x46\x00"
	    "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 7), }           \n";
	static const char three[] = "\x93NUMPY\x01\x00\x46\x00"
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }       \n";
	long long rows = 0, cols = 0;
	FILE *f;

	cr_assert_eq(sizeof good - 1, 10 + 0x46);
	cr_assert_eq(sizeof three - 1, 10 + 0x46);
	f = fmemopen((void *)good, sizeof good - 1, "rb");
	cr_assert_eq(ev_vecinput_npy_header(f, "a.npy", &rows, &cols, &err), 0, "%s", err.msg);
	cr_assert_eq(rows, 3);
	cr_assert_eq(cols, 7);
	fclose(f);
	f = fmemopen((void *)f8, sizeof f8 - 1, "rb");
	cr_assert_eq(ev_vecinput_npy_header(f, "a.npy", &rows, &cols, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_not_null(strstr(err.msg, "little-endian float32"), "%s", err.msg);
	fclose(f);
	f = fmemopen((void *)fortran, sizeof fortran - 1, "rb");
	cr_assert_eq(ev_vecinput_npy_header(f, "a.npy", &rows, &cols, &err), -1);
	cr_assert_str_eq(err.msg, ".npy data must be in C order");
	fclose(f);
	/* a 3-dimensional array was read as its first two dimensions */
	f = fmemopen((void *)three, sizeof three - 1, "rb");
	cr_assert_eq(ev_vecinput_npy_header(f, "a.npy", &rows, &cols, &err), -1);
	cr_assert_str_eq(err.msg, ".npy data must have shape (N, D)");
	fclose(f);
	f = fmemopen((void *)"PK\x03\x04 not npy", 14, "rb");
	cr_assert_eq(ev_vecinput_npy_header(f, "a.npy", &rows, &cols, &err), -1);
	cr_assert_str_eq(err.msg, "not a .npy file");
	fclose(f);
}

/* A .npy header of hdr (its 10 bytes of preamble made here), read. */
static int
npy_read(const char *hdr, long long *rows, long long *cols)
{
	char buf[512];
	size_t n = strlen(hdr);
	FILE *f;
	int r;

	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = (char)n, buf[9] = 0;
	memcpy(buf + 10, hdr, n);
	f = fmemopen(buf, 10 + n, "rb");
	r = ev_vecinput_npy_header(f, "a.npy", rows, cols, &err);
	fclose(f);
	return r;
}

Test(vecinput, npy_header_keys_are_read_as_keys)
{
	static const char *const bad[] = {
		/* '<f4' inside another key's value: the data is '>f8' */
		"{'descr': '>f8', 'x': \"'descr': '<f4'\", 'fortran_order': False, 'shape': (1, 4), }\n",
		"{'descr': '<f8', 'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }\n",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 4), }\n",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4, 2), }\n",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 4), }\n",
		"{'descr': '<f4', 'fortran_order': False}\n",
		"{'descr': '<f4' 'fortran_order': False, 'shape': (1, 4), }\n",
		"'descr': '<f4', 'fortran_order': False, 'shape': (1, 4)\n",
		"{'descr': '<f4', 'fortran_order': 'False', 'shape': (1, 4), }\n",
		NULL
	};
	long long rows = 0, cols = 0;

	for (int i = 0; bad[i]; i++)
		cr_assert_eq(npy_read(bad[i], &rows, &cols), -1, "%s", bad[i]);
	cr_assert_eq(npy_read("{\"shape\":(5,3),\"fortran_order\":False,\"descr\":\"<f4\"}\n", &rows,
	    &cols), 0, "%s", err.msg);
	cr_assert_eq(rows, 5);
	cr_assert_eq(cols, 3);
	cr_assert_eq(npy_read("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 2), }   \n",
	    &rows, &cols), 0, "%s", err.msg);
	cr_assert_eq(rows, 0);
}

Test(vecinput, npy_data_past_its_shape_is_refused)
{
	/* shape (2, 1), but three float32 numbers follow the header: the
	 * third was ignored and the load went ahead */
	static const char in[] = "\x93NUMPY\x01\x00\x46\x00"
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }          \n"
	    "\x00\x00\x80\x3f" "\x00\x00\x80\x3f" "\x00\x00\x80\x3f";
	struct ev_vecinput L = EV_VECINPUT_INIT;
	char *paths[] = { file("v.npy", in, sizeof in - 1) };

	L.format = EV_VECINPUT_NPY;
	L.model = "m";
	L.ids = file("ids.txt", "d1:s1:0\nd1:s1:1\n", 16);
	cr_assert_eq(load(&L, paths, 1), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "the .npy data runs on past its shape (2, 1)");

	/* without the extra number it loads */
	ev_err_clear(&err);
	paths[0] = file("v.npy", in, sizeof in - 1 - 4);
	cr_assert_eq(load(&L, paths, 1), 2, "%s", err.msg);
}
