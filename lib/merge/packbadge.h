/* packbadge.h: an evidence's relevance badges, derived from its evidence
 * array (evidence.h): what each lane's entry says happened.
 *
 * Includes assemble.h (what countervails) and Jansson. */
#ifndef EV_PACKBADGE_H
#define EV_PACKBADGE_H

#include <jansson.h>

#include "assemble.h"

/* The badges of a candidate (a new array): one per kind its evidence's
 * entries give (exact_match and typo_repair for the text lane,
 * semantic_match for the lanes whose vector came from the query,
 * feedback_match, cross_reference_chain, neighbour per lane,
 * structured_constraint), and countervailing against best_id when cv is not
 * NULL.  *bad is set when out of memory. */
json_t *ev_pack_badges(const json_t *evidence, const struct ev_contra_why *cv,
	const char *best_id, int *bad);

#endif
