/* score.h: citation scoring: how well an answer is supported by
 * the passages it cites (faithfulness), how much of the question the
 * passages address (coverage), and how much the passages repeat one another
 * (redundancy), combined into one overall score.
 *
 * Upper layer: includes analyze.h, err.h, strmap.h, token.h, store.h and
 * Jansson.
 * Tokens are the text lane's (lib/store/token.h: stemmed for the item's
 * language, stop words known by their stems), so "caused" in an answer is
 * supported by "causes" in a passage, and "mangeaient" by "manger" in a
 * French item.  An item's language is its own (ev_score_item.language),
 * else the answer's as langid.h finds it (the query's when the answer is
 * empty); the query, answer and citations are all stemmed for it.  A term
 * is a "content term" when it is not a stop word.
 *
 * The axes, for one item (a query, an answer and its citations):
 *   faithfulness  the answer is split into claims (sentences: text up to '.',
 *                 '!', '?' or '...' followed by a space or the end, or up to
 *                 a blank line or a list item); a claim's support is the share
 *                 of its distinct content terms found in any citation (the
 *                 words of citation markers, "[1]", left out:
 *                 ev_score_marker());
 *                 faithfulness is the mean support of the claims that have
 *                 content terms.  0 when there are none or no citations.
 *   coverage      the share of the query's distinct content terms found
 *                 across the cited passages (EV_SCORE_COVER_CITED, the
 *                 default), or only in the citations the answer uses
 *                 (EV_SCORE_COVER_USED: one that holds at least one of the
 *                 answer's content terms; a citation the answer shares no
 *                 word with then covers nothing).  0 when the query has none
 *                 or there is no citation (or, EV_SCORE_COVER_USED, the
 *                 answer uses none).
 *   redundancy    TF-IDF cosine similarity between citations (content terms;
 *                 tf raw counts; idf = 1 + ln((1 + N) / (1 + df)), with N and
 *                 df from the store when one is given, else from the
 *                 citations themselves).  Per citation, its similarity to its
 *                 nearest other citation; the axis is the mean of those
 *                 (EV_SCORE_NEAREST, the default), or the largest pair
 *                 (EV_SCORE_MAX), or the mean of all pairs (EV_SCORE_MEAN).
 *                 0 with fewer than two citations: a lone citation repeats
 *                 nothing (an answer that uses none of its citations still
 *                 scores at most wr * (1 - redundancy) overall).
 *   overall       (wf * faithfulness + wc * coverage + wr * (1 - redundancy))
 *                 / (wf + wc + wr), by default 0.4, 0.4, 0.2.
 *
 * A scorer keeps its memory between items (term tables, arrays), so scoring
 * an item allocates only what grows; it is not thread-safe. */
#ifndef EV_SCORE_H
#define EV_SCORE_H

#include <stddef.h>
#include <jansson.h>

#include "analyze.h"
#include "err.h"
#include "store.h"
#include "strmap.h"
#include "token.h"

/* How the pairwise similarities become the redundancy axis. */
enum ev_score_redundancy {
	EV_SCORE_NEAREST = 0,	/* mean over citations of the nearest other's similarity */
	EV_SCORE_MAX,		/* the most similar pair */
	EV_SCORE_MEAN		/* the mean of every pair */
};

/* Which citations the coverage axis counts. */
enum ev_score_coverage {
	EV_SCORE_COVER_CITED = 0,	/* every citation: the passages the answer cites */
	EV_SCORE_COVER_USED		/* the citations the answer shares a word with */
};

/* At most this many citations an item (the pairwise work is quadratic). */
#define EV_SCORE_MAX_CITATIONS 1000

/* One citation: text[0..len), not NUL-terminated; id may be NULL. */
struct ev_score_cite {
	const char *id;
	const char *text;
	size_t len;
};

/* One item to score.  The strings are borrowed (from the input record). */
struct ev_score_item {
	const char *query;
	size_t query_len;
	const char *answer;
	size_t answer_len;
	struct ev_score_cite *cites;
	size_t ncites;
	size_t cap;		/* allocated entries of cites */
	char language[EV_ANALYZE_CODE_MAX];	/* the texts' language code, or ""
				 * to find it from the answer (langid.h) */
	char *idnums;		/* the integer ids of citations in decimal, 24 bytes
				 * each (their cites' id points here), or NULL */
};

#define EV_SCORE_ITEM_INIT { "", 0, "", 0, NULL, 0, 0, "", NULL }

/* Weights of the overall score (each >= 0, their sum > 0). */
struct ev_score_weights {
	double faithfulness;
	double coverage;
	double redundancy;
};

#define EV_SCORE_WEIGHTS_DEFAULT { 0.4, 0.4, 0.2 }

/* The scores of one item.  details (a new reference, the caller decrefs; NULL
 * when details were not asked for) holds:
 *   claims: [{"text", "terms", "support", "citation": {"index", "id"?,
 *             "support"} | null, "unsupported": [words]}], claims_scored (the
 *   claims with content terms, which faithfulness averages)
 *   query_terms, uncovered: [words] (in no citation coverage counts),
 *   coverage_of ("cited" or "used"), citations_used
 *   pairs, most_redundant: {"a", "b", "a_id"?, "b_id"?, "similarity"} | null,
 *   redundancy_max, redundancy_mean, redundancy_nearest, idf ("store" or
 *   "citations")
 *   warnings: [text] (only when there are some)
 *   language: the code of the language the texts were stemmed for (only
 *             when not English)
 * Words are reported as written (the first occurrence), not as stems. */
struct ev_score_result {
	double faithfulness;
	double coverage;
	double redundancy;
	double overall;
	int nwarnings;		/* warnings raised (also in details.warnings) */
	char warning[160];	/* the first warning's text, for a diagnostic */
	json_t *details;
};

struct ev_scorer;

/* Open a scorer on tok (borrowed; it must outlive the scorer).  When st is
 * not NULL, idf comes from the store's FTS5 vocabulary (chunks_vocab, and
 * the number of chunks); it must stay open while the scorer lives.  Returns
 * NULL with *err set. */
struct ev_scorer *ev_score_open(struct ev_tok *tok, struct ev_store *st, struct ev_err *err);

/* Free the scorer (NULL-safe). */
void ev_score_close(struct ev_scorer *sc);

/* Choose the redundancy aggregate (EV_SCORE_NEAREST by default). */
void ev_score_set_redundancy(struct ev_scorer *sc, enum ev_score_redundancy how);

/* Choose the citations coverage counts (EV_SCORE_COVER_CITED by default). */
void ev_score_set_coverage(struct ev_scorer *sc, enum ev_score_coverage which);

/* A judge (the --judge hook): called for each claim that has content terms,
 * with the claim's text, the citation that supports it best (NULL when no
 * citation shares a term with it) and the keyword support.  Returns 0 with
 * *verdict in [0, 1] (the claim's support from then on), or -1 with *err set
 * (ev_score_answer() then fails with that error). */
typedef int (*ev_score_judge_fn)(void *ctx, const char *claim, size_t claim_len,
	const struct ev_score_cite *best, double keyword_support, double *verdict,
	struct ev_err *err);

/* Set (or, with fn NULL, clear) the judge.  A judged claim's details carry
 * "support" (the verdict), "keyword_support" and "judged": true. */
void ev_score_set_judge(struct ev_scorer *sc, ev_score_judge_fn fn, void *ctx);

/* Score item with weights w.  With want_details, res->details is filled.
 * Returns 0, or -1 with *err set (tokeniser or store failure: code 1). */
int ev_score_answer(struct ev_scorer *sc, const struct ev_score_item *item,
	const struct ev_score_weights *w, int want_details, struct ev_score_result *res,
	struct ev_err *err);

/* Free what a result holds (its details) and clear it (NULL-safe). */
void ev_score_result_release(struct ev_score_result *res);

/* Fill item from an input record (borrowing its strings, which live as long
 * as rec): an answer record {"query", "answer", "citations": [{"id"?,
 * "text"}, ...]} (a citation may also be a bare string, or carry "snippet"
 * instead of "text"), or an EvidencePack with an added "answer", whose
 * evidences are the citations (their "snippet") and whose query is a
 * top-level "query", else the first evidence's provenance.query_text, else
 * plan.query; its query_id, when given, is a string or an integer.  where
 * names the record ("stdin:3") in messages.  Returns 0,
 * or -1 with *err set (code 2: "field 'citations' must be an array",
 * "citation 2: field 'text' must be a string", ...). */
int ev_score_item_from_json(struct ev_score_item *item, const json_t *rec, const char *where,
	struct ev_err *err);

/* Free what item allocated (not the borrowed strings) and reset it. */
void ev_score_item_release(struct ev_score_item *item);

/* Split text[0..len) into claims: calls fn(ctx, start, end) for each claim's
 * byte range, in order, with surrounding white space trimmed; empty claims
 * are skipped.  Returns the number of claims. */
size_t ev_score_claims(const char *text, size_t len,
	void (*fn)(void *ctx, size_t start, size_t end), void *ctx);

/* The length of the citation marker that starts at s[i] (s of len bytes),
 * or 0 when none does.  A marker is a bracketed list ("[1]", "[1, 2]",
 * "[1-3]", "[c12]", "[^4]") of at most 256 bytes on one line, its items
 * between commas, semicolons and white space, each (after an optional '^'
 * or '#') up to three ASCII letters then digits, a range of two such
 * joined by '-' or an en dash, or a key of ids (the item's citation ids, as
 * "[d1:s:0]"; NULL: none).  The words of the answer's markers are no
 * claim's: faithfulness and --coverage used leave them out. */
size_t ev_score_marker(const char *s, size_t len, size_t i, const struct ev_strmap *ids);

/* Combine the three axes with weights w (see above). */
double ev_score_overall(double faithfulness, double coverage, double redundancy,
	const struct ev_score_weights *w);

/* The query id of an input record (a new reference): its "query_id", else
 * its "plan.query_id" (an EvidencePack's), else lineno. */
json_t *ev_score_record_id(const json_t *rec, size_t lineno);

/* The score record of input rec (line lineno) scored res: query_id (see
 * ev_score_record_id()), request_id and plan_id when rec has them, the four
 * axes, "passed" (passed 1 or 0; left out when -1: no gate is set) and
 * details.  Returns a new reference, or NULL when out of memory. */
json_t *ev_score_record(const json_t *rec, size_t lineno, const struct ev_score_result *res,
	int passed);

#endif
