/* fusecalib.c: a store's fusion calibration read back.  See fusecalib.h. */
#include "fusecalib.h"

#include <stdlib.h>

/* The pipeline's fusion weights where neither a plan nor the store sets
 * them: the feedback lane a little above the text lane, the plain vector
 * lane only its evidence and its agreement. */
static const struct {
	const char *lane;
	double w;
} default_weights[] = { { "text", 1 }, { "vector_feedback", 1.25 }, { "vector", 0 } };

int
ev_calib_load(struct ev_store *st, json_t **row, struct ev_err *err)
{
	char *s = NULL;
	int r = ev_store_meta_get(st, EV_CALIB_KEY, &s, err);

	*row = NULL;
	if (r != 1)
		return r;
	*row = json_loads(s, 0, NULL);
	free(s);
	if (*row != NULL && json_integer_value(json_object_get(*row, "version")) == EV_CALIB_VERSION &&
	    json_is_object(json_object_get(*row, "weights")))
		return 1;
	json_decref(*row);	/* another version's, or not ours: not used */
	*row = NULL;
	return 0;
}

/* The weights and the rule of row (or the defaults, row NULL) into c.
 * Returns 0, or -1 with *err set (code 2). */
static int
calibrated(const json_t *row, struct ev_fuse_opts *c, struct ev_err *err)
{
	const char *lane;
	json_t *w;

	if (row == NULL) {
		for (size_t i = 0; i < sizeof default_weights / sizeof default_weights[0]; i++)
			if (ev_fuse_weight_set(c, default_weights[i].lane, default_weights[i].w, err) == -1)
				return -1;
		c->adapt = EV_ADAPT_NONE;
		return 0;
	}
	json_object_foreach((json_t *)json_object_get(row, "weights"), lane, w)
		if (!json_is_number(w) || ev_fuse_weight_set(c, lane, json_number_value(w), err) == -1)
			return -1;
	if (!json_is_string(json_object_get(row, "adapt")) ||
	    ev_fuse_adapt_parse(json_string_value(json_object_get(row, "adapt")), &c->adapt) == -1)
		return -1;
	return 0;
}

int
ev_calib_apply(const json_t *row, int weights, int adapt, struct ev_fuse_opts *o,
    struct ev_err *err)
{
	struct ev_fuse_opts c;

	ev_fuse_opts_init(&c);
	if (calibrated(row, &c, err) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, EV_CALIB_KEY,
		    "the store's fusion calibration is not readable: run ev-embed-load again");
	if (adapt)
		o->adapt = c.adapt;
	for (int i = 0; weights && i < c.nweights; i++)
		if (ev_fuse_weight_set(o, c.weights[i].lane, c.weights[i].w, err) == -1)
			return -1;
	return 0;
}

int
ev_calib_defaults(struct ev_store *st, int weights, int adapt, struct ev_fuse_opts *o,
    struct ev_err *err)
{
	json_t *row = NULL;
	int r = ev_calib_load(st, &row, err);

	if (r != -1 && ev_calib_apply(row, weights, adapt, o, err) == -1)
		r = -1;
	json_decref(row);
	return r == -1 ? -1 : r == 1 ? EV_FUSE_FROM_STORE : EV_FUSE_FROM_DEFAULT;
}
