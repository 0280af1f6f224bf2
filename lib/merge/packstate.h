/* packstate.h: what the modules of the packer share (pack.c adds hits,
 * packselect.c chooses among them, packitem.c and packbadge.c write each
 * evidence, packbuild.c the pack): the candidates and the request's queries,
 * the lanes a hit names, and the sticky-error helpers that build records.
 * Not for callers: they use pack.h.
 *
 * Includes packopts.h, buf.h, jscan.h, uuid.h and Jansson. */
#ifndef EV_PACKSTATE_H
#define EV_PACKSTATE_H

#include <stdint.h>

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "jscan.h"
#include "note.h"
#include "packopts.h"
#include "uuid.h"

/* ---- lanes and modes ---- */

enum {
	LANE_VECTOR = 1, LANE_TEXT = 2, LANE_REGION = 4, LANE_TIMELINE = 8, LANE_OTHER = 16,
	LANE_STRUCTURED = 32, LANE_NEIGHBOUR = 64, LANE_LINK = 128, LANE_VISUAL = 256
};

/* The lane bit of a lane's name (0 for none or "fused"; LANE_OTHER for a
 * lane evkit does not know). */
unsigned ev_pack_lane_bit(const char *lane);

/* The same for a lane name as raw[0..n), still JSON-escaped. */
unsigned ev_pack_raw_lane_bit(const char *raw, size_t n);

/* The lanes that found a hit: its own lane, or for a fused hit the lanes its
 * explanation says found it, else its evidence's lanes, else its signals';
 * LANE_OTHER when none of these says (a lane evkit does not know). */
unsigned ev_pack_hit_lanes(json_t *hit);

/* provenance.mode: exact (text only), semantic (vector, region or visual only),
 * relational (the structured lane only), associative (expansion lanes only:
 * timeline, neighbour, link, and lanes evkit does not know), hybrid (more
 * than one of these): its index, from 0 to EV_PACK_NMODES - 1, its name, and
 * the name of an index. */
#define EV_PACK_NMODES 5
int ev_pack_mode_index(unsigned bits);
const char *ev_pack_mode(unsigned bits);
const char *ev_pack_mode_name(int index);

/* The lanes of bits as text, "vector+text", into buf[0..size). */
void ev_pack_lanes_text(unsigned bits, char *buf, size_t size);

/* The top-level members of a hit that packing reads, found in one pass
 * over a scanned line (pack.c); from K_TITLE on, its chunk's fields
 * (hitfields.h), strings up to K_CHUNK_INDEX, whole numbers from it (at most
 * 64 keys: a mask of them is kept). */
enum {
	K_ID, K_SCORE, K_RANK, K_EXPLAIN, K_LANE, K_SNIPPET, K_DOC_ID, K_QUERY, K_SIGNALS,
	K_EVIDENCE, K_RERANK, K_ROUTING, K_WARNINGS, K_MODALITY, K_METADATA, K_QUERY_ID,
	K_REQUEST_ID, K_QUERY_INDEX, K_FILTERS, K_TITLE, K_SECTION_ID, K_SECTION_TITLE,
	K_SECTION_PATH, K_SOURCE_URI, K_SOURCE_TYPE, K_LANGUAGE, K_CONTENT_HASH,
	K_PUBLISHED_DATE, K_CHUNK_INDEX, K_OFFSET_START, K_OFFSET_END, K_PAGE, K_PAGE_END, NKEYS
};

/* ---- the accumulator ---- */

/* One query of the request being packed. */
struct pq {
	json_t *id;		/* its query_id (a string or an integer) */
	char *key;		/* the id as text */
	char *text;		/* its text, or NULL */
	json_t *routing;	/* its routing object, or NULL */
	json_t *filters;	/* the filters its lanes applied (a hit's), or NULL */
	long long index;	/* query_index */
	int given;		/* index given (not its position) */
	long long candidates, returned, found;	/* filled by ev_pack_build() */
};

/* A query that found a candidate: its score, rank and lanes there. */
struct prov {
	int q;
	double score;
	long long rank;
	unsigned lanes;
};

/* A candidate.  Hits read as lines (ev_pack_add_line()) are kept as their
 * raw text and parsed only when presentation looks at them: a pack keeps k of
 * a thousand candidates. */
struct item {
	json_t *hit;		/* the best-scoring hit of this id; NULL: not parsed yet */
	size_t raw, rawlen;	/* else its line, at p->raw.p + raw */
	double score;
	unsigned lanes;
	int q;			/* the query that found it best */
	long long rank;		/* its rank there (0: none given) */
	struct prov *pv;	/* every query that found it, when more than one */
	size_t npv;
	int group;		/* its group, in p->groups (-1: none) */
	int kept;		/* among the evidences returned */
	uint64_t *words;	/* sorted hashes of its text's words, for overlap */
	size_t nwords;
	float *vec;		/* its vector, for MMR (NULL: none) */
	double mmr;		/* its MMR score when MMR chose it */
	json_t *ev;		/* its evidence entries, once another hit of its id
				 * was merged into it (NULL: its hit's own) */
	size_t first;		/* its first hit's place in p->firsts */
	int q0;			/* the query of its first hit */
	int noted;		/* its first hit is in p->twice */
};

struct ev_pack {
	struct ev_pack_opts o;
	const json_t *plan, *ignored;
	char plan_id[EV_UUID_LEN + 1];
	struct item *it;
	size_t n, cap;
	json_t *ids;		/* id -> index, as an integer */
	json_t *fusion;		/* the first fused hit's explain, or NULL */
	json_t *warnings;	/* ev_pack_warn()'s, for every pack */
	json_t *hitwarn;	/* the hits' warnings, in order, once each */
	json_t *hitwarn_set;	/* the same, as keys */
	json_t *qkeys;		/* query id text -> its place in q */
	json_t *qindex;		/* query_index as text -> its place in q */
	json_t *rerank;		/* the first hit's rerank object, or NULL */
	json_t *groups;		/* group names, in order of first use */
	struct pq *q;		/* the request's queries */
	size_t nq, capq;
	int cur;		/* the query hits are added to (-1: none yet) */
	char *req;		/* the first request_id a hit gave, or NULL */
	int (*vfn)(void *, const char *, float *, struct ev_err *);	/* vectors for MMR
				 * (ev_pack_vector_fn), or NULL */
	void *vctx;
	int dim;
	int (*tfn)(void *, const char *, struct ev_buf *, struct ev_err *);	/* stored
				 * texts for snippets (ev_pack_text_fn), or NULL */
	void *tctx;
	ev_note_fn *note;	/* notes for the user (ev_pack_set_note()), or NULL */
	void *note_ctx;
	int page_noted;		/* a metadata page that is not a number was said */
	long long request_ms;	/* when the request began (Unix ms), or 0 */
	struct ev_contra *contra;	/* made when first needed */
	struct ev_buf raw;	/* the lines of the current query's hits */
	struct ev_buf firsts;	/* where each item's first hit was read, and its lane:
				 * "WHERE\0" then "-" or "L" and the lane, and "\0" */
	json_t *twice;		/* "QUERY:LANELEN:LANE ID" -> the place in firsts of
				 * its where, for the ids given more than once */
	struct ev_buf tkey;	/* such a key */
	struct ev_jscan js;	/* the line last scanned (ev_pack_scan_line()) */
	const char *line;
	size_t linelen;
	struct ev_buf idb;	/* a decoded string */
	struct ev_buf qidb;	/* ev_pack_query()'s query id as text */
	struct ev_buf reqb;	/* the scanned line's request id */
	struct ev_buf rerankb;	/* the text of the rerank last checked (raw_extras()) */
	struct ev_jmems sub;	/* members of a nested object */
	int at[NKEYS];		/* the scanned line's members by key (-1: absent or null) */
};

/* Parse item it's line (when not parsed yet).  Returns 0, or -1 with *err
 * set. */
int ev_pack_materialize(struct ev_pack *p, struct item *it, struct ev_err *err);

/* The text a candidate is compared by: its "text", else its "snippet", else "". */
const char *ev_pack_item_text(const struct item *it);

/* The first signal of sig that is a score the hit was ranked by: a lane's
 * (LANE_score) or a fusion's (rrf_score, fused_score), not one the packer
 * adds (rerank, mmr, recency, tag, topic); NULL when there is none. */
const char *ev_pack_ranking_score(const json_t *sig);

/* ---- building records ---- */

static inline json_t *
str_or_null(json_t *v)
{
	return json_is_string(v) ? json_incref(v) : NULL;
}

/* Building a record, with a sticky error (as in FTS5's fts5_buffer.c): each
 * helper sets *bad when Jansson fails (memory running out), and the caller
 * checks once, so that no record is ever written with a field missing. */

/* o[k] = v (taken); v NULL (a failed constructor) is a failure. */
static inline void
set_new(int *bad, json_t *o, const char *k, json_t *v)
{
	if (json_object_set_new(o, k, v) == -1)
		*bad = 1;
}

/* o[k] = v (taken) when v is not NULL (NULL: the field is left out). */
static inline void
set_if(int *bad, json_t *o, const char *k, json_t *v)
{
	if (v != NULL)
		set_new(bad, o, k, v);
}

/* o[k] = v (borrowed) when v is not NULL. */
static inline void
set_ref(int *bad, json_t *o, const char *k, json_t *v)
{
	if (v != NULL && json_object_set(o, k, v) == -1)
		*bad = 1;
}

/* a += v (borrowed). */
static inline void
set_ref_append(int *bad, json_t *a, json_t *v)
{
	if (json_array_append(a, v) == -1)
		*bad = 1;
}

/* a += v (taken). */
static inline void
append_new(int *bad, json_t *a, json_t *v)
{
	if (json_array_append_new(a, v) == -1)
		*bad = 1;
}

#endif
