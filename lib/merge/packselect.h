/* packselect.h: which candidates a pack keeps (pack.h: "presentation is
 * strict"): the minimum score, maximal marginal relevance, near-duplicates
 * and the limit per document, until k are kept.
 *
 * Includes packstate.h (evidence.h in packselect.c). */
#ifndef EV_PACKSELECT_H
#define EV_PACKSELECT_H

#include "packstate.h"

/* What presentation dropped on the way to the evidences kept. */
struct ev_pack_dropped {
	long long below, by_doc, dups;
	long long pool, without_vector;	/* MMR: candidates looked at, of them without a vector */
};

/* Keep candidates of ord[0..nord) (best first) into kept[*nkept...], each
 * checked against those kept before it: not a near-duplicate (word-set
 * overlap or content hash) and within the limit per document (docs counts
 * each document's, an object), until k are kept; what is dropped is counted
 * in *d.  ev_pack_select_mmr() looks at the first mmr_depth candidates at or
 * above the minimum score and takes, again and again, the one with the best
 * lambda * relevance - (1 - lambda) * (its greatest similarity to one kept),
 * relevance being its score scaled to [0, 1] over them, similarity the
 * cosine of their vectors (p's vector function) or else their word overlap;
 * ev_pack_select_plain() takes them in their order.  Each returns 0, or -1
 * with *err set. */
int ev_pack_select_mmr(struct ev_pack *p, struct item **ord, size_t nord, struct item **kept,
	size_t *nkept, json_t *docs, struct ev_pack_dropped *d, struct ev_err *err);
int ev_pack_select_plain(struct ev_pack *p, struct item **ord, size_t nord, struct item **kept,
	size_t *nkept, json_t *docs, struct ev_pack_dropped *d, struct ev_err *err);

/* A candidate of the region lane alone whose page (its id up to the page,
 * "doc::D::page-3" of "doc::D::page-3::r1", else "doc::DOC::page-N" of its
 * doc_id and page) is a candidate too is evidence of that page: its
 * evidence entries are merged into the page's (without duplicates, in the
 * lanes' order), its lane added to the page's, and it leaves ord[0..*n),
 * which is compacted (*n the candidates left).  The page keeps its own
 * score and place.  Returns 0, or -1 with *err set. */
int ev_pack_merge_regions(struct ev_pack *p, struct item **ord, size_t *n, struct ev_err *err);

#endif
