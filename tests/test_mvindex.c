/* Tests of lib/store/mvload.c, mvindex.c and mvinput.c: multi-vector records loaded into
 * an index (records, mapped vectors, Faiss over the tokens), read back, and
 * bad loads that leave the index as it was. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mvindex.h"
#include "mvinput.h"
#include "mvload.h"
#include "test_util.h"

static char dir[] = "/tmp/evkit-mvindex-XXXXXX";
static char path[256];

static void
setup(void)
{
	tu_mkdir(dir, NULL, 0);
	snprintf(path, sizeof path, "%s/pages.mvi", dir);
}

static void
teardown(void)
{
	tu_rmdir(dir);
}

TestSuite(mvindex, .init = setup, .fini = teardown);

/* Stage a record of n vectors of dim, vector j of it being
 * (base + j, base + j + 1, ...), with extra JSON members. */
static int
add(struct ev_mvload *ld, const char *id, const char *extra, int n, int dim, float base,
	const char *model, struct ev_err *err)
{
	char text[512];
	float v[64 * 8];
	json_t *rec;
	int r;

	snprintf(text, sizeof text, "{\"id\":\"%s\"%s%s}", id, extra ? "," : "", extra ? extra : "");
	rec = json_loads(text, 0, NULL);
	cr_assert_not_null(rec, "%s", text);
	for (int j = 0; j < n; j++)
		for (int d = 0; d < dim; d++)
			v[j * dim + d] = base + (float)j + (float)d;
	r = ev_mvload_add(ld, rec, model, v, n, dim, "t:1", err);
	json_decref(rec);
	return r;
}

static struct ev_mvload *
begin(int reset)
{
	struct ev_mvload_opts o = { .reset = reset };
	struct ev_err err = { 0 };
	struct ev_mvload *ld = ev_mvload_begin(path, &o, &err);

	cr_assert_not_null(ld, "%s", err.msg);
	return ld;
}

static void
commit(struct ev_mvload *ld, struct ev_mvload_stats *stats)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_mvload_commit(ld, stats, &err), 0, "%s", err.msg);
	ev_mvload_free(ld);
}

/* The files in dir, sorted names joined by spaces. */
static void
listing(char *buf, size_t size)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			size_t l = strlen(buf);
			snprintf(buf + l, size - l, "%s%s", l ? " " : "", names[i]->d_name);
		}
		free(names[i]);
	}
	free(names);
}

Test(mvindex, records_read_back_in_id_order_with_their_fields_and_vectors)
{
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload *ld = begin(0);
	struct ev_mvindex *ix;
	const float *v;
	long long n;
	json_t *f;
	char *s;

	cr_assert_eq(add(ld, "p2", "\"doc_id\":\"d1\",\"page\":2", 3, 4, 10, "m1", &err), 0, "%s", err.msg);
	cr_assert_eq(add(ld, "p1", "\"doc_id\":\"d1\",\"page\":1", 2, 4, 0, "m1", &err), 0, "%s", err.msg);
	commit(ld, &stats);
	cr_assert_eq(stats.added, 2);
	cr_assert_eq(stats.records, 2);
	cr_assert_eq(stats.vectors, 5);
	cr_assert_str_eq(stats.factory, "IDMap,Flat");
	cr_assert_str_eq(stats.lane, "visual");

	ix = ev_mvindex_open(path, &err);
	cr_assert_not_null(ix, "%s", err.msg);
	cr_assert_eq(ev_mvindex_records(ix), 2);
	cr_assert_eq(ev_mvindex_vectors(ix), 5);
	cr_assert_eq(ev_mvindex_dim(ix), 4);
	cr_assert_str_eq(ev_mvindex_model(ix), "m1");
	cr_assert_str_eq(ev_mvindex_id(ix, 0), "p1");
	cr_assert_str_eq(ev_mvindex_id(ix, 1), "p2");
	cr_assert_eq(ev_mvindex_find(ix, "p2"), 1);
	cr_assert_eq(ev_mvindex_find(ix, "p3"), -1);
	v = ev_mvindex_record(ix, 1, &n);
	cr_assert_eq(n, 3);
	cr_assert_float_eq(v[0], 10, 0);
	cr_assert_float_eq(v[2 * 4 + 3], 15, 0);	/* vector 2, dimension 3 */
	f = ev_mvindex_fields(ix, 0, &err);
	s = json_dumps(f, JSON_COMPACT);
	cr_assert_str_eq(s, "{\"id\":\"p1\",\"doc_id\":\"d1\",\"page\":1}");
	free(s);
	json_decref(f);
	ev_mvindex_close(ix);
}

Test(mvindex, tokens_found_by_faiss_name_their_records)
{
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload *ld = begin(0);
	struct ev_mvindex *ix;
	float q[4] = { 0, 0, 0, 1 }, scores[2];
	int64_t recs[2];

	cr_assert_eq(add(ld, "a", NULL, 2, 4, 0, "m1", &err), 0);	/* (0,1,2,3), (1,2,3,4) */
	cr_assert_eq(add(ld, "b", NULL, 1, 4, 5, "m1", &err), 0);	/* (5,6,7,8) */
	commit(ld, &stats);
	ix = ev_mvindex_open(path, &err);
	cr_assert_not_null(ix, "%s", err.msg);
	cr_assert_eq(ev_mvindex_search(ix, 1, q, 2, scores, recs, &err), 0, "%s", err.msg);
	cr_assert_eq(recs[0], 1);	/* b's 8 */
	cr_assert_eq(recs[1], 0);	/* a's 4 */
	cr_assert_float_eq(scores[0], 8, 1e-6);
	cr_assert_float_eq(scores[1], 4, 1e-6);
	ev_mvindex_close(ix);
}

Test(mvindex, a_second_load_replaces_by_id_keeps_the_rest_and_removes_the_old_data_file)
{
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload *ld = begin(0);
	struct ev_mvindex *ix;
	char files[1024];
	const float *v;
	long long n;

	cr_assert_eq(add(ld, "a", NULL, 2, 4, 0, "m1", &err), 0);
	cr_assert_eq(add(ld, "b", "\"page\":1", 1, 4, 5, "m1", &err), 0);
	commit(ld, &stats);
	ld = begin(0);
	cr_assert_eq(add(ld, "b", "\"page\":7", 1, 4, 50, "m1", &err), 0);
	cr_assert_eq(add(ld, "c", NULL, 1, 4, 60, "m1", &err), 0);
	cr_assert_eq(add(ld, "c", NULL, 2, 4, 70, "m1", &err), 0);	/* staged again: this one */
	commit(ld, &stats);
	cr_assert_eq(stats.added, 1);
	cr_assert_eq(stats.replaced, 1);
	cr_assert_eq(stats.kept, 1);
	cr_assert_eq(stats.records, 3);
	cr_assert_eq(stats.vectors, 5);

	ix = ev_mvindex_open(path, &err);
	cr_assert_not_null(ix, "%s", err.msg);
	v = ev_mvindex_record(ix, ev_mvindex_find(ix, "a"), &n);
	cr_assert_eq(n, 2);
	cr_assert_float_eq(v[4], 1, 0);
	v = ev_mvindex_record(ix, ev_mvindex_find(ix, "b"), &n);
	cr_assert_eq(n, 1);
	cr_assert_float_eq(v[0], 50, 0);
	v = ev_mvindex_record(ix, ev_mvindex_find(ix, "c"), &n);
	cr_assert_eq(n, 2);
	cr_assert_float_eq(v[0], 70, 0);
	{
		json_t *f = ev_mvindex_fields(ix, ev_mvindex_find(ix, "b"), &err);
		cr_assert_eq(json_integer_value(json_object_get(f, "page")), 7);
		json_decref(f);
	}
	ev_mvindex_close(ix);
	/* one data file: the new one */
	listing(files, sizeof files);
	cr_assert_eq(strstr(files, ".npy") != NULL, 1, "%s", files);
	cr_assert_eq(strstr(strstr(files, ".npy") + 4, ".npy"), NULL, "%s", files);
}

Test(mvindex, reset_drops_the_old_records)
{
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload *ld = begin(0);

	cr_assert_eq(add(ld, "a", NULL, 2, 4, 0, "m1", &err), 0);
	commit(ld, &stats);
	ld = begin(1);
	cr_assert_eq(add(ld, "z", NULL, 1, 8, 0, "m2", &err), 0, "%s", err.msg);	/* other model, dim */
	commit(ld, &stats);
	cr_assert_eq(stats.records, 1);
	cr_assert_eq(stats.kept, 0);
}

Test(mvindex, bad_records_are_refused_and_an_abandoned_load_changes_nothing)
{
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload *ld = begin(0);
	char before[1024], after[1024];
	float inf[4] = { 1, 2, 1.0f / 0.0f, 3 };
	json_t *rec = json_pack("{s:s}", "id", "x");

	cr_assert_eq(add(ld, "a", NULL, 2, 4, 0, "m1", &err), 0);
	commit(ld, &stats);
	listing(before, sizeof before);

	ld = begin(0);
	cr_assert_eq(add(ld, "b", NULL, 1, 3, 0, "m1", &err), -1);
	cr_assert_str_eq(err.msg, "vectors have 3 dimensions, the index 4");
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "t:1");
	cr_assert_eq(add(ld, "b", NULL, 1, 4, 0, "m2", &err), -1);
	cr_assert_str_eq(err.msg, "vectors of model 'm2', the index's are of 'm1' (--reset replaces them all)");
	cr_assert_eq(ev_mvload_add(ld, rec, "m1", inf, 1, 4, "t:2", &err), -1);
	cr_assert_str_eq(err.msg, "vector 1 of record 'x' has a number that is not finite");
	cr_assert_eq(ev_mvload_add(ld, rec, "m1", inf, 0, 4, "t:2", &err), -1);
	cr_assert_str_eq(err.msg, "record 'x' has 0 vectors (1 to 1000000 are accepted)");
	cr_assert_eq(ev_mvload_count(ld), 0);
	cr_assert_eq(add(ld, "b", NULL, 1, 4, 0, "m1", &err), 0);
	ev_mvload_free(ld);	/* not committed */
	json_decref(rec);
	listing(after, sizeof after);
	cr_assert_str_eq(before, after);
}

Test(mvindex, a_file_that_is_not_an_index_is_refused_and_left_alone)
{
	struct ev_mvload_opts o = { .reset = 1 };
	struct ev_err err = { 0 };
	struct stat sb;

	tu_write_file(path, "my notes\n", 9);
	cr_assert_null(ev_mvload_begin(path, &o, &err));
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.msg, "not an evkit multi-vector index; give a new file name or remove it");
	cr_assert_null(ev_mvindex_open(path, &err));
	cr_assert_eq(err.code, 2);
	cr_assert_eq(stat(path, &sb), 0);
	cr_assert_eq(sb.st_size, 9);
	cr_assert_null(ev_mvload_begin(dir, &o, &err));
	cr_assert_eq(err.code, 2);
}

Test(mvindex, a_damaged_data_file_is_refused_and_reset_rebuilds)
{
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload_opts o = { 0 };
	struct ev_mvload *ld = begin(0);
	char files[1024], data[512], *npy;

	cr_assert_eq(add(ld, "a", NULL, 2, 4, 0, "m1", &err), 0);
	commit(ld, &stats);
	listing(files, sizeof files);
	npy = strstr(files, "pages.mvi.");
	while (npy && strstr(npy, ".npy") != npy + strlen("pages.mvi.") + 12)
		npy = strstr(npy + 1, "pages.mvi.");
	cr_assert_not_null(npy, "%s", files);
	snprintf(data, sizeof data, "%s/%.*s", dir, (int)strlen("pages.mvi.") + 16, npy);
	cr_assert_eq(truncate(data, 128 + 4 * 4), 0, "%s", data);	/* one vector of two */

	cr_assert_null(ev_mvindex_open(path, &err));
	cr_assert_eq(err.code, 1);
	cr_assert_not_null(strstr(err.msg, "is damaged: its data file"), "%s", err.msg);
	cr_assert_null(ev_mvload_begin(path, &o, &err));
	cr_assert_not_null(strstr(err.msg, "; --reset builds it anew from the records given"), "%s", err.msg);
	ld = begin(1);
	cr_assert_eq(add(ld, "b", NULL, 1, 4, 0, "m1", &err), 0);
	commit(ld, &stats);
	cr_assert_eq(stats.records, 1);
}

Test(mvindex, the_default_factory_follows_the_number_of_vectors)
{
	char f[64];

	ev_mvload_default_factory(200000, 128, f, sizeof f);
	cr_assert_str_eq(f, "IDMap,Flat");
	ev_mvload_default_factory(10240000, 128, f, sizeof f);
	cr_assert_str_eq(f, "IVF1024,PQ32");
	ev_mvload_default_factory(1000000, 30, f, sizeof f);
	cr_assert_str_eq(f, "IVF256,SQ8");
}

Test(mvindex, an_ivf_index_is_trained_on_the_vectors_and_finds_their_records)
{
	struct ev_mvload_opts o = { .factory = "IVF4,Flat" };
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload *ld = ev_mvload_begin(path, &o, &err);
	struct ev_mvindex *ix;
	unsigned long long s = 42;
	float v[8 * 4], scores[1];
	int64_t recs[1];

	cr_assert_not_null(ld, "%s", err.msg);
	for (int r = 0; r < 100; r++) {
		char id[16];
		json_t *rec;
		snprintf(id, sizeof id, "r%03d", r);
		rec = json_pack("{s:s}", "id", id);
		for (int i = 0; i < 8 * 4; i++)
			v[i] = r == 99 && i >= 7 * 4 ? 10 : (float)(tu_xorshift(&s) % 1000) / 1000.0f - 0.5f;
		cr_assert_eq(ev_mvload_add(ld, rec, "m1", v, 8, 4, "t", &err), 0, "%s", err.msg);
		json_decref(rec);
	}
	commit(ld, &stats);
	cr_assert_str_eq(stats.factory, "IVF4,Flat");
	ix = ev_mvindex_open(path, &err);
	cr_assert_not_null(ix, "%s", err.msg);
	cr_assert_eq(ev_mvindex_set_param(ix, "nprobe", 4, &err), 1);
	/* the last record's last vector, (10, 10, 10, 10), is the nearest */
	for (int i = 0; i < 4; i++)
		v[i] = 1;
	cr_assert_eq(ev_mvindex_search(ix, 1, v, 1, scores, recs, &err), 0, "%s", err.msg);
	cr_assert_eq(recs[0], 99);
	ev_mvindex_close(ix);
}

/* ---- mvinput: the readers ---------------------------------------------------- */

Test(mvindex, bulk_records_take_their_rows_of_the_npy_file)
{
	struct ev_mvinput R = EV_MVINPUT_INIT;
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvindex *ix;
	char npy[300], offs[300], *paths[1] = { offs };
	unsigned char file[128 + 6 * 2 * 4];
	const float *v;
	long long n;

	/* a (6, 2) array, row i = (i, -i) */
	memset(file, ' ', 128);
	memcpy(file, "\x93NUMPY\x01\x00\x76\x00", 10);
	memcpy(file + 10, "{'descr': '<f4', 'fortran_order': False, 'shape': (6, 2), }", 60);
	file[127] = '\n';
	for (int i = 0; i < 6; i++) {
		float row[2] = { (float)i, (float)-i };
		memcpy(file + 128 + i * 8, row, 8);
	}
	snprintf(npy, sizeof npy, "%s/v.npy", dir);
	snprintf(offs, sizeof offs, "%s/o.jsonl", dir);
	tu_write_file(npy, file, sizeof file);
	{
		static const char o[] = "{\"id\":\"x\",\"offset\":4,\"count\":2,\"page\":3}\n"
		    "{\"id\":\"y\",\"offset\":0,\"count\":1}\n";
		tu_write_file(offs, o, sizeof o - 1);
	}
	R.ld = begin(0);
	R.model = "m1";
	R.npy = npy;
	cr_assert_eq(ev_mvinput_read(&R, paths, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(R.read, 2);
	commit(R.ld, &stats);
	ev_mvinput_release(&R);
	ix = ev_mvindex_open(path, &err);
	cr_assert_not_null(ix, "%s", err.msg);
	v = ev_mvindex_record(ix, ev_mvindex_find(ix, "x"), &n);
	cr_assert_eq(n, 2);
	cr_assert_float_eq(v[0], 4, 0);
	cr_assert_float_eq(v[3], -5, 0);
	ev_mvindex_close(ix);

	/* rows beyond the array */
	tu_write_file(offs, "{\"id\":\"z\",\"offset\":5,\"count\":2}\n", 32);
	R = (struct ev_mvinput)EV_MVINPUT_INIT;
	R.ld = begin(0);
	R.model = "m1";
	R.npy = npy;
	cr_assert_eq(ev_mvinput_read(&R, paths, 1, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_not_null(strstr(err.msg, "rows 5 to 6 are not in"), "%s", err.msg);
	cr_assert_not_null(strstr(err.where, "o.jsonl:1"), "%s", err.where);
	ev_mvload_free(R.ld);
	ev_mvinput_release(&R);
}

Test(mvindex, json_records_need_vectors_of_one_dimension)
{
	struct ev_mvinput R = EV_MVINPUT_INIT;
	struct ev_err err = { 0 };
	char in[300], *paths[1] = { in };
	static const char text[] =
	    "{\"id\":\"a\",\"model\":\"m\",\"vectors\":[[1,2],[3,4]],\"doc_id\":\"d\"}\n"
	    "{\"id\":\"b\",\"model\":\"m\",\"vectors\":[[1,2],[3]]}\n";

	snprintf(in, sizeof in, "%s/r.jsonl", dir);
	tu_write_file(in, text, sizeof text - 1);
	R.ld = begin(0);
	cr_assert_eq(ev_mvinput_read(&R, paths, 1, &err), -1);
	cr_assert_str_eq(err.msg, "vector 2 of field 'vectors' has 1 dimensions, the first 2");
	cr_assert_not_null(strstr(err.where, "r.jsonl:2"));
	cr_assert_eq(ev_mvload_count(R.ld), 1);
	ev_mvload_free(R.ld);
	ev_mvinput_release(&R);
}
