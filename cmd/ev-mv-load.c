/* ev-mv-load: load multi-vector records (late interaction: ColBERT, ColPali)
 * into a multi-vector index: the vectors into a mapped data file, a Faiss
 * index over every token vector beside them.
 *
 * Reads every record before the index changes (a load is applied whole or
 * not at all); the vectors go straight to the new data file, so memory holds
 * only the records' ids and fields.  See man/ev-mv-load.1,
 * lib/store/mvload.h and lib/store/mvindex.h. */
#include <stdio.h>

#include "cli.h"
#include "mvindex.h"
#include "mvinput.h"
#include "mvload.h"
#include "opt.h"

static const struct ev_opt_cmd command = {
	"ev-mv-load --index FILE [OPTIONS] [FILE ...]",
	"Load multi-vector records ({\"id\": ID, \"vectors\": [[...], ...], \"model\": ID})\n"
	"into the multi-vector index FILE, replacing the records of the same ids.\n"
	"With --npy, FILE ... are offsets records ({\"id\", \"offset\", \"count\"}) naming\n"
	"each record's rows of the .npy array.",
	NULL, 0
};

static struct {
	const char *index, *npy, *model;
	struct ev_mvload_opts lo;	/* --factory, --lane, --reset */
	int skip_invalid;
} o;

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "index", "index", &o.index, "FILE",
	    "the index file (its vectors in FILE.GENERATION.npy beside it)"),
	EV_OPT_STR(0, "npy", NULL, &o.npy, "FILE",
	    "bulk load: every vector in one float32 .npy array (rows x dim); the input is "
	    "offsets records"),
	EV_OPT_STR(0, "model", "model", &o.model, "ID", "the model of records that name none"),
	EV_OPT_STR(0, "lane", "lane", &o.lo.lane, "NAME",
	    "the lane's name in hits and evidence (default: the index's, else visual)"),
	EV_OPT_STR(0, "factory", "factory", &o.lo.factory, "STRING",
	    "a Faiss index factory string for the token vectors (default: the index's own, else "
	    "IDMap,Flat up to 200000 vectors, IVFn,PQm above)"),
	EV_OPT_BOOL(0, "reset", NULL, &o.lo.reset, "drop every record of the index first"),
	EV_OPT_SKIP_INVALID(&o.skip_invalid),
	EV_OPT_END
};

static struct ev_cli_load load = { .bytes_per = 4 };	/* a float32 vector of each record */

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_mvinput R = EV_MVINPUT_INIT;
	struct ev_mvload_stats stats;
	int argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-mv-load", NULL, argc, argv);
	argi = ev_opt_parse(&cli, &command, options);
	if (o.index == NULL)
		ev_cli_usage_error(&cli, "--index FILE is required");
	ev_cli_load_check(&cli, o.lo.factory, o.model);
	if (o.lo.lane != NULL && ev_plan_lane_check(o.lo.lane, NULL, &err) == -1)
		ev_cli_usage_error(&cli, "--%s", err.msg);
	R.model = o.model;
	R.npy = o.npy;
	R.skip = ev_cli_load_skip;
	R.progress = ev_cli_load_step;
	R.ctx = &load;

	if ((R.ld = ev_mvload_begin(o.index, &o.lo, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_cli_load_start(&load, &cli, "records", o.skip_invalid);
	rc = ev_mvinput_read(&R, argv + argi, argc - argi, &err);
	if (ev_cli_load_end(&load, &rc, &err, "index '%s' is unchanged", o.index) == -1)
		goto out;
	if (ev_mvload_commit(R.ld, &stats, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_cli_load_done(&cli, &load, R.read, stats.vectors);
	if (stats.factory[0] == '\0')
		ev_warn("no records: index '%s' not written", o.index);
	else
		ev_warn("%lld added, %lld replaced, %lld kept; index '%s' (%s, lane %s) holds %lld "
		    "record%s, %lld vectors of %lld dimensions", stats.added, stats.replaced,
		    stats.kept, o.index, stats.factory, stats.lane, stats.records,
		    stats.records == 1 ? "" : "s", stats.vectors, ev_mvload_dim(R.ld));
out:
	ev_mvinput_release(&R);
	ev_mvload_free(R.ld);
	return ev_cli_finish(&cli, rc);
}
