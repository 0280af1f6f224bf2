/* hitcheck.h: a hit record's shape, the one rule every stage that reads
 * hits holds them to (ev-pack, ev-expand, ev-rerank, ev-fuse, ev-route, the
 * lanes' feedback; ev-eval judges by doc_id and reads no more): on
 * Jansson's tree, and on the members the strict scanner finds, for the
 * readers that build no tree (ev-fuse, the vector lane's feedback).
 *
 * Layer 3: includes jsonl.h and jscan.h. */
#ifndef EV_HITCHECK_H
#define EV_HITCHECK_H

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "jscan.h"
#include "jsonl.h"

/* Check a hit record's shape: an object with a non-empty string "id", a
 * finite number "score", and where present a whole "rank" from 1, string
 * "lane", "snippet", "doc_id" and "query", objects "signals" and "explain",
 * an array "evidence" and an array of strings "warnings" (null: absent);
 * and the values they hold: each signal a number or a boolean
 * ("query_as_document": true), a lane's rank (a signal named LANE_rank,
 * such as fts_rank) a whole number from 1, each evidence entry an object whose "lane"
 * is a non-empty string, "score" a number, "rank" a whole number from 1
 * and "snippet" a string where present (null is no such value here), and
 * explain's "lanes" (ev-fuse's) an array of objects whose "lane" is a
 * non-empty string, "found" a boolean, "rank" a whole number from 1 and
 * "score" a number where present.  Every rank follows one rule: a whole
 * number written as a real (3.0) is that integer; 2.5, 0 or below is
 * refused.  A hit that passes has its whole ranks written as reals (its
 * "rank", its lanes' rank signals, its evidence's and explain.lanes'
 * ranks: 2.0) made integers (2), as its readers take them.  Returns 0,
 * or -1 with *err set (code 2, naming where and the field, such as "field
 * 'evidence[1].lane' must be a string" or "field 'signals.fts_rank' must
 * be an integer"; code 1 out of memory). */
int ev_hit_check(json_t *hit, const char *where, struct ev_err *err);

/* The part of ev_hit_check() that a reader without the tree needs, for the
 * member m of a hit line that the scanner validated: "signals", "evidence",
 * "explain" (its "lanes") and "warnings" are held to the rule above, with
 * the same messages; any other member passes (its reader checks the fields
 * it reads).  scratch is the caller's, reused (its contents are lost).
 * Returns 0; 1 when m passes with a rank written as a real (2.0: a lane's
 * rank among the signals, an evidence or explain.lanes entry's), which a
 * reader that passes the line on as it is must make an integer first
 * (ev_hit_check() on the tree does); or -1 with *err set
 * (code 2 at where, or 1 out of memory). */
int ev_hit_check_member(const struct ev_jmem *m, struct ev_jmems *scratch, const char *where,
	struct ev_err *err);

/* Read the next hit record of in (checked by ev_hit_check()) into *out and
 * its query_id as text, of any length (ev_json_id_buf()), into qid.  Returns
 * 1, 0 at the end, or -1 with *err set (code 2 naming FILE:LINE for a bad
 * record, *out then NULL: the caller may skip it and read on). */
int ev_jsonl_next_hit(struct ev_jsonl *in, json_t **out, struct ev_buf *qid, struct ev_err *err);

#endif
