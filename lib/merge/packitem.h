/* packitem.h: one evidence of an EvidencePack (pack.h), written from the
 * candidate kept: its fields, signals, provenance, metadata, evidence array
 * and badges (packbadge.h).
 *
 * Includes packstate.h and assemble.h (what countervails). */
#ifndef EV_PACKITEM_H
#define EV_PACKITEM_H

#include "assemble.h"
#include "packexplain.h"
#include "packstate.h"

/* What an evidence item carries besides the hit's fields. */
struct ev_pack_extra {
	long long query_index;
	const char *query_text;
	json_t *routing;	/* borrowed, or NULL */
	json_t *provenances;	/* taken, or NULL */
	const char *group;	/* or NULL */
	const struct ev_contra_why *cv;	/* countervailing, or NULL */
	const char *best_id;	/* the first evidence's id (NULL for the first) */
	int mmr;		/* MMR chose it: its score goes into signals */
	struct ev_pack_sigseen *seen;	/* what the evidences had, for explain */
	const char *retrieved_at;	/* when the lanes ran, for a hit no lane stamped */
};

/* The evidence object of candidate it (parsed), with what x adds (x's
 * provenances are taken, even on failure); now is the pack's time; *no_uri
 * counts the evidences without a source_uri.  NULL with *err set when out
 * of memory, or when the stored text its snippet needs could not be read
 * (ev_pack_set_texts()'s fn failed: a damaged store). */
json_t *ev_pack_evidence_item(const struct ev_pack *p, const struct item *it,
	const struct ev_pack_extra *x, const char *now, int *no_uri, struct ev_err *err);

/* The provenances of a candidate found by several queries of the request:
 * one entry per query, best first (it->pv is sorted so); *bad set when out
 * of memory. */
json_t *ev_pack_provenances(const struct ev_pack *p, struct item *it, int *bad);

#endif
