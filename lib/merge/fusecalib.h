/* fusecalib.h: the fusion weights a store keeps (its calibration, made by
 * ev-embed-load: calibrate.h) read back, and the pipeline's defaults where a
 * store has none: what ev-fuse --db sets where a plan does not.
 *
 * Reading a calibration needs the store and the fusion's options alone, not
 * the lanes that made it: the commands that only read one (ev-fuse) stay
 * free of the search code, and of the vector library behind it, which
 * would cost each of their processes its start.
 *
 * Layer: includes err.h, store.h and fuseopt.h; calibrate.h writes what this
 * reads. */
#ifndef EV_FUSECALIB_H
#define EV_FUSECALIB_H

#include <jansson.h>

#include "err.h"
#include "fuseopt.h"
#include "store.h"

#define EV_CALIB_KEY "fusion.calibration"	/* the store's meta row */
#define EV_CALIB_VERSION 1	/* of the row's JSON; another version is not used */

/* The store's calibration: returns 1 with *row (the caller's reference), 0
 * when the store has none of EV_CALIB_VERSION, or -1 with *err set. */
int ev_calib_load(struct ev_store *st, json_t **row, struct ev_err *err);

/* Set in *o what a plan did not: the lanes' weights when weights is set,
 * the adaptive rule when adapt is set; from row (a calibration: its
 * "weights", an object of a number per lane, and its "adapt", a rule's
 * name), or from the pipeline's defaults (text 1, vector_feedback 1.25,
 * vector 0, no agreement) when row is NULL.  Returns 0, or -1 with *err set
 * (a row with a bad value, code 2; *o as it was). */
int ev_calib_apply(const json_t *row, int weights, int adapt, struct ev_fuse_opts *o,
	struct ev_err *err);

/* ev_calib_apply() with the store's calibration, if it has one: returns
 * EV_FUSE_FROM_STORE or EV_FUSE_FROM_DEFAULT (what the weights unset came
 * from), or -1 with *err set. */
int ev_calib_defaults(struct ev_store *st, int weights, int adapt, struct ev_fuse_opts *o,
	struct ev_err *err);

#endif
