/* ev-fuse: fuse the hits of several lanes into one ranked list per query.
 * See man/ev-fuse.1 and lib/merge/fuse.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fusecalib.h"
#include "cli.h"
#include "config.h"
#include "fuse.h"
#include "jsonl.h"
#include "opt.h"

static const char *const extra_keys[] = { "request_id", NULL };

static const struct ev_opt_cmd command = {
	"ev-fuse [OPTIONS] [FILE ...]",
	"Fuse hit records of any mix of lanes (files or stdin, grouped by query) into\n"
	"fused hit records (lane \"fused\"), best first, each with its explanation.\n"
	"A retrieval plan's fusion section gives the defaults (--config); with --db,\n"
	"the weights it does not set come from the store's calibration.",
	extra_keys, 1
};

static struct ev_fuse_opts o;
static const char *db;
static int method, norm = -1, group, adapt, no_explain, norm_flag;
static long k;
static struct ev_skip skip;

/* --weight LANE=W (and each entry of fusion.weights), value o.weights;
 * --floor LANE=zero|norm (fusion.floor), value o.floors; --anchor LANE,
 * value o.anchor; --agreement-from LANE=FROM (fusion.agreement_from), value
 * o.agree_from: by fuse.h's own checks. */
static void
set_lane(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	struct ev_err err = { 0 };

	if ((value == o.anchor ? ev_fuse_anchor_set(&o, arg, &err) :
	    value == o.floors ? ev_fuse_floor_parse(&o, arg, &err) :
	    value == o.agree_from ? ev_fuse_agree_from_parse(&o, arg, &err) :
	    ev_fuse_weight_parse(&o, arg, &err)) == -1)
		ev_cli_usage_error(cli, "%s: %s", src, err.msg);
}

/* --norm given as a flag (not by the plan): warned about with rrf. */
static void
note_norm(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)cli, (void)src, (void)value;
	norm_flag |= arg != NULL;
}

static const struct ev_opt options[] = {
	EV_OPT_CHOICE_THEN(0, "method", EV_PLAN_KEY(EV_PLAN_FUSION_METHOD), &method,
	    EV_PLAN_WORDS(EV_PLAN_FUSION_METHOD),
	    "how the lanes' hits are combined; merge: the shards of one lane, by score, ties by id",
	    NULL, NULL),
	EV_OPT_PLAN(0, "rrf-k", EV_PLAN_FUSION_RRF_K, &o.rrf_k, "K",
	    "the k of reciprocal rank fusion, 1/(K+rank)"),
	EV_OPT_FUNC(0, "weight", EV_PLAN_KEY(EV_PLAN_FUSION_WEIGHTS), o.weights, set_lane, "LANE=W",
	    "the weight of a lane (repeat for each lane: --weight vector=0.7 --weight text=0.3)", "1"),
	EV_OPT_CHOICE_THEN(0, "norm", EV_PLAN_KEY(EV_PLAN_FUSION_NORMALIZATION), &norm,
	    EV_PLAN_WORDS(EV_PLAN_FUSION_NORMALIZATION),
	    "the score normalisation of weighted, combsum and combmnz", note_norm,
	    "max for weighted, minmax for combsum and combmnz"),
	EV_OPT_FUNC(0, "floor", EV_PLAN_KEY(EV_PLAN_FUSION_FLOOR), o.floors, set_lane,
	    "LANE=zero|norm",
	    "what a lane gives a candidate it did not return: norm, the normalisation's floor "
	    "(0, or the lowest z-score); zero, what a raw score of 0 normalises to, when lower",
	    "norm"),
	EV_OPT_CHOICE_THEN(0, "group", EV_PLAN_KEY(EV_PLAN_FUSION_GROUP), &group,
	    EV_PLAN_WORDS(EV_PLAN_FUSION_GROUP),
	    "one fused hit per chunk id, or per doc_id", NULL, NULL),
	EV_OPT_K_AT(EV_PLAN_KEY(EV_PLAN_FUSION_K), &k, EV_PLAN_MAX(EV_PLAN_FUSION_K),
	    "keep the first N fused hits of each query", "all"),
	EV_OPT_BOOL(0, "no-explain", NULL, &no_explain, "leave out the per-lane \"explain\" object"),
	EV_OPT_PLAN_KEY(EV_PLAN_FUSION_EXPLAIN, &o.explain),
	EV_OPT_CHOICE_THEN(0, "adapt", EV_PLAN_KEY(EV_PLAN_FUSION_ADAPT), &adapt,
	    EV_PLAN_WORDS(EV_PLAN_FUSION_ADAPT),
	    "none: the weights as given; agreement: per query, each lane but the anchor weighs its "
	    "weight times min(1, agreement / X), agreement being the share of its first N documents "
	    "among the anchor's first N", NULL, NULL),
	EV_OPT_FUNC(0, "anchor", EV_PLAN_KEY(EV_PLAN_FUSION_ANCHOR), o.anchor, set_lane, "LANE",
	    "the lane others are compared with", "text"),
	EV_OPT_PLAN(0, "agreement-depth", EV_PLAN_FUSION_AGREEMENT_DEPTH, &o.agree_depth, "N",
	    "the first N of each lane are compared"),
	EV_OPT_PLAN(0, "agreement-full", EV_PLAN_FUSION_AGREEMENT_FULL, &o.agree_full, "X",
	    "the agreement that earns the full weight"),
	EV_OPT_FUNC(0, "agreement-from", EV_PLAN_KEY(EV_PLAN_FUSION_AGREEMENT_FROM), o.agree_from,
	    set_lane, "LANE=FROM", "measure lane LANE's agreement on lane FROM's first documents (a lane"
	    " refining FROM with the anchor's own hits)", "its own"),
	EV_OPT_STR(0, "db", NULL, &db, "DB",
	    "the store the hits come from: with the plan's feedback lane, the lanes' weights and"
	    " the adaptive rule that neither the plan nor a flag sets are the store's calibration"
	    " (ev-embed-load --calibrate), else the pipeline's defaults; explain.weights_from"
	    " says where the weights came from"),
	EV_OPT_SKIP_INVALID_AT(EV_PLAN_KEY(EV_PLAN_FUSION_SKIP_INVALID), &skip.on),
	EV_OPT_END
};

/* Write one query's fused hits with one fwrite, flushing when stdout is a
 * pipe, so that pipelines still stream query by query. */
static int
write_hits(struct ev_fuse *f, struct ev_buf *b, int flush, long long *n, struct ev_err *err)
{
	ev_buf_reset(b);
	if (ev_fuse_write(f, b, n, err) == -1)
		return -1;
	if (b->len > 0 && (fwrite(b->p, 1, b->len, stdout) != b->len ||
	    (flush && fflush(stdout) == EOF)))
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	return 0;
}

static int
stdout_is_pipe(void)
{
	struct stat sb;

	return fstat(STDOUT_FILENO, &sb) == 0 &&
	    (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode) || S_ISCHR(sb.st_mode));
}

/* A lane weighing 0 whose hits were read only to give another lane its
 * agreement (--agreement-from), when that lane never came: fusion then used
 * neither, which a user who ran only the plain lanes should hear about. */
static void
warn_idle_lanes(const struct ev_fuse *f)
{
	for (int i = 0; i < o.nagree_from; i++) {
		const char *lane = o.agree_from[i].lane, *from = o.agree_from[i].from;

		if (ev_fuse_lane_seen(f, from) && ev_fuse_weight_get(&o, from) == 0 &&
		    !ev_fuse_lane_seen(f, lane))
			ev_warn("lane '%s' weighs 0 and only gives lane '%s' its agreement, but no"
			    " input had hits of lane '%s': the fused hits hold nothing of '%s'; add"
			    " that lane's hits (for vector_feedback: ev-search-vec --feedback-hits"
			    " TEXT-HITS) or give '%s' a weight (--weight %s=0.5)", from, lane, lane, from,
			    from, from);
	}
}

/* --db: for the pipeline with the feedback lane (the plan's
 * lanes.vector.feedback, as scripts/ev-hybrid runs it), what the plan and
 * the flags leave unset, from the store's calibration (fusecalib.h); and
 * where the weights came from. */
static int
use_store(const struct ev_cli *cli, struct ev_err *err)
{
	struct ev_store *st = ev_store_open(db, EV_STORE_READ, err);
	json_t *fb = ev_config_get(cli->config, "lanes.vector.feedback");
	int weights = o.nweights == 0, from = EV_FUSE_FROM_DEFAULT;
	int adapt_free = !ev_opt_given(&adapt) && ev_config_get(cli->config,
	    EV_PLAN_KEY(EV_PLAN_FUSION_ADAPT)) == NULL;

	if (st == NULL)
		return -1;
	if (json_is_number(fb) && json_number_value(fb) > 0)
		from = ev_calib_defaults(st, weights, adapt_free, &o, err);
	if (from != -1)
		o.weights_from = weights ? (enum ev_fuse_weights_from)from : EV_FUSE_FROM_PLAN;
	ev_store_close(st);
	return from == -1 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_fuse_in *in = NULL;
	struct ev_fuse *f = NULL;
	struct ev_buf b = EV_BUF_INIT;
	long long queries = 0, hits_out = 0, n;
	int argi, r, pipe, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-fuse", NULL, argc, argv);
	ev_cli_trace(&cli);
	ev_fuse_opts_init(&o);
	argi = ev_opt_parse_section(&cli, &command, options, "fusion", 0);
	o.method = (enum ev_fuse_method)method;
	o.norm = norm < 0 ? EV_NORM_DEFAULT : (enum ev_fuse_norm)(norm + 1);
	o.group = (enum ev_fuse_group)group;
	o.adapt = (enum ev_fuse_adapt)adapt;
	o.k = k;
	if (no_explain)
		o.explain = 0;
	if (o.method == EV_FUSE_MERGE && o.group == EV_GROUP_DOC)
		ev_cli_usage_error(&cli, "--method merge keeps the shards' hits as they are;"
		    " it does not group by document (use --group chunk)");
	if (o.method == EV_FUSE_RRF && norm_flag)
		ev_warn("--norm has no effect with --method rrf, which uses ranks");

	if ((db != NULL && use_store(&cli, &err) == -1) ||
	    (in = ev_fuse_in_open(argv + argi, argc - argi, &err)) == NULL ||
	    (f = ev_fuse_new(&o, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	pipe = stdout_is_pipe();
	for (;;) {
		r = ev_fuse_in_next(in, f, &err);
		if (r == 0)
			break;
		if (r == -1) {
			if (ev_cli_skip(&skip, &err))
				continue;
			rc = ev_cli_report(&err);
			goto out;
		}
		if (write_hits(f, &b, pipe, &n, &err) == -1) {
			rc = ev_cli_report(&err);
			goto out;
		}
		queries++;
		hits_out += n;
	}
	ev_cli_skip_done(&cli, &skip);
	warn_idle_lanes(f);
out:
	ev_cli_count(&cli, "records_in", in ? ev_fuse_in_records(in) : 0);
	ev_cli_count(&cli, "queries", queries);
	ev_cli_count(&cli, "hits_out", hits_out);
	ev_buf_release(&b);
	ev_fuse_free(f);
	ev_fuse_in_close(in);
	return ev_cli_finish(&cli, rc);
}
