/* ev-embed-load: load vector records into the store and its Faiss index.
 *
 * Reads every record before changing anything (a batch is applied whole, in
 * one transaction, or not at all), so it does not stream.  See
 * man/ev-embed-load.1 and lib/vindex.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "embed.h"
#include "jsonl.h"
#include "store.h"
#include "vecrec.h"
#include "vindex.h"

static const char usage_text[] =
"usage: ev-embed-load --db DB --index FILE [--factory STRING] [--reset]\n"
"                     [--format jsonl|fvecs|npy] [--ids FILE] [--model ID]\n"
"                     [--skip-invalid] [--config FILE.yaml] [--log FILE] [FILE ...]\n"
"\n"
"Load vector records ({\"id\": CHUNK_ID, \"vector\": [...], \"model\": ID}) into\n"
"the store DB and its Faiss index FILE, replacing older vectors of the same\n"
"chunks and dropping those of removed or changed chunks.\n"
"\n"
"  --db DB            the store (made by ev-ingest)\n"
"  --index FILE       the index file, written anew and renamed into place\n"
"  --factory STRING   a Faiss index factory string (default: the index's own,\n"
"                     else IDMap,Flat up to 200000 vectors, IDMap,HNSW32,Flat above)\n"
"  --reset            drop every stored vector first (after retraining a model)\n"
"  --format FORMAT    jsonl (default), fvecs or npy (float32, shape N x D)\n"
"  --ids FILE         with fvecs/npy: the chunk ids, one a line, in vector order\n"
"  --model ID         the model of vectors that do not name one\n"
"  --skip-invalid     skip bad records (counted on stderr) instead of refusing\n"
"  --config FILE.yaml defaults for the options; --log FILE appends a ToolRun line\n"
"  --help, --version\n";

enum {
	OPT_DB = EV_OPT_FIRST_FREE,
	OPT_INDEX,
	OPT_FACTORY,
	OPT_RESET,
	OPT_FORMAT,
	OPT_IDS,
	OPT_MODEL,
	OPT_SKIP
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "index", required_argument, NULL, OPT_INDEX },
	{ "factory", required_argument, NULL, OPT_FACTORY },
	{ "reset", no_argument, NULL, OPT_RESET },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "ids", required_argument, NULL, OPT_IDS },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

static const char *const config_keys[] = {
	"db", "index", "factory", "format", "ids", "model", "skip_invalid", NULL
};

enum format { FMT_JSONL, FMT_FVECS, FMT_NPY };

struct opts {
	const char *db, *index, *factory, *format_name, *ids, *model;
	enum format format;
	int reset, skip_invalid;
};

struct loader {
	struct ev_cli *cli;
	const struct opts *o;
	struct ev_vload *ld;
	struct ev_progress prog;
	long long read;
	struct ev_skip skip;	/* --skip-invalid (lib/cli.h) */
	float *v;
	size_t vcap;
};

static void
read_config(struct ev_cli *cli, struct opts *o)
{
	const json_t *cfg = cli->config;
	const char *file = cli->config_path;
	struct ev_err err = { 0 };

	ev_cli_check_config(cli, config_keys);
	if (ev_config_str(cfg, "db", &o->db, file, &err) == -1 ||
	    ev_config_str(cfg, "index", &o->index, file, &err) == -1 ||
	    ev_config_str(cfg, "factory", &o->factory, file, &err) == -1 ||
	    ev_config_str(cfg, "format", &o->format_name, file, &err) == -1 ||
	    ev_config_str(cfg, "ids", &o->ids, file, &err) == -1 ||
	    ev_config_str(cfg, "model", &o->model, file, &err) == -1 ||
	    ev_config_bool(cfg, "skip_invalid", &o->skip_invalid, file, &err) == -1)
		ev_cli_config_error(cli, &err);
}

static int
grow(struct loader *L, size_t n, struct ev_err *err)
{
	if (n > L->vcap) {
		float *v = realloc(L->v, n * sizeof *v);
		if (v == NULL)
			return ev_err_nomem(err);
		L->v = v;
		L->vcap = n;
	}
	return 0;
}

/* A bad record: skipped with --skip-invalid (returns 0), else -1. */
static int
bad(struct loader *L, struct ev_err *err)
{
	if (!ev_cli_skip(&L->skip, err))
		return -1;
	ev_err_clear(err);
	return 0;
}

/* Stage one JSON record. */
static int
add_json(struct loader *L, json_t *rec, const char *where, struct ev_err *err)
{
	const char *id, *model = L->o->model;
	json_t *vec, *x;
	size_t i, n;

	if (!json_is_object(rec))
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"a vector record must be an object with 'id' and 'vector'");
	if (ev_field_str(rec, "id", 1, &id, where, err) == -1 ||
	    ev_field_arr(rec, "vector", 1, &vec, where, err) == -1 ||
	    ev_field_str(rec, "model", 0, &model, where, err) == -1)
		return -1;
	if (model == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"record has no field 'model' (give --model ID for such records)");
	n = json_array_size(vec);
	if (grow(L, n ? n : 1, err) == -1)
		return -1;
	json_array_foreach(vec, i, x) {
		if (!json_is_number(x))
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"component %zu of field 'vector' must be a number", i);
		L->v[i] = (float)json_number_value(x);
	}
	return ev_vload_add(L->ld, id, model, L->v, (long long)n, where, err);
}

/* Read JSON Lines: the common shape by the fast reader (lib/vecrec.h),
 * anything else through Jansson, which also words every error. */
static int
read_jsonl(struct loader *L, char **paths, int npaths, struct ev_err *err)
{
	struct ev_vecrec rec = EV_VECREC_INIT;
	struct ev_jsonl *in;
	const char *line;
	size_t len;
	int r;

	if ((in = ev_jsonl_open(paths, npaths, err)) == NULL)
		return -1;
	while ((r = ev_jsonl_next_line(in, &line, &len, err)) == 1) {
		const char *where = ev_jsonl_where(in);
		size_t i;

		for (i = 0; i < len && strchr(" \t\r\n", line[i]) && line[i]; i++)
			;
		if (i == len)
			continue;	/* blank */
		L->read++;
		r = ev_vecrec_parse(&rec, line, len);
		if (r == -1) {
			ev_err_nomem(err);
			break;
		}
		if (r == 1) {
			const char *model = rec.has_model ? rec.model : L->o->model;
			if (model == NULL)
				r = ev_err_set(err, EV_EXIT_USAGE, where,
					"record has no field 'model' (give --model ID for such records)");
			else
				r = ev_vload_add(L->ld, rec.id, model, rec.v, (long long)rec.dim, where,
					err);
		} else {
			json_t *v = ev_json_parse_line(line, len, where, err);
			r = v ? add_json(L, v, where, err) : -1;
			json_decref(v);
		}
		if (r == -1 && bad(L, err) == -1)
			break;
		r = 1;
		ev_progress_step(&L->prog, 1, (long long)len);
	}
	ev_jsonl_close(in);
	ev_vecrec_release(&rec);
	return r == -1 ? -1 : 0;
}

/* The ids file: the next chunk id, or NULL at its end. */
struct idfile {
	FILE *f;
	const char *path;
	char *line;
	size_t cap;
	long long lineno;
};

static const char *
next_id(struct idfile *ids, struct ev_err *err)
{
	ssize_t n = getline(&ids->line, &ids->cap, ids->f);

	if (n == -1) {
		if (ferror(ids->f))
			ev_err_set(err, EV_EXIT_RUNTIME, ids->path, "read error: %s", strerror(errno));
		return NULL;
	}
	ids->lineno++;
	while (n > 0 && (ids->line[n - 1] == '\n' || ids->line[n - 1] == '\r'))
		ids->line[--n] = '\0';
	return ids->line;
}

/* Read n bytes; returns 1, 0 at a clean end (nothing read), -1 when cut. */
static int
read_full(FILE *f, void *p, size_t n)
{
	size_t got = fread(p, 1, n, f);

	if (got == n)
		return 1;
	return got == 0 && !ferror(f) ? 0 : -1;
}

/* Parse an .npy header: float32 little-endian, C order, 2 dimensions. */
static int
npy_header(FILE *f, const char *name, long long *rows, long long *cols, struct ev_err *err)
{
	unsigned char pre[10];
	char hdr[4096];
	size_t hlen;
	const char *p;

	if (read_full(f, pre, 10) != 1 || memcmp(pre, "\x93NUMPY", 6) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, name, "not a .npy file");
	if (pre[6] == 1)
		hlen = pre[8] | (size_t)pre[9] << 8;
	else {
		unsigned char more[2];
		if (read_full(f, more, 2) != 1)
			return ev_err_set(err, EV_EXIT_USAGE, name, "truncated .npy header");
		hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)more[0] << 16 | (size_t)more[1] << 24;
	}
	if (hlen >= sizeof hdr || read_full(f, hdr, hlen) != 1)
		return ev_err_set(err, EV_EXIT_USAGE, name, "truncated or oversized .npy header");
	hdr[hlen] = '\0';
	if (strstr(hdr, "'descr': '<f4'") == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, name,
			".npy data must be little-endian float32 ('<f4'): %s", hdr);
	if (strstr(hdr, "'fortran_order': False") == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, name, ".npy data must be in C order");
	if ((p = strstr(hdr, "'shape': (")) == NULL ||
	    sscanf(p + 10, "%lld, %lld)", rows, cols) != 2 || *rows < 0 || *cols < 1)
		return ev_err_set(err, EV_EXIT_USAGE, name, ".npy data must have shape (N, D)");
	return 0;
}

/* Read fvecs or npy inputs, the ids from --ids. */
static int
read_binary(struct loader *L, char **paths, int npaths, struct ev_err *err)
{
	struct idfile ids = { .path = L->o->ids };
	char *stdin_only[] = { "-" };
	int ret = -1;

	if ((ids.f = fopen(ids.path, "r")) == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, ids.path, "cannot open: %s", strerror(errno));
	if (npaths == 0) {
		paths = stdin_only;
		npaths = 1;
	}
	for (int fi = 0; fi < npaths; fi++) {
		const char *name = strcmp(paths[fi], "-") == 0 ? "stdin" : paths[fi];
		FILE *f = strcmp(paths[fi], "-") == 0 ? stdin : fopen(paths[fi], "rb");
		long long rows = -1, cols = 0, nrec = 0;
		char where[300];

		if (f == NULL) {
			ev_err_set(err, EV_EXIT_RUNTIME, name, "cannot open: %s", strerror(errno));
			goto out;
		}
		if (L->o->format == FMT_NPY && npy_header(f, name, &rows, &cols, err) == -1) {
			if (f != stdin)
				fclose(f);
			goto out;
		}
		for (;;) {
			const char *id;
			int32_t d;
			int r;

			if (L->o->format == FMT_NPY) {
				if (nrec == rows)
					break;
				d = (int32_t)(cols > INT32_MAX ? INT32_MAX : cols);
			} else {
				if ((r = read_full(f, &d, 4)) == 0)
					break;
				if (r == -1) {
					ev_err_set(err, EV_EXIT_USAGE, name, "truncated after vector %lld", nrec);
					break;
				}
			}
			nrec++;
			snprintf(where, sizeof where, "%s:%lld", name, nrec);
			if (d < 1 || d > EV_VINDEX_DIM_MAX) {
				ev_err_set(err, EV_EXIT_USAGE, where,
					"vector has %ld dimensions (1 to %d are accepted)", (long)d,
					EV_VINDEX_DIM_MAX);
				break;	/* the stream cannot be followed further */
			}
			if (grow(L, (size_t)d, err) == -1)
				break;
			if (read_full(f, L->v, (size_t)d * sizeof(float)) != 1) {
				ev_err_set(err, EV_EXIT_USAGE, where, "truncated vector");
				break;
			}
			L->read++;
			if ((id = next_id(&ids, err)) == NULL) {
				if (err->code == 0)
					ev_err_set(err, EV_EXIT_USAGE, ids.path,
						"fewer ids (%lld) than vectors", ids.lineno);
				break;
			}
			if (ev_vload_add(L->ld, id, L->o->model, L->v, d, where, err) == -1 &&
			    bad(L, err) == -1)
				break;
			ev_progress_step(&L->prog, 1, 0);
		}
		if (f != stdin)
			fclose(f);
		if (err->code)
			goto out;
	}
	if (next_id(&ids, err) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, ids.path, "more ids than vectors (%lld vectors read)",
			L->read);
		goto out;
	}
	if (err->code == 0)
		ret = 0;
out:
	free(ids.line);
	fclose(ids.f);
	return ret;
}

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
	    ev_vindex_pending(st, model, &ids, &n, &err) == 0 && n > 0) {
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

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct opts o = { 0 };
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct loader L = { 0 };
	struct ev_vload_opts vo = { 0 };
	struct ev_vload_stats stats;
	int ch, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-embed-load", usage_text, argc, argv);
	read_config(&cli, &o);
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			o.db = optarg;
			break;
		case OPT_INDEX:
			o.index = optarg;
			break;
		case OPT_FACTORY:
			o.factory = optarg;
			break;
		case OPT_RESET:
			o.reset = 1;
			break;
		case OPT_FORMAT:
			o.format_name = optarg;
			break;
		case OPT_IDS:
			o.ids = optarg;
			break;
		case OPT_MODEL:
			o.model = optarg;
			break;
		case OPT_SKIP:
			o.skip_invalid = 1;
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (o.db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	if (o.index == NULL)
		ev_cli_usage_error(&cli, "--index FILE is required");
	if (o.factory != NULL && (o.factory[0] == '\0' || strlen(o.factory) > 200))
		ev_cli_usage_error(&cli, "--factory takes a Faiss index factory string: '%s'", o.factory);
	if (o.model != NULL && o.model[0] == '\0')
		ev_cli_usage_error(&cli, "--model takes a model id");
	if (o.format_name == NULL || strcmp(o.format_name, "jsonl") == 0)
		o.format = FMT_JSONL;
	else if (strcmp(o.format_name, "fvecs") == 0)
		o.format = FMT_FVECS;
	else if (strcmp(o.format_name, "npy") == 0)
		o.format = FMT_NPY;
	else
		ev_cli_usage_error(&cli, "--format takes jsonl, fvecs or npy: '%s'", o.format_name);
	if (o.format != FMT_JSONL && (o.ids == NULL || o.model == NULL))
		ev_cli_usage_error(&cli, "--format %s needs --ids FILE and --model ID", o.format_name);
	if (o.format == FMT_JSONL && o.ids != NULL)
		ev_cli_usage_error(&cli, "--ids goes with --format fvecs or npy");
	vo.factory = o.factory;
	vo.reset = o.reset;

	L.cli = &cli;
	L.o = &o;
	L.skip.on = o.skip_invalid;
	if ((st = ev_store_open(o.db, EV_STORE_WRITE, &err)) == NULL ||
	    (L.ld = ev_vload_begin(st, o.index, &vo, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_progress_start(&L.prog, &cli, "vectors", 0);
	if (o.format == FMT_JSONL)
		rc = read_jsonl(&L, argv + optind, argc - optind, &err);
	else
		rc = read_binary(&L, argv + optind, argc - optind, &err);
	ev_progress_done(&L.prog);
	if (rc == -1) {
		rc = ev_cli_report(&err);
		if (rc == EV_EXIT_USAGE)
			ev_warn("nothing loaded: the store and index '%s' are unchanged%s", o.index,
				o.skip_invalid ? "" : " (--skip-invalid skips bad records)");
		goto out;
	}
	if (ev_vload_commit(L.ld, &stats, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_cli_count(&cli, "records", L.read);
	ev_cli_skip_done(&cli, &L.skip);
	ev_cli_count(&cli, "vectors", stats.total);
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
	if (stats.factory[0] != '\0')
		warn_pending(st, &o);
out:
	free(L.v);
	ev_vload_free(L.ld);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
