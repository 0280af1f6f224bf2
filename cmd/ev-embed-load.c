/* ev-embed-load: load vector records into the store and its Faiss index.
 *
 * Reads every record before changing anything (a batch is applied whole, in
 * one transaction, or not at all), so it does not stream.  See
 * man/ev-embed-load.1 and lib/store/vindex.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "cli.h"
#include "embed.h"
#include "opt.h"
#include "store.h"
#include "vecinput.h"
#include "vfile.h"
#include "vload.h"

static const struct ev_opt_cmd command = {
	"ev-embed-load --db DB --index FILE [OPTIONS] [FILE ...]",
	"Load vector records ({\"id\": CHUNK_ID, \"vector\": [...], \"model\": ID}) into\n"
	"the store DB and its Faiss index FILE, replacing older vectors of the same\n"
	"chunks and dropping those of removed or changed chunks; with --calibrate,\n"
	"calibrate the fusion's weights on pseudo-queries of the store's documents.",
	NULL, 0
};

struct opts {
	const char *db, *index, *format_name, *ids, *model;
	struct ev_vload_opts vo;	/* --factory, --reset */
	int skip_invalid;
	long calibrate;
};

static struct opts o = { .format_name = "jsonl" };

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &o.db, "DB", "the store (made by ev-ingest)"),
	EV_OPT_STR(0, "index", "index", &o.index, "FILE",
	    "the index file, written anew and renamed into place"),
	EV_OPT_STR(0, "factory", "factory", &o.vo.factory, "STRING",
	    "a Faiss index factory string (default: the index's own, else IDMap,Flat up to"
	    " 200000 vectors, IVF<nlist>,Flat above with nlist near sqrt(vectors))"),
	EV_OPT_BOOL(0, "reset", NULL, &o.vo.reset,
	    "drop every stored vector first (after retraining a model)"),
	EV_OPT_STR(0, "format", "format", &o.format_name, "FORMAT",
	    "the input format: jsonl, fvecs or npy (fvecs and npy: float32, N x D)"),
	EV_OPT_STR(0, "ids", "ids", &o.ids, "FILE",
	    "with fvecs/npy: the chunk ids, one a line, in vector order"),
	EV_OPT_STR(0, "model", "model", &o.model, "ID", "the model of vectors that do not name one"),
	EV_OPT_LONG(0, "calibrate", "calibrate", &o.calibrate, 0, 100000, "N",
	    "calibrate the fusion on N known-item pseudo-queries (200 is enough); 0 (the"
	    " default): the store's calibration as it is"),
	EV_OPT_SKIP_INVALID(&o.skip_invalid),
	EV_OPT_END
};

static struct ev_cli_load load = { .bytes_per = 1 };	/* --skip-invalid, progress */

/* Say how many chunks are left without a vector of the index's model (a
 * pipeline killed after ev-ingest committed, chunks with no word of the
 * model's vocabulary), so that none is left out silently. */
static void
warn_pending(struct ev_store *st, const struct opts *o)
{
	struct ev_err err = { 0 };
	char *model = NULL, *own = NULL;
	int64_t *ids = NULL;
	size_t n = 0;

	if (ev_store_meta_get(st, "vindex.model", &model, &err) == 1 &&
	    ev_vfile_pending(st, model, &ids, &n, &err) == 0 && n > 0) {
		if (ev_embed_current(st, &own, &err) == 1 && strcmp(own, model) == 0)
			ev_warn("%zu chunk%s of '%s' ha%s no vector of model '%s' (not embedded yet, or "
				"without a word of its vocabulary): run 'ev-embed --db %s --pending | "
				"ev-embed-load --db %s --index %s'", n, n == 1 ? "" : "s", o->db,
				n == 1 ? "s" : "ve", model, o->db, o->db, o->index);
		else
			ev_warn("%zu chunk%s of '%s' ha%s no vector of model '%s': 'ev-embed --db %s "
				"--pending --chunks' lists %s for its embedder", n, n == 1 ? "" : "s", o->db,
				n == 1 ? "s" : "ve", model, o->db, n == 1 ? "it" : "them");
	}
	free(ids);
	free(own);
	free(model);
}

/* The store's calibration of the fusion (calibrate.h), made anew on the
 * index just written when the index holds vectors of the store's own
 * embedder (it embeds the pseudo-queries); said in one line. */
static int
calibrate(struct ev_store *st, const struct opts *o, struct ev_err *err)
{
	struct ev_vindex *ix = NULL;
	char *own = NULL;
	json_t *row = NULL;
	int r = 0;

	if (ev_embed_current(st, &own, err) == 1 && (ix = ev_vindex_open(st, o->index, err)) != NULL &&
	    strcmp(own, ev_vindex_model(ix)) == 0 &&
	    (r = ev_calib_compute(st, ix, o->calibrate, 1, &row, err)) == 1 &&
	    (r = ev_calib_save(st, row, err)) == 0) {
		json_t *w = json_object_get(row, "weights"), *f = json_object_get(row, "ndcg@10");

		ev_warn("fusion calibrated on %lld known-item pseudo-queries of the store's documents:"
		    " weights text %g, vector_feedback %g, vector %g, adapt %s (nDCG@10 %.4f"
		    " cross-validated, %.4f for the defaults); kept in '%s'",
		    json_integer_value(json_object_get(row, "queries")),
		    json_number_value(json_object_get(w, "text")),
		    json_number_value(json_object_get(w, "vector_feedback")),
		    json_number_value(json_object_get(w, "vector")),
		    json_string_value(json_object_get(row, "adapt")),
		    json_number_value(json_object_get(f, "cross_validated")),
		    json_number_value(json_object_get(f, "defaults")), o->db);
	}
	json_decref(row);
	ev_vindex_close(ix);
	free(own);
	return r == -1 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct ev_vecinput L = EV_VECINPUT_INIT;
	struct ev_vload_stats stats;
	int argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-embed-load", NULL, argc, argv);
	argi = ev_opt_parse(&cli, &command, options);
	if (o.db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	if (o.index == NULL)
		ev_cli_usage_error(&cli, "--index FILE is required");
	ev_cli_load_check(&cli, o.vo.factory, o.model);
	if ((L.format = ev_vecinput_format(o.format_name)) == -1)
		ev_cli_usage_error(&cli, "--format takes jsonl, fvecs or npy: '%s'", o.format_name);
	if (L.format != EV_VECINPUT_JSONL && (o.ids == NULL || o.model == NULL))
		ev_cli_usage_error(&cli, "--format %s needs --ids FILE and --model ID", o.format_name);
	if (L.format == EV_VECINPUT_JSONL && o.ids != NULL)
		ev_cli_usage_error(&cli, "--ids goes with --format fvecs or npy");
	L.model = o.model;
	L.ids = o.ids;
	L.skip = ev_cli_load_skip;
	L.progress = ev_cli_load_step;
	L.ctx = &load;

	if ((st = ev_store_open(o.db, EV_STORE_WRITE, &err)) == NULL ||
	    (L.ld = ev_vload_begin(st, o.index, &o.vo, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_cli_load_start(&load, &cli, "vectors", o.skip_invalid);
	rc = ev_vecinput_read(&L, argv + argi, argc - argi, &err);
	if (ev_cli_load_end(&load, &rc, &err, "the store and index '%s' are unchanged", o.index) == -1)
		goto out;
	if (ev_vload_commit(L.ld, &stats, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_cli_load_done(&cli, &load, L.read, stats.total);
	if (stats.zero)
		ev_warn("%lld vector%s all zeros (no direction): no vector kept for %s", stats.zero,
			stats.zero == 1 ? " was" : "s were", stats.zero == 1 ? "its chunk" : "their chunks");
	if (stats.replaced_model[0] != '\0')
		ev_warn("the index's vectors of model '%s' were stale (the store's model was retrained): "
			"this load replaced them all", stats.replaced_model);
	if (stats.factory[0] == '\0')
		ev_warn("no vectors: index '%s' not written", o.index);
	else
		ev_warn("%lld added, %lld replaced, %lld removed; index '%s' (%s) holds %lld vectors%s",
			stats.added, stats.replaced, stats.removed, o.index, stats.factory, stats.total,
			stats.rebuilt ? ", rebuilt" : "");
	if (stats.factory[0] != '\0') {
		warn_pending(st, &o);
		if (o.calibrate > 0 && calibrate(st, &o, &err) == -1)
			rc = ev_cli_report(&err);
	}
out:
	ev_vecinput_release(&L);
	ev_vload_free(L.ld);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
