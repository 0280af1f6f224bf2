/* Tests of the vector index (lib/store/vfile.c, vload.c, vindex.c,
 * hitfields.c) against real SQLite stores and real Faiss indexes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hitfields.h"
#include "store.h"
#include "test_util.h"
#include "qfilter.h"
#include "vfaiss.h"
#include "vindex.h"
#include "vload.h"

static char dir[] = "/tmp/evkit-vindex-XXXXXX";
static char db[256], idx[256];
static struct ev_store *st;

static void
setup(void)
{
	tu_mkdir(dir, db, sizeof db);
	snprintf(idx, sizeof idx, "%s/kb.faiss", dir);
}

static void
teardown(void)
{
	ev_store_close(st);
	st = NULL;
	tu_rmdir(dir);
}

TestSuite(vindex, .init = setup, .fini = teardown);

/* A store of n chunks "dD:s1:C", two per document dD (metadata topic
 * even/odd by D, published_date 2024-MM-DD). */
static void
make_store(int n)
{
	struct ev_err err = { 0 };
	char sql[2048];

	st = tu_store_create(db, &err);
	snprintf(sql, sizeof sql,
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < (%d + 1) / 2)"
		" INSERT INTO documents(doc_id, title, published_date, metadata, content_hash)"
		" SELECT 'd' || i, 'Document ' || i, printf('2024-%%02d-%%02d', 1 + i / 28, 1 + i %% 28),"
		" json_object('topic', CASE i %% 2 WHEN 0 THEN 'even' ELSE 'odd' END), 'h' || i FROM n;"
		"WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < %d - 1)"
		" INSERT INTO chunks(id, doc_id, section_id, chunk_index, title, text, offset_start,"
		" offset_end, content_hash)"
		" SELECT 'd' || (i / 2 + 1) || ':s1:' || (i %% 2), 'd' || (i / 2 + 1), 's1', i %% 2,"
		" 'Document ' || (i / 2 + 1), 'chunk ' || i, 0, 9, 'c' || i FROM n;", n, n);
	cr_assert_eq(ev_store_exec(st, sql, &err), 0, "%s", err.msg);
}

static void
chunk_id(int i, char *buf, size_t size)
{
	snprintf(buf, size, "d%d:s1:%d", i / 2 + 1, i % 2);
}

/* The index idx of the store, opened; the test fails if it cannot be. */
static struct ev_vindex *
open_ix(void)
{
	struct ev_err err = { 0 };
	struct ev_vindex *ix = ev_vindex_open(st, idx, &err);

	cr_assert_not_null(ix, "%s", err.msg);
	return ix;
}

/* Records model as the store's own (as ev-embed --train does). */
static void
set_model(const char *model)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_store_meta_set(st, "embed.model", model, &err), 0, "%s", err.msg);
}

/* Deterministic pseudo-random unit vectors. */
static unsigned long long rng = 88172645463325252ULL;

static float
rnd(void)
{
	return (float)((double)(tu_xorshift(&rng) >> 11) / 9007199254740992.0 * 2 - 1);
}

static void
random_unit(float *v, int dim)
{
	double n = 0;

	for (int i = 0; i < dim; i++) {
		v[i] = rnd();
		n += (double)v[i] * v[i];
	}
	for (int i = 0; i < dim; i++)
		v[i] = (float)(v[i] / sqrt(n));
}

/* Load vectors[0..n) for chunks 0..n-1 with factory (NULL: default). */
static void
load(const float *vectors, int n, int dim, const char *model, const char *factory,
	struct ev_vload_stats *stats)
{
	struct ev_err err = { 0 };
	struct ev_vload_opts o = { .factory = factory };
	struct ev_vload *ld = ev_vload_begin(st, idx, &o, &err);
	char id[64];

	cr_assert_not_null(ld, "%s", err.msg);
	for (int i = 0; i < n; i++) {
		chunk_id(i, id, sizeof id);
		cr_assert_eq(ev_vload_add(ld, id, NULL, model, vectors + (size_t)i * dim, dim, "t", &err), 0,
			"%s", err.msg);
	}
	cr_assert_eq(ev_vload_commit(ld, stats, &err), 0, "%s", err.msg);
	ev_vload_free(ld);
}

/* A store of n chunks, loaded with n random unit vectors v[0..n*dim) of
 * model m1 (the vectors are filled in) by factory (NULL: default). */
static void
load_random(float *v, int n, int dim, const char *factory, struct ev_vload_stats *stats)
{
	make_store(n);
	for (int i = 0; i < n; i++)
		random_unit(v + (size_t)i * dim, dim);
	load(v, n, dim, "m1", factory, stats);
}

/* A store of 2 chunks, loaded with the vectors (1, 0) and (0, 1) of model m1. */
static void
make_pair(void)
{
	static const float v[2 * 2] = { 1, 0, 0, 1 };
	struct ev_vload_stats stats;

	make_store(2);
	load(v, 2, 2, "m1", NULL, &stats);
}

/* The k best of n vectors for q by brute force (ties to the lower rowid). */
static void
brute_force(const float *vectors, int n, int dim, const float *q, int k, int64_t *best)
{
	float *s = malloc(n * sizeof *s);

	for (int i = 0; i < n; i++) {
		s[i] = 0;
		for (int j = 0; j < dim; j++)
			s[i] += vectors[(size_t)i * dim + j] * q[j];
	}
	for (int r = 0; r < k; r++) {
		int b = -1;
		for (int i = 0; i < n; i++)
			if (s[i] > -1e30f && (b < 0 || s[i] > s[b]))
				b = i;
		best[r] = b + 1;	/* rowids start at 1 */
		s[b] = -1e31f;
	}
	free(s);
}

static long long
stored_count(void)
{
	struct ev_err err = { 0 };
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT count(*) FROM vec_vectors", &err);
	long long n;

	cr_assert_not_null(s);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	n = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return n;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p;
	long n;

	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	p = malloc(n + 1);
	cr_assert_eq(fread(p, 1, n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

Test(vindex, exact_search_gives_the_brute_force_neighbours)
{
	enum { N = 600, D = 24, Q = 25, K = 10 };
	float *v = malloc(sizeof(float) * N * D), q[Q * D], sc[Q * K];
	int64_t ids[Q * K], want[K];
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;

	load_random(v, N, D, NULL, &stats);
	cr_assert_eq(stats.added, N);
	cr_assert_eq(stats.total, N);
	cr_assert_str_eq(stats.factory, "IDMap,Flat");
	ix = open_ix();
	cr_assert_eq(ev_vindex_dim(ix), D);
	cr_assert_eq(ev_vindex_count(ix), N);
	cr_assert_str_eq(ev_vindex_model(ix), "m1");
	for (int i = 0; i < Q; i++)
		random_unit(q + i * D, D);
	cr_assert_eq(ev_vindex_search(ix, Q, q, K, sc, ids, &err), 0, "%s", err.msg);
	for (int i = 0; i < Q; i++) {
		brute_force(v, N, D, q + i * D, K, want);
		for (int r = 0; r < K; r++)
			cr_assert_eq(ids[i * K + r], want[r], "query %d rank %d: %lld, want %lld", i, r,
				(long long)ids[i * K + r], (long long)want[r]);
		for (int r = 1; r < K; r++)
			cr_assert_geq(sc[i * K + r - 1], sc[i * K + r]);
	}
	ev_vindex_close(ix);
	free(v);
}

Test(vindex, a_chunk_loaded_again_replaces_its_vector)
{
	float v[4 * 4] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	float w[4] = { 0, 0, 0, 3 };	/* chunk 0 now points where chunk 3 does */
	float sc[4];
	int64_t ids[4];
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;

	make_store(4);
	load(v, 4, 4, "m1", NULL, &stats);
	load(w, 1, 4, "m1", NULL, &stats);
	cr_assert_eq(stats.added, 0);
	cr_assert_eq(stats.replaced, 1);
	cr_assert_eq(stats.total, 4);
	cr_assert_eq(stats.rebuilt, 0);	/* a Flat index is updated in place */
	cr_assert_eq(stored_count(), 4);
	ix = open_ix();
	{
		float u[4] = { 0, 0, 0, 1 };
		cr_assert_eq(ev_vindex_search(ix, 1, u, 4, sc, ids, &err), 0);
		cr_assert_eq(ids[0], 1);	/* chunk 0 (rowid 1), scaled to unit length */
		cr_assert_eq(ids[1], 4);
		cr_assert_float_eq(sc[0], 1.0f, 1e-6);
		cr_assert_float_eq(sc[1], 1.0f, 1e-6);
		cr_assert_float_eq(sc[2], 0.0f, 1e-6);
	}
	ev_vindex_close(ix);
}

Test(vindex, tombstoned_and_changed_chunks_lose_their_vectors)
{
	float v[6 * 2] = { 1, 0, 0, 1, 1, 1, -1, 0, 0, -1, 1, -1 };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;

	make_store(6);
	load(v, 6, 2, "m1", NULL, &stats);
	cr_assert_eq(ev_store_exec(st, "INSERT INTO chunk_tombstones VALUES (2);"
		"UPDATE chunks SET content_hash = 'new' WHERE rowid = 5;"
		"DELETE FROM chunks WHERE rowid = 6;", &err), 0, "%s", err.msg);
	load(NULL, 0, 2, "m1", NULL, &stats);
	cr_assert_eq(stats.removed, 3);
	cr_assert_eq(stats.total, 3);
	cr_assert_eq(stored_count(), 3);
	{
		sqlite3_stmt *s = ev_store_prepare(st, "SELECT count(*) FROM chunk_tombstones", &err);
		cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
		cr_assert_eq(sqlite3_column_int(s, 0), 0, "tombstones are cleared");
		sqlite3_reset(s);
	}
	ix = open_ix();
	cr_assert_eq(ev_vindex_count(ix), 3);
	{
		float q[2] = { 0.8944272f, 0.4472136f }, sc[6];
		int64_t ids[6];
		cr_assert_eq(ev_vindex_search(ix, 1, q, 6, sc, ids, &err), 0);
		cr_assert_eq(ids[0], 3);	/* (1,1) */
		cr_assert_eq(ids[1], 1);
		cr_assert_eq(ids[2], 4);
		cr_assert_eq(ids[3], -1);
	}
	ev_vindex_close(ix);
}

/* Try to stage one bad vector; check the message; the store and the index
 * file stay byte for byte as they were. */
static void
refused(const char *id, const char *model, const float *v, int dim, const char *want)
{
	struct ev_err err = { 0 };
	struct ev_vload *ld = ev_vload_begin(st, idx, NULL, &err);

	cr_assert_not_null(ld, "%s", err.msg);
	cr_assert_eq(ev_vload_add(ld, id, NULL, model, v, dim, "in.jsonl:7", &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "in.jsonl:7");
	cr_assert_str_eq(err.msg, want);
	ev_vload_free(ld);
}

Test(vindex, bad_vectors_are_refused_naming_both_sides_and_change_nothing)
{
	float v[3 * 3] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, two[2] = { 1, 1 };
	float nan4[3] = { 1, NAN, 0 }, inf[3] = { INFINITY, 0, 0 };
	struct ev_vload_stats stats;
	char *before, *after;
	size_t n1, n2;

	make_store(3);
	load(v, 3, 3, "m1", NULL, &stats);
	before = slurp(idx, &n1);
	refused("d1:s1:0", "m1", two, 2, "vector has 2 dimensions, but the index has 3");
	refused("d1:s1:0", "m2", v, 3, "vector of model 'm2', but the index holds model 'm1' "
		"(after retraining, load every vector again with --reset)");
	{
		struct ev_err err = { 0 };
		struct ev_vload *ld = ev_vload_begin(st, idx, NULL, &err);
		char want[512];
		cr_assert_eq(ev_vload_add(ld, "d9:s1:0", NULL, "m1", v, 3, "in.jsonl:8", &err), -1);
		snprintf(want, sizeof want, "unknown chunk 'd9:s1:0' (not in store '%s'; ingest it first)",
			db);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.msg, want);
		ev_vload_free(ld);
	}
	refused("d1:s1:0", "m1", nan4, 3, "component 1 of the vector is not a finite number");
	refused("d1:s1:0", "m1", inf, 3, "component 0 of the vector is not a finite number");
	after = slurp(idx, &n2);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(before, after, n1), 0);
	cr_assert_eq(stored_count(), 3);
	free(before);
	free(after);
}

Test(vindex, a_new_batch_is_checked_against_its_first_vector)
{
	float a[3] = { 1, 0, 0 }, b[2] = { 1, 0 };
	struct ev_err err = { 0 };
	struct ev_vload *ld;

	make_store(4);
	ld = ev_vload_begin(st, idx, NULL, &err);
	cr_assert_eq(ev_vload_add(ld, "d1:s1:0", NULL, "m1", a, 3, "x:1", &err), 0);
	cr_assert_eq(ev_vload_add(ld, "d1:s1:1", NULL, "m1", b, 2, "x:2", &err), -1);
	cr_assert_str_eq(err.msg, "vector has 2 dimensions, but the first vector of this input has 3");
	cr_assert_eq(ev_vload_add(ld, "d1:s1:1", NULL, "m2", a, 3, "x:3", &err), -1);
	cr_assert_str_eq(err.msg,
		"vector of model 'm2', but the first vector of this input is of model 'm1'");
	ev_vload_free(ld);
	cr_assert_eq(access(idx, F_OK), -1, "nothing was written");
}

Test(vindex, a_failed_load_leaves_the_old_index_usable)
{
	enum { N = 40, D = 8 };
	float v[N * D], q[D], sc[3];
	int64_t ids[3];
	struct ev_vload_stats stats;
	struct ev_vload_opts o = { .factory = "IVF64,Flat" };	/* 40 points cannot train 64 lists */
	struct ev_err err = { 0 };
	struct ev_vload *ld;
	struct ev_vindex *ix;
	char *before, *after, tmp[300];
	size_t n1, n2;

	load_random(v, N, D, NULL, &stats);
	before = slurp(idx, &n1);
	/* A crash between writing the temporary file and the rename leaves one
	 * behind: the index itself is untouched and still loads. */
	snprintf(tmp, sizeof tmp, "%s.tmp.999999", idx);
	tu_write_file(tmp, "half-written", 12);
	ld = ev_vload_begin(st, idx, &o, &err);
	cr_assert_not_null(ld, "%s", err.msg);
	random_unit(q, D);
	cr_assert_eq(ev_vload_add(ld, "d1:s1:0", NULL, "m1", q, D, "x:1", &err), 0);
	cr_assert_eq(ev_vload_commit(ld, &stats, &err), -1);
	cr_assert(strstr(err.msg, "training the index") != NULL, "%s", err.msg);
	ev_vload_free(ld);
	after = slurp(idx, &n2);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(before, after, n1), 0);
	ix = open_ix();
	cr_assert_eq(ev_vindex_search(ix, 1, v, 3, sc, ids, &err), 0);
	cr_assert_eq(ids[0], 1, "chunk 0 keeps its old vector");
	ev_vindex_close(ix);
	free(before);
	free(after);
}

Test(vindex, hnsw_cannot_remove_so_an_update_rebuilds)
{
	enum { N = 300, D = 16 };
	float v[N * D], sc[1];
	int64_t ids[1];
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;

	load_random(v, N, D, "HNSW16", &stats);
	cr_assert_str_eq(stats.factory, "HNSW16");
	memcpy(v, v + 7 * D, sizeof(float) * D);	/* chunk 0 now equals chunk 7 */
	load(v, 1, D, "m1", NULL, &stats);
	cr_assert_eq(stats.rebuilt, 1);
	cr_assert_str_eq(stats.factory, "HNSW16", "the index keeps its factory");
	cr_assert_eq(stats.total, N);
	ix = open_ix();
	cr_assert_eq(ev_vindex_set_param(ix, "efSearch", 64, &err), 1);
	cr_assert_eq(ev_vindex_search(ix, 1, v + 3 * D, 1, sc, ids, &err), 0);
	cr_assert_eq(ids[0], 4);
	ev_vindex_close(ix);
}

Test(vindex, an_index_out_of_step_with_its_store_is_refused)
{
	float v[2 * 2] = { 1, 0, 0, 1 };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	char old[300], cmd[700], want[2048];

	make_pair();
	snprintf(old, sizeof old, "%s/old.faiss", dir);
	snprintf(cmd, sizeof cmd, "cp %s %s", idx, old);
	cr_assert_eq(system(cmd), 0);
	load(v, 1, 2, "m1", NULL, &stats);
	cr_assert_null(ev_vindex_open(st, old, &err));
	cr_assert_eq(err.code, 1);
	snprintf(want, sizeof want, "index '%s' is out of date with store '%s' (load 1, the store is at "
		"load 2): run ev-embed-load --db %s --index %s < /dev/null to rebuild it", old, db, db,
		old);
	cr_assert_str_eq(err.msg, want);
}

Test(vindex, retraining_the_stores_model_makes_its_index_stale)
{
	float v[2 * 2] = { 1, 0, 0, 1 };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;

	make_store(2);
	set_model("lsa2-aaaa");
	load(v, 2, 2, "lsa2-aaaa", NULL, &stats);
	ix = open_ix();
	ev_vindex_close(ix);
	set_model("lsa2-bbbb");
	cr_assert_null(ev_vindex_open(st, idx, &err));
	cr_assert(strstr(err.msg, "stale index '") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "holds vectors of model 'lsa2-aaaa' but the store's model is now "
		"'lsa2-bbbb' (retrained); run 'ev-embed --db") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "--pending | ev-embed-load --db") != NULL, "%s", err.msg);
	cr_assert_eq(err.code, 1);
}

Test(vindex, a_load_of_the_retrained_model_replaces_the_stale_vectors)
{
	float v[3 * 2] = { 1, 0, 0, 1, 1, 1 }, w[1 * 2] = { 0, 1 };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vload *ld;
	struct ev_vindex *ix;

	make_store(3);
	set_model("lsa2-aaaa");
	load(v, 3, 2, "lsa2-aaaa", NULL, &stats);
	set_model("lsa2-bbbb");
	/* another model than the store's new one is still refused */
	ld = ev_vload_begin(st, idx, NULL, &err);
	cr_assert_not_null(ld, "%s", err.msg);
	cr_assert_eq(ev_vload_add(ld, "d1:s1:0", NULL, "other", w, 2, "t", &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert(strstr(err.msg, "stale since the store's model was retrained as 'lsa2-bbbb'"),
		"%s", err.msg);
	ev_vload_free(ld);
	/* the new model's vector of one chunk replaces all three */
	load(w, 1, 2, "lsa2-bbbb", NULL, &stats);
	cr_assert_str_eq(stats.replaced_model, "lsa2-aaaa");
	cr_assert_eq(stats.total, 1);
	ix = open_ix();
	cr_assert_str_eq(ev_vindex_model(ix), "lsa2-bbbb");
	ev_vindex_close(ix);
}

Test(vindex, pending_names_the_chunks_without_a_vector_of_the_model)
{
	float v[3 * 2] = { 1, 0, 0, 1, 1, 1 };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	int64_t *ids;
	size_t n;

	make_store(5);
	/* no vectors at all (no vec_vectors table yet): every chunk */
	cr_assert_eq(ev_vfile_pending(st, "m1", &ids, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 5);
	cr_assert_eq(ids[0], 1);
	cr_assert_eq(ids[4], 5);
	free(ids);
	load(v, 3, 2, "m1", NULL, &stats);
	cr_assert_eq(ev_vfile_pending(st, "m1", &ids, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 2);
	cr_assert_eq(ids[0], 4);
	cr_assert_eq(ids[1], 5);
	free(ids);
	/* a vector made from other content is pending too */
	cr_assert_eq(ev_store_exec(st, "UPDATE chunks SET content_hash = 'new' WHERE rowid = 2",
		&err), 0);
	cr_assert_eq(ev_vfile_pending(st, "m1", &ids, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 3);
	cr_assert_eq(ids[0], 2);
	free(ids);
	/* for another model, every chunk */
	cr_assert_eq(ev_vfile_pending(st, "m2", &ids, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 5);
	free(ids);
}

Test(vindex, vectors_of_an_outside_model_do_not_go_stale)
{
	float v[2 * 2] = { 1, 0, 0, 1 };
	struct ev_vload_stats stats;
	struct ev_vindex *ix;

	make_store(2);
	set_model("lsa2-aaaa");
	load(v, 2, 2, "external-model", NULL, &stats);
	set_model("lsa2-bbbb");
	ix = open_ix();
	ev_vindex_close(ix);
}

Test(vindex, an_index_of_another_store_is_refused)
{
	struct ev_err err = { 0 };
	char cmd[1200];

	make_pair();
	cr_assert_eq(ev_store_meta_set(st, "vindex.store_id", "0123", &err), 0);
	cr_assert_null(ev_vindex_open(st, idx, &err));
	snprintf(cmd, sizeof cmd, "index '%s' belongs to another store than '%s'; give the index "
		"that ev-embed-load --db %s built", idx, db, db);
	cr_assert_str_eq(err.msg, cmd);
	cr_assert_eq(err.code, 2);
}

Test(vindex, a_damaged_index_of_ours_is_a_failure_with_the_rebuild_command)
{
	float v[2 * 2] = { 1, 0, 0, 1 };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	char want[2000];

	struct stat sb;
	off_t full;

	make_pair();
	cr_assert_eq(stat(idx, &sb), 0);
	full = sb.st_size;
	cr_assert_eq(truncate(idx, 200), 0);
	cr_assert_null(ev_vindex_open(st, idx, &err));
	cr_assert_eq(err.code, 1);
	snprintf(want, sizeof want, "index '%s' is damaged: it has 200 bytes, the store recorded "
		"%lld when it was written; rebuild it from the stored vectors with ev-embed-load "
		"--db %s --index %s < /dev/null", idx, (long long)full, db, idx);
	cr_assert_str_eq(err.msg, want);
	load(v, 0, 2, "m1", NULL, &stats);	/* the load rewrites it */
	cr_assert_eq(stats.rebuilt, 1);
	ev_vindex_close(ev_vindex_open(st, idx, &err));
	cr_assert_eq(err.code, 1);	/* unchanged: the open above succeeded */
}

Test(vindex, a_file_that_is_not_an_index_is_refused)
{
	struct ev_err err = { 0 };
	char want[400];

	make_pair();
	tu_write_file(idx, "hello\n", 6);
	cr_assert_null(ev_vindex_open(st, idx, &err));
	cr_assert_eq(err.code, 2);
	snprintf(want, sizeof want, "'%s' is not an evkit vector index (made by ev-embed-load)", idx);
	cr_assert_str_eq(err.msg, want);
}

Test(vindex, a_zero_vector_leaves_its_chunk_without_one)
{
	float z[2] = { 0, 0 };
	struct ev_vload_stats stats;

	make_pair();
	load(z, 1, 2, "m1", NULL, &stats);
	cr_assert_eq(stats.zero, 1);
	cr_assert_eq(stats.removed, 1);
	cr_assert_eq(stats.total, 1);
	cr_assert_eq(stored_count(), 1);
}

Test(vindex, filtered_search_returns_k_allowed_hits_exactly_or_by_searching_deeper)
{
	enum { N = 20000, D = 4, K = 20 };
	float *v = malloc(sizeof(float) * N * D), q[D], sc[K];
	int64_t ids[K], *allowed, want[K];
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;
	json_t *f;
	size_t n;
	int m;

	load_random(v, N, D, NULL, &stats);
	ix = open_ix();
	random_unit(q, D);
	/* 10000 chunks allowed: more than are scored exactly, so Faiss goes deeper. */
	f = json_pack("{s:{s:s}}", "metadata", "topic", "even");
	cr_assert_eq(ev_qfilter_rowids(st, f, "q:1", &allowed, &n, &err), 0);
	json_decref(f);
	cr_assert_eq(n, N / 2);
	cr_assert_eq(ev_vindex_search_among(ix, q, K, allowed, n, sc, ids, &m, &err), 0);
	cr_assert_eq(m, K);
	{
		/* brute force among the even documents' chunks */
		float *ev = malloc(sizeof(float) * N / 2 * D);
		for (size_t i = 0; i < n; i++)
			memcpy(ev + i * D, v + (allowed[i] - 1) * D, sizeof(float) * D);
		brute_force(ev, (int)n, D, q, K, want);
		for (int r = 0; r < K; r++)
			cr_assert_eq(ids[r], allowed[want[r] - 1], "rank %d", r);
		free(ev);
	}
	/* Three chunks allowed: scored exactly, fewer than k hits. */
	cr_assert_eq(ev_vindex_search_among(ix, q, K, (int64_t[]){ 5, 6, 7 }, 3, sc, ids, &m, &err), 0);
	cr_assert_eq(m, 3);
	for (int r = 1; r < m; r++)
		cr_assert_geq(sc[r - 1], sc[r]);
	free(allowed);
	ev_vindex_close(ix);
	free(v);
}

Test(vindex, chunk_fields_for_a_hit)
{
	struct ev_err err = { 0 };
	json_t *o = json_object();
	char *text = NULL, *s;

	make_store(2);
	cr_assert_eq(ev_hitfields_add(st, 2, o, &text, &err), 1);
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	cr_assert_str_eq(s, "{\"chunk_index\":1,\"content_hash\":\"c1\",\"doc_id\":\"d1\","
		"\"id\":\"d1:s1:1\",\"metadata\":{\"topic\":\"odd\"},\"offset_end\":9,\"offset_start\":0,"
		"\"published_date\":\"2024-01-02\",\"section_id\":\"s1\",\"section_path\":null,\"section_title\":null,\"source_uri\":null,"
		"\"title\":\"Document 1\"}");
	cr_assert_str_eq(text, "chunk 1");
	free(text);
	cr_assert_eq(ev_hitfields_add(st, 99, o, &text, &err), 0);
	free(s);
	json_decref(o);
}

Test(vindex, chunk_fields_as_json_text_parse_to_the_same_object)
{
	struct ev_err err = { 0 };
	struct ev_buf b = EV_BUF_INIT;
	json_t *o = json_object(), *p, *m;
	char *text = NULL;
	size_t meta;

	make_store(2);
	cr_assert_eq(ev_store_exec(st, "UPDATE chunks SET title = 'say \"hi\"\n\\' WHERE rowid = 1",
		&err), 0);
	cr_assert_eq(ev_hitfields_add(st, 1, o, &text, &err), 1);
	free(text);
	ev_buf_addc(&b, '{');
	cr_assert_eq(ev_hitfields_json(st, 1, &b, &text, &meta, &err), 1);
	m = json_loads(b.p + meta, 0, NULL);	/* the metadata, last */
	cr_assert(json_equal(m, json_object_get(o, "metadata")), "%s", b.p + meta);
	json_decref(m);
	ev_buf_addc(&b, '}');
	cr_assert_str_eq(text, "chunk 0");
	p = json_loads(ev_buf_str(&b), 0, NULL);
	cr_assert_not_null(p, "%s", ev_buf_str(&b));
	cr_assert(json_equal(o, p), "%s", ev_buf_str(&b));
	ev_buf_reset(&b);
	cr_assert_eq(ev_hitfields_json(st, 99, &b, NULL, &meta, &err), 0);
	cr_assert_eq(meta, 0);
	free(text);
	json_decref(o);
	json_decref(p);
	ev_buf_release(&b);
}

Test(vindex, a_clauses_chunk_fields_carry_its_clause_id_in_the_documents_metadata)
{
	struct ev_err err = { 0 };
	struct ev_buf b = EV_BUF_INIT;
	json_t *o = json_object(), *p;
	char *text = NULL, *d;
	size_t meta;

	make_store(4);
	/* the document's own clause_id (its key escaped) replaced where it stands */
	cr_assert_eq(ev_store_exec(st, "UPDATE chunks SET section_path = 'Housing > 1.2(a)';"
		" UPDATE documents SET metadata = '{ \"topic\" : \"odd\", \"clause\\u005fid\": \"x\" ,"
		" \"n\": 1.50 }' WHERE doc_id = (SELECT doc_id FROM chunks WHERE rowid = 2);"
		" UPDATE documents SET metadata = NULL WHERE doc_id = (SELECT doc_id FROM chunks"
		" WHERE rowid = 3)", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_hitfields_json(st, 2, &b, NULL, &meta, &err), 1);
	cr_assert_str_eq(ev_buf_str(&b) + meta, "{\"topic\":\"odd\",\"clause_id\":\"1.2(a)\",\"n\":1.5}");
	cr_assert_eq(ev_hitfields_add(st, 2, o, &text, &err), 1);
	free(text);
	d = json_dumps(json_object_get(o, "metadata"), JSON_COMPACT);
	cr_assert_str_eq(d, ev_buf_str(&b) + meta);
	free(d);
	/* a document without metadata: the clause id alone */
	ev_buf_reset(&b);
	cr_assert_eq(ev_hitfields_json(st, 3, &b, NULL, &meta, &err), 1);
	cr_assert_str_eq(ev_buf_str(&b) + meta, "{\"clause_id\":\"1.2(a)\"}");
	/* and nothing for a chunk that is no clause's */
	cr_assert_eq(ev_store_exec(st, "UPDATE chunks SET section_path = 'Housing > 1.2 and more'",
		&err), 0);
	ev_buf_reset(&b);
	cr_assert_eq(ev_hitfields_json(st, 3, &b, NULL, &meta, &err), 1);
	cr_assert_eq(meta, 0);
	p = NULL;
	cr_assert_eq(ev_hitfields_clause("Housing > 1.2 and more", &p), 0);
	cr_assert_null(p);
	cr_assert_eq(ev_hitfields_clause(NULL, &p), 0);
	cr_assert_null(p);
	json_decref(o);
	ev_buf_release(&b);
}

Test(vindex, two_loads_begun_together_both_land)
{
	float v[4 * 2] = { 1, 0, 0, 1, 1, 1, -1, 0 };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vload *a, *b;
	struct ev_vindex *ix;

	make_store(4);
	load(v, 2, 2, "m1", NULL, &stats);
	a = ev_vload_begin(st, idx, NULL, &err);
	b = ev_vload_begin(st, idx, NULL, &err);
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	cr_assert_eq(ev_vload_add(a, "d2:s1:0", NULL, "m1", v + 4, 2, "a:1", &err), 0);
	cr_assert_eq(ev_vload_commit(a, &stats, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_vload_add(b, "d2:s1:1", NULL, "m1", v + 6, 2, "b:1", &err), 0);
	cr_assert_eq(ev_vload_commit(b, &stats, &err), 0, "%s", err.msg);
	ev_vload_free(a);
	ev_vload_free(b);
	cr_assert_eq(stats.total, 4);
	ix = open_ix();
	cr_assert_eq(ev_vindex_count(ix), 4);
	ev_vindex_close(ix);
}

/* ---- Allocation failures --------------------------------------------------
 * This test program's malloc, calloc and realloc stand in for the C
 * library's (for Jansson, SQLite and Faiss's operator new too); while armed,
 * the oom_at-th allocation fails.  Not under AddressSanitizer, which must own
 * malloc itself (it aborts at start-up otherwise); make alloc covers the
 * same failures for the built commands. */
#if !defined(__SANITIZE_ADDRESS__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static long oom_at, oom_count;
static int oom_armed;

static int
oom_now(void)
{
	return oom_armed && ++oom_count == oom_at;
}

void *
malloc(size_t n)
{
	return oom_now() ? NULL : __libc_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	return oom_now() ? NULL : __libc_calloc(n, size);
}

void *
realloc(void *p, size_t n)
{
	return oom_now() ? NULL : __libc_realloc(p, n);
}

static void
oom_arm(long at)
{
	oom_count = 0;
	oom_at = at;
	oom_armed = 1;
}

/* Open the index and search it for q, the oom_at-th allocation failing
 * (0: none).  Returns 0 with ids[0..5) set, or -1 with *err set. */
static int
open_and_search_failing_at(long at, const float *q, int64_t *ids, struct ev_err *err)
{
	struct ev_vindex *ix;
	float scores[5];
	int r = -1;

	oom_arm(at);
	if ((ix = ev_vindex_open(st, idx, err)) != NULL)
		r = ev_vindex_search(ix, 1, q, 5, scores, ids, err);
	ev_vindex_close(ix);
	oom_armed = 0;
	return r == -1 ? -1 : 0;
}

/* Regressions (findings F13, F16): memory running out while the index was
 * read was reported as "damaged evkit vector index header" (exit 2) or with
 * an empty message, and a std::bad_alloc thrown inside Faiss escaped the C
 * API and aborted the program.  Now every failure is a runtime error (code
 * 1) with a message, and a search that succeeds gives the right hits. */
Test(vindex, out_of_memory_while_opening_or_searching_is_a_runtime_error)
{
	float v[20 * 8], q[8];
	int64_t want[5], got[5];
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	long n, total;

	make_store(20);
	for (int i = 0; i < 20; i++)
		random_unit(v + i * 8, 8);
	random_unit(q, 8);
	load(v, 20, 8, "m1", NULL, &stats);
	cr_assert_eq(open_and_search_failing_at(0, q, want, &err), 0, "%s", err.msg);
	total = oom_count;
	cr_assert_gt(total, 10);
	for (n = 1; n <= total; n++) {
		struct ev_err e = { 0 };

		if (open_and_search_failing_at(n, q, got, &e) == -1) {
			cr_assert_eq(e.code, EV_EXIT_RUNTIME, "N=%ld: code %d: %s", n, e.code, e.msg);
			cr_assert_neq(e.msg[0], '\0', "N=%ld: no message", n);
			cr_assert_null(strstr(e.msg, "damaged"), "N=%ld: %s", n, e.msg);
			continue;
		}
		cr_assert_arr_eq(got, want, sizeof want, "N=%ld: other hits", n);
	}
}

/* Regression (finding F16): a std::bad_alloc inside Faiss aborted a load
 * ("terminate called after throwing an instance of 'std::bad_alloc'").
 * Now a load that runs out of memory anywhere fails with code 1 and leaves
 * the store's vectors and the index file as they were. */
Test(vindex, out_of_memory_while_loading_fails_cleanly_and_changes_nothing)
{
	float v[12 * 4], w[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	size_t len0, len;
	char *before, *after;
	long n, total = 0;

	make_store(12);
	for (int i = 0; i < 12; i++)
		random_unit(v + i * 4, 4);
	load(v, 12, 4, "m1", NULL, &stats);
	before = slurp(idx, &len0);
	for (n = 0; n == 0 || n <= total; n++) {
		struct ev_vload_opts o = { 0 };
		struct ev_vload *ld;
		int r = -1;

		ev_err_clear(&err);
		oom_arm(n);
		/* chunk 0 gets another vector: an update in place */
		if ((ld = ev_vload_begin(st, idx, &o, &err)) != NULL &&
		    ev_vload_add(ld, "d1:s1:0", NULL, "m1", w, 4, "t:1", &err) == 0)
			r = ev_vload_commit(ld, &stats, &err);
		ev_vload_free(ld);
		oom_armed = 0;
		if (n == 0) {
			cr_assert_eq(r, 0, "%s", err.msg);
			total = oom_count;
			cr_assert_gt(total, 10);
			/* put the first vector back for the runs that fail */
			load(v, 12, 4, "m1", NULL, &stats);
			free(before);
			before = slurp(idx, &len0);
			continue;
		}
		if (r == 0) {	/* it got through: whole, then restore the vector */
			sqlite3_stmt *q = ev_store_prepare(st, "SELECT count(*) FROM vec_vectors v"
				" JOIN chunks c ON c.rowid = v.rowid WHERE v.content_hash IS c.content_hash",
				&err);
			cr_assert_not_null(q);
			cr_assert_eq(sqlite3_step(q), SQLITE_ROW);
			cr_assert_eq(sqlite3_column_int64(q, 0), 12, "N=%ld: a vector staged without "
				"its chunk's content hash", n);
			sqlite3_reset(q);
			load(v, 12, 4, "m1", NULL, &stats);
			free(before);
			before = slurp(idx, &len0);
			continue;
		}
		cr_assert_eq(err.code, EV_EXIT_RUNTIME, "N=%ld: code %d: %s", n, err.code, err.msg);
		cr_assert_neq(err.msg[0], '\0', "N=%ld: no message", n);
		after = slurp(idx, &len);
		cr_assert(len == len0 && memcmp(after, before, len) == 0, "N=%ld: index changed", n);
		free(after);
		cr_assert_eq(stored_count(), 12, "N=%ld", n);
	}
	free(before);
}
#endif /* !__SANITIZE_ADDRESS__ */

Test(vindex, the_default_factory_is_flat_then_an_inverted_file_of_at_most_4_sqrt_n_lists)
{
	char f[64];

	ev_vload_default_factory(1000, f, sizeof f);
	cr_assert_str_eq(f, "IDMap,Flat");
	ev_vload_default_factory(EV_VLOAD_FLAT_MAX, f, sizeof f);
	cr_assert_str_eq(f, "IDMap,Flat");
	ev_vload_default_factory(EV_VLOAD_FLAT_MAX + 1, f, sizeof f);
	cr_assert_str_eq(f, "IVF1024,Flat");	/* 4 sqrt = 1789 */
	ev_vload_default_factory(262144, f, sizeof f);
	cr_assert_str_eq(f, "IVF2048,Flat");	/* 4 sqrt = 2048 exactly */
	ev_vload_default_factory(1300000, f, sizeof f);
	cr_assert_str_eq(f, "IVF4096,Flat");	/* 4 sqrt = 4561 */
	ev_vload_default_factory(10000000, f, sizeof f);
	cr_assert_str_eq(f, "IVF8192,Flat");	/* 4 sqrt = 12649 */
}

Test(vindex, an_inverted_file_visits_3_64ths_of_its_lists_at_least_64_or_all)
{
	cr_assert_eq(ev_vload_default_nprobe(1), 1);
	cr_assert_eq(ev_vload_default_nprobe(32), 32, "fewer than 64: all");
	cr_assert_eq(ev_vload_default_nprobe(64), 64);
	cr_assert_eq(ev_vload_default_nprobe(128), 64, "at least 64");
	cr_assert_eq(ev_vload_default_nprobe(1024), 64, "3/64 of 1024 is 48");
	cr_assert_eq(ev_vload_default_nprobe(2048), 96);
	cr_assert_eq(ev_vload_default_nprobe(4096), 192);
	cr_assert_eq(ev_vload_default_nprobe(8192), 384);
}

Test(vindex, a_factory_faiss_cannot_make_or_work_with_is_bad_usage)
{
	static const char *const good[] = { "Flat", "HNSW32", "IVF1024,Flat", "IVF256,PQ32",
	    "IVF1,PQ1x1", "OPQ16_64,IVF1024,PQ16", "PQ48", "PQ7", "IVF16384_HNSW32,Flat", "SQfp16",
	    "PQ16x4fs", NULL };
	static const char *const bad[] = { "Nonsense,Flat", "IVF0,Flat", "HNSW0", "HNSW1",
	    "IVF1_HNSW1,Flat", "PQ0", "PQ1x0", "IVF8,PQ0", "PCAR0,Flat", "NSG0", "HNSW32_0",
	    "IVF00,Flat", "Flat ", NULL };
	struct ev_err err = { 0 };

	for (int i = 0; good[i]; i++)
		cr_assert_eq(ev_vfaiss_factory_check(good[i], 0, &err), 0, "%s: %s", good[i], err.msg);
	for (int i = 0; bad[i]; i++) {
		ev_err_clear(&err);
		cr_assert_eq(ev_vfaiss_factory_check(bad[i], 0, &err), -1, "%s", bad[i]);
		cr_assert_eq(err.code, EV_EXIT_USAGE, "%s: %s", bad[i], err.msg);
		cr_assert(strncmp(err.msg, "--factory '", 11) == 0 && strstr(err.msg, ": write a Faiss"
		    " index factory string such as Flat") != NULL, "%s", err.msg);
	}
	cr_assert_eq(ev_vfaiss_factory_check("PQ3", 4, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.msg, "for vectors of 4 dimensions") != NULL, "%s", err.msg);
	cr_assert_eq(ev_vfaiss_factory_check("PQ3", 6, &err), 0);
	ev_vfaiss_factory_check("IVF0,Flat", 4, &err);
	cr_assert_str_eq(err.msg, "--factory 'IVF0,Flat': 'IVF0' has a count of 0, which Faiss takes"
	    " but cannot work with (counts start at 1): write a Faiss index factory string such as"
	    " Flat, HNSW32, IVF1024,Flat or IVF1024,PQ16, or leave --factory out for the default");
}

Test(vindex, an_ivf_index_is_written_visiting_64_of_its_lists_or_all_when_fewer)
{
	enum { N = 5000, D = 8, Q = 40, K = 5 };	/* 39 vectors a list for k-means */
	static float v[N * D];
	float q[Q * D], sc[Q * K], sc1[Q * K];
	int64_t ids[Q * K], ids64[Q * K], ids1[Q * K], exact[Q * K];
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;

	load_random(v, N, D, "Flat", &stats);
	for (int i = 0; i < Q; i++)
		random_unit(q + i * D, D);
	ix = open_ix();
	cr_assert_eq(ev_vindex_search(ix, Q, q, K, sc, exact, &err), 0, "%s", err.msg);
	ev_vindex_close(ix);
	/* 128 lists: written with nprobe 64 */
	load(v, N, D, "m1", "IVF128,Flat", &stats);
	ix = open_ix();
	cr_assert_eq(ev_vindex_search(ix, Q, q, K, sc, ids, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_vindex_set_param(ix, "nprobe", 64, &err), 1);
	cr_assert_eq(ev_vindex_search(ix, Q, q, K, sc1, ids64, &err), 0, "%s", err.msg);
	cr_assert_eq(memcmp(ids, ids64, sizeof ids), 0, "as written: nprobe 64");
	cr_assert_eq(ev_vindex_set_param(ix, "nprobe", 1, &err), 1);
	cr_assert_eq(ev_vindex_search(ix, Q, q, K, sc1, ids1, &err), 0, "%s", err.msg);
	cr_assert_neq(memcmp(ids, ids1, sizeof ids), 0, "Faiss's own nprobe, 1, finds less");
	ev_vindex_close(ix);
	/* 32 lists (trained on 2048 of the vectors): every one visited, so exact search */
	load(v, N, D, "m1", "IVF32,Flat", &stats);
	ix = open_ix();
	cr_assert_eq(ev_vindex_search(ix, Q, q, K, sc, ids, &err), 0, "%s", err.msg);
	cr_assert_eq(memcmp(ids, exact, sizeof ids), 0, "as written: all 32 lists");
	ev_vindex_close(ix);
}

/* Whether /proc/self/maps maps the file path. */
static int
mapped(const char *file)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;

	cr_assert_not_null(f);
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = strstr(line, file) != NULL;
	fclose(f);
	return found;
}

Test(vindex, a_searched_index_maps_its_vectors_from_the_file_instead_of_reading_them)
{
	enum { N = 3000, D = 8, K = 5 };
	static float v[N * D];
	float q[D], sc[K], exact[K];
	int64_t ids[K], exact_ids[K];
	struct ev_vload_stats stats;
	struct ev_err err = { 0 };
	struct ev_vindex *ix;

	load_random(v, N, D, "Flat", &stats);
	random_unit(q, D);
	ix = open_ix();
	cr_assert(mapped(idx), "a Flat index's vectors are mapped (faiss_flatmap.h)");
	cr_assert_eq(ev_vindex_search(ix, 1, q, K, exact, exact_ids, &err), 0, "%s", err.msg);
	ev_vindex_close(ix);
	cr_assert(!mapped(idx), "and unmapped when it is closed");
	load(v, N, D, "m1", "IVF64,Flat", &stats);
	cr_assert(!mapped(idx));
	ix = open_ix();
	cr_assert(mapped(idx), "the IVF index's file is mapped while it is open");
	cr_assert_eq(ev_vindex_set_param(ix, "nprobe", 64, &err), 1);
	cr_assert_eq(ev_vindex_search(ix, 1, q, K, sc, ids, &err), 0, "%s", err.msg);
	cr_assert_eq(memcmp(ids, exact_ids, sizeof ids), 0, "every list visited: exact search");
	ev_vindex_close(ix);
	cr_assert(!mapped(idx), "and unmapped when it is closed");
}
