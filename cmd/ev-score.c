/* ev-score: score answers against the passages they cite.  Answer records (or EvidencePacks with
 * an "answer") in, score records out, one per input, streaming.  See man/ev-score.1,
 * lib/judge/score.h (the axes), lib/judge/summary.h (gates, --summary), lib/judge/judge.h (--judge). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonl.h"
#include "judge.h"
#include "opt.h"
#include "score.h"
#include "store.h"
#include "summary.h"
#include "token.h"

static const struct ev_opt_cmd command = {
	"ev-score [OPTIONS] [FILE ...]",
	"Score answers against their citations: faithfulness, coverage, redundancy,\n"
	"overall.  Answer records {\"query\", \"answer\", \"citations\": [{\"id\", \"text\"}]}\n"
	"(or EvidencePacks with an \"answer\") in, score records out.  A CI gate that\n"
	"catches made-up answers (overall alone can hide an unsupported answer):\n"
	"ev-score --min-faithfulness 0.5 --min-overall 0.6 --summary FILE",
	NULL, 0
};

enum { SUMMARY_NONE, SUMMARY_TEXT, SUMMARY_JSON };
#define GATE_MESSAGES 20	/* failing items named on stderr before "... more" */

static struct {
	const char *db, *judge;
	struct ev_score_weights w;
	struct ev_gates g;
	int how, cover, summary, skip_invalid;
	double timeout;
} o = { .w = EV_SCORE_WEIGHTS_DEFAULT, .timeout = 60 };

/* --weight AXIS=W, or a key weights.AXIS of the config. */
static void
set_weight(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	double *w[] = { &o.w.faithfulness, &o.w.coverage, &o.w.redundancy, NULL }, x;
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	int i;

	(void)value;
	if (eq == NULL || ev_parse_double(eq + 1, 0, 1e6, &x) == -1)
		ev_opt_bad_value(cli, src, src[0] == '-' ? "AXIS=W with W a number from 0 to 1e6" :
		    "a number from 0 to 1e6", src[0] == '-' || eq == NULL ? arg : eq + 1);
	for (i = 0; w[i] != NULL; i++)	/* the axes of overall, ev_axis_name's first three */
		if (strlen(ev_axis_name[i]) == n && strncmp(arg, ev_axis_name[i], n) == 0)
			break;
	if (w[i] != NULL)
		*w[i] = x;
	else if (src[0] == '-')
		ev_cli_usage_error(cli, "%s: unknown axis '%.*s' (faithfulness, coverage, redundancy)",
		    src, (int)n, arg);
	else
		ev_warn("%s ignored: not an axis (faithfulness, coverage, redundancy)", src);
}

/* --summary[=text|json]; the config's summary may also be true or false. */
static void
set_summary(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)value;
	if (arg == NULL || strcmp(arg, "text") == 0 || (src[0] != '-' && strcmp(arg, "true") == 0))
		o.summary = SUMMARY_TEXT;
	else if (strcmp(arg, "json") == 0)
		o.summary = SUMMARY_JSON;
	else if (src[0] != '-' && strcmp(arg, "false") == 0)
		o.summary = SUMMARY_NONE;
	else
		ev_opt_bad_value(cli, src, src[0] == '-' ? "text or json" : "true, false, text or json",
		    arg);
}

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &o.db, "DB", "idf for redundancy from the store's vocabulary"),
	EV_OPT_NUM_UNSET(0, "min-overall", "gates.min_overall", &o.g.bound[EV_AX_OVERALL], 0, 1, "X",
	    "exit 3 when an item's overall score is below X"),
	EV_OPT_NUM_UNSET(0, "min-faithfulness", "gates.min_faithfulness", &o.g.bound[EV_AX_FAITH], 0,
	    1, "X", "exit 3 when an item's faithfulness is below X"),
	EV_OPT_NUM_UNSET(0, "min-coverage", "gates.min_coverage", &o.g.bound[EV_AX_COVERAGE], 0, 1,
	    "X", "exit 3 when an item's coverage is below X"),
	EV_OPT_NUM_UNSET(0, "max-redundancy", "gates.max_redundancy", &o.g.bound[EV_AX_REDUNDANCY],
	    0, 1, "X", "exit 3 when an item's redundancy is above X"),
	EV_OPT_FUNC(0, "weight", "weights.*", NULL, set_weight, "AXIS=W",
	    "weight of faithfulness, coverage or redundancy in overall, from 0 to 1e6", "0.4, 0.4, 0.2"),
	EV_OPT_CHOICE(0, "redundancy", "redundancy", &o.how, "nearest|max|mean",
	    "how the pair similarities become one figure"),
	EV_OPT_CHOICE(0, "coverage", "coverage", &o.cover, "cited|used", "the citations coverage counts"),
	EV_OPT_FUNC(0, "summary", "summary", NULL, set_summary, "[=text|json]",
	    "mean, p10, p50, p90 of each axis, and each failing gate with the items that fail it: "
	    "text on stderr (the default), or json: a last line on stdout", NULL),
	EV_OPT_STR(0, "judge", "judge", &o.judge, "CMD", "ask CMD (run by sh, kept running) about "
	    "each claim: one JSON line out per claim, one verdict line back"),
	EV_OPT_NUM(0, "judge-timeout", "judge_timeout", &o.timeout, 0.001, 86400, "SECONDS",
	    "how long to wait for each verdict"),
	EV_OPT_SKIP_INVALID(&o.skip_invalid),
	EV_OPT_END
};

/* Score rec (line lineno, at where) and write its record; count and name
 * it when it fails a gate.  Returns 0, or -1 with *err set. */
static int
score_one(struct ev_scorer *sc, struct ev_judge *jd, struct ev_score_item *item, json_t *rec,
    size_t lineno, const char *where, struct ev_summary *sum, int any_gate, struct ev_err *err)
{
	struct ev_score_result res = { 0 };
	json_t *out = NULL, *qid = ev_score_record_id(rec, lineno), *wv;
	struct ev_buf id = EV_BUF_INIT;
	double axes[EV_NAXES];
	int failed[EV_NAXES], bad, r = -1;
	char msg[512];
	size_t i;

	if (jd != NULL)
		ev_judge_item(jd, item, qid);
	if (ev_score_answer(sc, item, &o.w, 1, &res, err) == -1) {
		if (err->where[0] == '\0')
			snprintf(err->where, sizeof(err->where), "%s", where);
		goto out;
	}
	json_array_foreach(json_object_get(res.details, "warnings"), i, wv)
		ev_warn("%s: %s", where, json_string_value(wv));
	memcpy(axes, (double[EV_NAXES]){ res.faithfulness, res.coverage, res.redundancy,
	    res.overall }, sizeof axes);
	bad = ev_gates_check(&o.g, axes, failed);
	if ((out = ev_score_record(rec, lineno, &res, any_gate ? !bad : -1)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	if (bad && o.g.failed_items < GATE_MESSAGES) {
		if (ev_json_id_buf(qid, &id) == -2) {
			ev_err_nomem(err);
			goto out;
		}
		ev_warn("%s: query '%s' fails a gate: %s", where, ev_buf_str(&id),
		    ev_gates_text(&o.g, axes, failed, msg, sizeof msg));
	}
	if ((bad && ev_gates_count(&o.g, failed, qid, err) == -1) ||
	    (o.summary != SUMMARY_NONE && ev_summary_add(sum, axes, err) == -1))
		goto out;
	r = ev_jsonl_write(stdout, out, err);
out:
	json_decref(out);
	json_decref(qid);
	ev_buf_release(&id);
	ev_score_result_release(&res);
	return r;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_score_item item = EV_SCORE_ITEM_INIT;
	struct ev_summary sum = EV_SUMMARY_INIT;
	struct ev_skip skip = { 0 };
	struct ev_store *st = NULL;
	struct ev_tok *tok = NULL;
	struct ev_scorer *sc = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_judge *jd = NULL;
	json_t *rec = NULL;
	char where[sizeof(err.where)];
	int a, r, argi, rc = EV_EXIT_OK, any_gate = 0;
	long long items = 0;

	for (a = 0; a < EV_NAXES; a++)
		o.g.bound[a] = NAN;
	ev_cli_init(&cli, "ev-score", NULL, argc, argv);
	argi = ev_opt_parse(&cli, &command, options);
	skip.on = o.skip_invalid;
	if (!(o.w.faithfulness + o.w.coverage + o.w.redundancy > 0))
		ev_cli_usage_error(&cli, "the weights must not all be 0");
	if (o.judge != NULL && o.judge[0] == '\0')
		ev_cli_usage_error(&cli, "--judge takes a command");
	for (a = 0; a < EV_NAXES; a++)
		any_gate |= o.g.set[a] = !isnan(o.g.bound[a]);

	if ((o.db != NULL && (st = ev_store_open(o.db, EV_STORE_READ, &err)) == NULL) ||
	    (tok = ev_tok_open(st != NULL ? ev_store_db(st) : NULL, &err)) == NULL ||
	    (sc = ev_score_open(tok, st, &err)) == NULL)
		goto fail;
	ev_score_set_redundancy(sc, (enum ev_score_redundancy)o.how);
	ev_score_set_coverage(sc, (enum ev_score_coverage)o.cover);
	if (o.judge != NULL) {
		if ((jd = ev_judge_start(o.judge, o.timeout, &err)) == NULL)
			goto fail;
		ev_score_set_judge(sc, ev_judge_ask, jd);
	}
	if ((in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL)
		goto fail;
	while ((r = ev_jsonl_next(in, &rec, &err)) != 0) {
		snprintf(where, sizeof(where), "%s", ev_jsonl_where(in));
		if (r == 1 && ev_score_item_from_json(&item, rec, where, &err) == -1)
			r = -1;	/* bad input: skipped with --skip-invalid */
		else if (r == 1 && score_one(sc, jd, &item, rec, ev_jsonl_seqno(in), where, &sum,
		    any_gate, &err) == -1)
			r = -2;
		json_decref(rec);
		rec = NULL;
		if (r == 1)
			items++;
		else if (r == -2 || !ev_cli_skip(&skip, &err))
			goto fail;
		ev_err_clear(&err);
	}
	if ((o.summary == SUMMARY_TEXT && ev_summary_text(stderr, "ev-score: ", &sum, &o.g,
	    &err) == -1) || (o.summary == SUMMARY_JSON && ev_summary_json(stdout, &sum, &o.g,
	    &err) == -1))
		goto fail;
	if (skip.count > 0)
		ev_cli_skip_done(&cli, &skip);
	if (o.g.failed_items > 0) {
		if (o.g.failed_items > GATE_MESSAGES)
			ev_warn("... and %lld more", o.g.failed_items - GATE_MESSAGES);
		ev_warn("%lld of %lld item%s below a gate", o.g.failed_items, items, items == 1 ? "" : "s");
		rc = EV_EXIT_THRESHOLD;
	} else if (items == 0)	/* an empty input passes every gate: say so */
		ev_warn("no answer was scored: no gate was passed or failed");
	goto out;
fail:
	rc = ev_cli_report(&err);
out:
	if (jd != NULL) {
		struct ev_err jerr = { 0 };

		ev_cli_count(&cli, "judged", ev_judge_asked(jd));
		if (ev_judge_stop(jd, &jerr) == -1 && rc == EV_EXIT_OK)
			rc = ev_cli_report(&jerr);
	}
	ev_cli_count(&cli, "items", items);
	if (any_gate)
		ev_cli_count(&cli, "below_gate", o.g.failed_items);
	ev_gates_release(&o.g);
	ev_summary_release(&sum);
	ev_score_item_release(&item);
	ev_jsonl_close(in);
	ev_score_close(sc);
	ev_tok_close(tok);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
