/* plan.h: the retrieval plan's schema: every key a plan may hold, written
 * once, with its type, range, default and the stage that owns it.
 *
 * A retrieval plan (samples/plan.yaml) is one YAML file that scripts/ev-hybrid
 * hands to every stage: each stage reads its own keys and passes over the
 * others'.  So that a key's range and default cannot differ between the
 * stages that read it (ev-search-text and ev-tune both read lanes.text.*,
 * ev-pack reads every lane's k), each key is one entry here:
 *
 *	#define EV_PLAN_DIVERSITY_MMR_LAMBDA \
 *		("diversity.mmr_lambda", EV_PLAN_NUM, 0, 1, 1, NULL, "ev-pack")
 *
 * (key, type, min, max, default, words of a choice, owning stage).  The
 * fields are read at compile time with EV_PLAN_KEY(e), EV_PLAN_MIN(e), ...,
 * so that a command's option row (opt.h's EV_OPT_PLAN) and a stage's
 * defaults (EV_TEXTSEARCH_OPTS_INIT) take them from the entry; at run time
 * the same entries form ev_plan_schema[], which the plan readers (ev-pack's,
 * ev-tune's) loop over and from which the lists of known keys come.
 *
 * A key ending in ".*" is a section whose keys its stage checks itself
 * ("text.*", the text lane's older name) or a mapping of names to values
 * ("fusion.weights.*").  Every lane's keys are named: a key no entry names
 * ("lanes.vector.nprob") is warned about by every stage reading the plan.
 * Includes config.h; knows no stage. */
#ifndef EV_PLAN_H
#define EV_PLAN_H

#include <math.h>
#include <stddef.h>

#include <jansson.h>

#include "err.h"

enum ev_plan_type {
	EV_PLAN_INT,		/* a whole number in [min, max] */
	EV_PLAN_NUM,		/* a number in [min, max]; default NAN: none */
	EV_PLAN_BOOL,		/* true or false */
	EV_PLAN_STR,		/* a string */
	EV_PLAN_CHOICE,		/* one of the words ("none|lane|modality"); default: the
				 * index of a word, -1 for none */
	EV_PLAN_MAP,		/* KEY.*: a mapping of names (lanes, features) to single
				 * values, each read as a flag's NAME=VALUE by its stage */
	EV_PLAN_ANY		/* a section (KEY.*) whose keys its stage checks, or a
				 * value it checks */
};

/* The hits a lane returns per query at most (lanes.NAME.k, every lane's -k). */
#define EV_PLAN_MAX_K 100000

/* An entry's fields, at compile time. */
#define EV_PLAN_KEY(e)		EV_PLAN_F_KEY_ e
#define EV_PLAN_TYPE(e)		EV_PLAN_F_TYPE_ e
#define EV_PLAN_MIN(e)		EV_PLAN_F_MIN_ e
#define EV_PLAN_MAX(e)		EV_PLAN_F_MAX_ e
#define EV_PLAN_DEFAULT(e)	EV_PLAN_F_DEF_ e
#define EV_PLAN_WORDS(e)	EV_PLAN_F_WORDS_ e
#define EV_PLAN_STAGE(e)	EV_PLAN_F_STAGE_ e
#define EV_PLAN_F_KEY_(k, t, lo, hi, d, w, s)	k
#define EV_PLAN_F_TYPE_(k, t, lo, hi, d, w, s)	t
#define EV_PLAN_F_MIN_(k, t, lo, hi, d, w, s)	lo
#define EV_PLAN_F_MAX_(k, t, lo, hi, d, w, s)	hi
#define EV_PLAN_F_DEF_(k, t, lo, hi, d, w, s)	d
#define EV_PLAN_F_WORDS_(k, t, lo, hi, d, w, s)	w
#define EV_PLAN_F_STAGE_(k, t, lo, hi, d, w, s)	s
/* The entry as an initialiser of struct ev_plan_key. */
#define EV_PLAN_ROW(e)		EV_PLAN_F_ROW_ e
#define EV_PLAN_F_ROW_(k, t, lo, hi, d, w, s)	{ k, t, lo, hi, d, w, s }

/* ---- The whole plan, scripts/ev-hybrid's; ef_search, nprobe and snippet are
 * ev-search-vec's in a file of its own (lanes.vector.* in a plan) ---- */
#define EV_PLAN_VERSION		("version", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-pack")
#define EV_PLAN_PLAN_ID		("plan_id", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-pack")
#define EV_PLAN_REQUEST_ID	("request_id", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-hybrid")
#define EV_PLAN_QUERY		("query", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-hybrid")
#define EV_PLAN_DB		("db", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-hybrid")
#define EV_PLAN_INDEX		("index", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-hybrid")
#define EV_PLAN_EF_SEARCH	("ef_search", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-search-vec")
#define EV_PLAN_NPROBE		("nprobe", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-search-vec")
#define EV_PLAN_SNIPPET		("snippet", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-search-vec")
/* the text lane's older section name (lanes.text wins) */
#define EV_PLAN_TEXT		("text.*", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-search-text")

/* An entry named key with e's type, range, default, words and stage. */
#define EV_PLAN_SAME_AS(key, e) (key, EV_PLAN_TYPE(e), EV_PLAN_MIN(e), EV_PLAN_MAX(e), \
	EV_PLAN_DEFAULT(e), EV_PLAN_WORDS(e), EV_PLAN_STAGE(e))

/* ---- The text lane: lanes.text.* ---- */
#define EV_PLAN_TEXT_K		("lanes.text.k", EV_PLAN_INT, 1, EV_PLAN_MAX_K, 100, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_PROXIMITY	("lanes.text.proximity", EV_PLAN_NUM, 0, 10, 0.2, NULL, \
				 "ev-search-text")
/* feedback: a count of chunks, or a mapping of docs, terms, weight, focus */
#define EV_PLAN_TEXT_FEEDBACK	("lanes.text.feedback", EV_PLAN_INT, 0, 1000, 15, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_FEEDBACK_TERMS ("lanes.text.feedback_terms", EV_PLAN_INT, 1, 1000, 50, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_FEEDBACK_WEIGHT ("lanes.text.feedback_weight", EV_PLAN_NUM, 0, 1, 0.5, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_FEEDBACK_FOCUS ("lanes.text.feedback_focus", EV_PLAN_NUM, 0, 10, 3.0, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_FEEDBACK_POOL ("lanes.text.feedback_pool", EV_PLAN_INT, 0, EV_PLAN_MAX_K, 300, \
				 NULL, "ev-search-text")
/* the mapping's entries: the same ranges and defaults as the flat keys' */
#define EV_PLAN_TEXT_FEEDBACK_DOCS_M EV_PLAN_SAME_AS("lanes.text.feedback.docs", \
				 EV_PLAN_TEXT_FEEDBACK)
#define EV_PLAN_TEXT_FEEDBACK_TERMS_M EV_PLAN_SAME_AS("lanes.text.feedback.terms", \
				 EV_PLAN_TEXT_FEEDBACK_TERMS)
#define EV_PLAN_TEXT_FEEDBACK_WEIGHT_M EV_PLAN_SAME_AS("lanes.text.feedback.weight", \
				 EV_PLAN_TEXT_FEEDBACK_WEIGHT)
#define EV_PLAN_TEXT_FEEDBACK_FOCUS_M EV_PLAN_SAME_AS("lanes.text.feedback.focus", \
				 EV_PLAN_TEXT_FEEDBACK_FOCUS)
#define EV_PLAN_TEXT_FEEDBACK_POOL_M EV_PLAN_SAME_AS("lanes.text.feedback.pool", \
				 EV_PLAN_TEXT_FEEDBACK_POOL)
#define EV_PLAN_TEXT_FUZZY	("lanes.text.fuzzy", EV_PLAN_INT, 0, 3, 2, NULL, "ev-search-text")
#define EV_PLAN_TEXT_FUZZY_EXPANSIONS ("lanes.text.fuzzy_expansions", EV_PLAN_INT, 1, 100, 1, \
				 NULL, "ev-search-text")
#define EV_PLAN_TEXT_DROP_REQUEST_WORDS ("lanes.text.drop_request_words", EV_PLAN_BOOL, 0, 1, 1, \
				 NULL, "ev-search-text")
#define EV_PLAN_TEXT_WEIGHT_TITLE ("lanes.text.weights.title", EV_PLAN_NUM, 0, 1000, 4, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_WEIGHT_SECTION ("lanes.text.weights.section_title", EV_PLAN_NUM, 0, 1000, \
				 4, NULL, "ev-search-text")
#define EV_PLAN_TEXT_WEIGHT_TEXT ("lanes.text.weights.text", EV_PLAN_NUM, 0, 1000, 1.0, NULL, \
				 "ev-search-text")
/* a query of more searched words is read as a document; 0: never */
#define EV_PLAN_TEXT_LONG_QUERY	("lanes.text.long_query", EV_PLAN_INT, 0, 100000, 64, NULL, \
				 "ev-search-text")
/* a hit's share of its document's BM25 as a whole (chunk-to-document
 * scoring); default NAN: for a query read as a document (long_query), 1 -
 * the store's documents / its chunks, for others 0 (textsearch.h); 0: its
 * chunk's alone */
#define EV_PLAN_TEXT_DOC_WEIGHT	("lanes.text.document_weight", EV_PLAN_NUM, 0, 1, NAN, NULL, \
				 "ev-search-text")
/* BM25's k1; default NAN: from the mean length of the store's chunks
 * (textsearch.h), which lanes.text.bm25.k1_scale sets */
#define EV_PLAN_TEXT_K1		("lanes.text.bm25.k1", EV_PLAN_NUM, 0, 10, NAN, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_K1_SCALE	("lanes.text.bm25.k1_scale", EV_PLAN_NUM, 0.01, 10, 0.25, NULL, \
				 "ev-search-text")
/* BM25's b; default NAN: from the spread of the store's chunk lengths
 * (textsearch.h), which lanes.text.bm25.norm_spread sets */
#define EV_PLAN_TEXT_B		("lanes.text.bm25.b", EV_PLAN_NUM, 0, 1, NAN, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_NORM_SPREAD ("lanes.text.bm25.norm_spread", EV_PLAN_NUM, 0.01, 10, 0.3, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_ALL_TERMS	("lanes.text.all_terms", EV_PLAN_BOOL, 0, 1, 0, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_RAW_FTS	("lanes.text.raw_fts", EV_PLAN_BOOL, 0, 1, 0, NULL, \
				 "ev-search-text")
/* what surrounds a matched word in snippets (default U+00AB, U+00BB) */
#define EV_PLAN_TEXT_SNIPPET_OPEN ("lanes.text.snippet.open", EV_PLAN_STR, 0, 0, NAN, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_SNIPPET_CLOSE ("lanes.text.snippet.close", EV_PLAN_STR, 0, 0, NAN, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_SNIPPET_TOKENS ("lanes.text.snippet.tokens", EV_PLAN_INT, 1, 1000, 32, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_EXHAUSTIVE	("lanes.text.exhaustive", EV_PLAN_BOOL, 0, 1, 0, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_THREADS	("lanes.text.threads", EV_PLAN_INT, 1, 2, 2, NULL, \
				 "ev-search-text")
#define EV_PLAN_TEXT_SKIP_INVALID ("lanes.text.skip_invalid", EV_PLAN_BOOL, 0, 1, 0, NULL, \
				 "ev-search-text")

/* ---- The vector lane: lanes.vector.* ---- */
#define EV_PLAN_VECTOR_K	("lanes.vector.k", EV_PLAN_INT, 1, EV_PLAN_MAX_K, 100, NULL, \
				 "ev-search-vec")
#define EV_PLAN_VECTOR_FEEDBACK	("lanes.vector.feedback", EV_PLAN_INT, 0, 1000, 3, NULL, \
				 "ev-search-vec")
#define EV_PLAN_VECTOR_FEEDBACK_WEIGHT ("lanes.vector.feedback_weight", EV_PLAN_NUM, 0, 1e6, 1, \
				 NULL, "ev-search-vec")
/* an inner product; default none: no hit dropped */
#define EV_PLAN_VECTOR_MIN_SCORE ("lanes.vector.min_score", EV_PLAN_NUM, -1e30, 1e30, NAN, NULL, \
				 "ev-search-vec")
/* Faiss's efSearch (HNSW) and nprobe (IVF); default none: the index's */
#define EV_PLAN_VECTOR_EF_SEARCH ("lanes.vector.ef_search", EV_PLAN_INT, 1, 1000000, NAN, NULL, \
				 "ev-search-vec")
#define EV_PLAN_VECTOR_NPROBE	("lanes.vector.nprobe", EV_PLAN_INT, 1, 1000000, NAN, NULL, \
				 "ev-search-vec")
#define EV_PLAN_VECTOR_PAIRWISE	("lanes.vector.pairwise", EV_PLAN_BOOL, 0, 1, 0, NULL, \
				 "ev-search-vec")
#define EV_PLAN_VECTOR_SNIPPET	("lanes.vector.snippet", EV_PLAN_BOOL, 0, 1, 1, NULL, \
				 "ev-search-vec")

/* ---- The multi-vector lane: lanes.visual.* (ev-search-mv) ---- */
#define EV_PLAN_VISUAL_K	("lanes.visual.k", EV_PLAN_INT, 1, EV_PLAN_MAX_K, 100, NULL, \
				 "ev-search-mv")
#define EV_PLAN_VISUAL_CANDIDATES ("lanes.visual.candidates", EV_PLAN_INT, 1, 10000000, 1000, \
				 NULL, "ev-search-mv")
#define EV_PLAN_VISUAL_TOKEN_K	("lanes.visual.token_k", EV_PLAN_INT, 1, EV_PLAN_MAX_K, 100, \
				 NULL, "ev-search-mv")
#define EV_PLAN_VISUAL_NPROBE	("lanes.visual.nprobe", EV_PLAN_INT, 1, 1000000, 32, NULL, \
				 "ev-search-mv")
/* default none: the index's */
#define EV_PLAN_VISUAL_EF_SEARCH ("lanes.visual.ef_search", EV_PLAN_INT, 1, 1000000, NAN, NULL, \
				 "ev-search-mv")
#define EV_PLAN_VISUAL_EXACT	("lanes.visual.exact", EV_PLAN_BOOL, 0, 1, 0, NULL, \
				 "ev-search-mv")
/* the lane's name in hits; default none: the index's */
#define EV_PLAN_VISUAL_LANE	("lanes.visual.lane", EV_PLAN_STR, 0, 0, NAN, NULL, \
				 "ev-search-mv")

/* ---- The structured lane: lanes.structured.* (ev-search-sql) ---- */
#define EV_PLAN_STRUCTURED_DB	("lanes.structured.db", EV_PLAN_STR, 0, 0, NAN, NULL, \
				 "ev-search-sql")
#define EV_PLAN_STRUCTURED_SQL	("lanes.structured.sql", EV_PLAN_STR, 0, 0, NAN, NULL, \
				 "ev-search-sql")
#define EV_PLAN_STRUCTURED_ID_COLUMN ("lanes.structured.id_column", EV_PLAN_STR, 0, 0, NAN, \
				 NULL, "ev-search-sql")
#define EV_PLAN_STRUCTURED_SNIPPET_COLUMNS ("lanes.structured.snippet_columns", EV_PLAN_STR, \
				 0, 0, NAN, NULL, "ev-search-sql")
#define EV_PLAN_STRUCTURED_K	("lanes.structured.k", EV_PLAN_INT, 1, EV_PLAN_MAX_K, 100, NULL, \
				 "ev-search-sql")
#define EV_PLAN_STRUCTURED_LANE	("lanes.structured.lane", EV_PLAN_STR, 0, 0, NAN, NULL, \
				 "ev-search-sql")

/* ---- The expansion: lanes.expand.* (ev-expand) ---- */
#define EV_PLAN_EXPAND_FROM	("lanes.expand.from", EV_PLAN_INT, 0, 10000, 10, NULL, \
				 "ev-expand")
#define EV_PLAN_EXPAND_NEIGHBOURS ("lanes.expand.neighbours", EV_PLAN_INT, 0, 100, 1, NULL, \
				 "ev-expand")
#define EV_PLAN_EXPAND_TIMELINE	("lanes.expand.timeline", EV_PLAN_INT, 0, 64, 2, NULL, \
				 "ev-expand")
#define EV_PLAN_EXPAND_HOPS	("lanes.expand.hops", EV_PLAN_INT, 0, 5, 1, NULL, "ev-expand")
#define EV_PLAN_EXPAND_PER_HIT	("lanes.expand.per_hit", EV_PLAN_INT, 0, 1000, 4, NULL, \
				 "ev-expand")
#define EV_PLAN_EXPAND_PER_QUERY ("lanes.expand.per_query", EV_PLAN_INT, 0, 100000, 20, NULL, \
				 "ev-expand")
#define EV_PLAN_EXPAND_DECAY	("lanes.expand.decay", EV_PLAN_NUM, 0.001, 0.999, 0.5, NULL, \
				 "ev-expand")

/* ---- Fusion: fusion.* ---- */
#define EV_PLAN_FUSION_METHOD	("fusion.method", EV_PLAN_CHOICE, 0, 0, 0, \
				 "rrf|weighted|combsum|combmnz|merge", "ev-fuse")
#define EV_PLAN_FUSION_RRF_K	("fusion.rrf_k", EV_PLAN_NUM, 1e-9, 1e9, 60, NULL, "ev-fuse")
/* default -1: the method's own (max for weighted, minmax for combsum) */
#define EV_PLAN_FUSION_NORMALIZATION ("fusion.normalization", EV_PLAN_CHOICE, 0, 0, -1, \
				 "none|max|minmax|zscore", "ev-fuse")
/* LANE: W, a weight >= 0; a lane not named weighs 1 */
#define EV_PLAN_FUSION_WEIGHTS	("fusion.weights.*", EV_PLAN_MAP, 0, 0, NAN, NULL, "ev-fuse")
/* LANE: zero|norm */
#define EV_PLAN_FUSION_FLOOR	("fusion.floor.*", EV_PLAN_MAP, 0, 0, NAN, NULL, "ev-fuse")
#define EV_PLAN_FUSION_GROUP	("fusion.group", EV_PLAN_CHOICE, 0, 0, 0, "chunk|doc", "ev-fuse")
#define EV_PLAN_FUSION_K	("fusion.k", EV_PLAN_INT, 1, 1000000000, NAN, NULL, "ev-fuse")
#define EV_PLAN_FUSION_EXPLAIN	("fusion.explain", EV_PLAN_BOOL, 0, 1, 1, NULL, "ev-fuse")
#define EV_PLAN_FUSION_SKIP_INVALID ("fusion.skip_invalid", EV_PLAN_BOOL, 0, 1, 0, NULL, "ev-fuse")
#define EV_PLAN_FUSION_ADAPT	("fusion.adapt", EV_PLAN_CHOICE, 0, 0, 0, "none|agreement", \
				 "ev-fuse")
/* a lane's name: the lane the others' agreement is measured against */
#define EV_PLAN_FUSION_ANCHOR	("fusion.anchor", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-fuse")
#define EV_PLAN_FUSION_AGREEMENT_DEPTH ("fusion.agreement_depth", EV_PLAN_INT, 1, EV_PLAN_MAX_K, \
				 10, NULL, "ev-fuse")
#define EV_PLAN_FUSION_AGREEMENT_FULL ("fusion.agreement_full", EV_PLAN_NUM, 1e-9, 1, 0.6, NULL, \
				 "ev-fuse")
/* LANE: LANE, the lane whose agreement a lane takes */
#define EV_PLAN_FUSION_AGREEMENT_FROM ("fusion.agreement_from.*", EV_PLAN_MAP, 0, 0, NAN, NULL, \
				 "ev-fuse")

/* ---- The embedder: embed.* (ev-embed's training and embedding) ---- */
/* default none: from the store's size */
#define EV_PLAN_EMBED_DIM	("embed.dim", EV_PLAN_INT, 1, 2048, NAN, NULL, "ev-embed")
#define EV_PLAN_EMBED_MIN_DF	("embed.min_df", EV_PLAN_INT, 1, 1000000000, NAN, NULL, "ev-embed")
#define EV_PLAN_EMBED_MAX_TERMS	("embed.max_terms", EV_PLAN_INT, 1, 10000000, 100000, NULL, \
				 "ev-embed")
#define EV_PLAN_EMBED_POWER_ITERS ("embed.power_iters", EV_PLAN_INT, 0, 20, 3, NULL, "ev-embed")
#define EV_PLAN_EMBED_OVERSAMPLE ("embed.oversample", EV_PLAN_INT, 0, 1000, 10, NULL, "ev-embed")
/* default none: the built-in seed */
#define EV_PLAN_EMBED_SEED	("embed.seed", EV_PLAN_INT, 0, 4611686018427387904.0, NAN, NULL, \
				 "ev-embed")
#define EV_PLAN_EMBED_SIGMA_POWER ("embed.sigma_power", EV_PLAN_NUM, -2, 2, 1.5, NULL, "ev-embed")
#define EV_PLAN_EMBED_QUERY_TF	("embed.query_tf", EV_PLAN_CHOICE, 0, 0, 0, "log|raw", "ev-embed")
#define EV_PLAN_EMBED_QUERY_IDF_POWER ("embed.query_idf_power", EV_PLAN_NUM, 0, 4, 1.5, NULL, \
				 "ev-embed")
#define EV_PLAN_EMBED_LOG_ENTROPY ("embed.log_entropy", EV_PLAN_BOOL, 0, 1, 0, NULL, "ev-embed")
#define EV_PLAN_EMBED_MAX_DRIFT	("embed.max_drift", EV_PLAN_NUM, 0, 1, 0.1, NULL, "ev-embed")
/* default none: records with "text" are documents, with "query" queries */
#define EV_PLAN_EMBED_ROLE	("embed.role", EV_PLAN_CHOICE, 0, 0, -1, "document|query", \
				 "ev-embed")
#define EV_PLAN_EMBED_SKIP_INVALID ("embed.skip_invalid", EV_PLAN_BOOL, 0, 1, 0, NULL, "ev-embed")

/* ---- Routing: routing.*, each a structure ev-route checks (ev-route(1)) ---- */
#define EV_PLAN_ROUTING_DEFAULT	("routing.default", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-route")
#define EV_PLAN_ROUTING_FIELD	("routing.field", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-route")
#define EV_PLAN_ROUTING_VALUES	("routing.values", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-route")
#define EV_PLAN_ROUTING_RULES	("routing.rules", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-route")
#define EV_PLAN_ROUTING_GATE	("routing.gate", EV_PLAN_ANY, 0, 0, NAN, NULL, "ev-route")
#define EV_PLAN_ROUTING_HIGH_STAKES ("routing.high_stakes", EV_PLAN_ANY, 0, 0, NAN, NULL, \
				 "ev-route")

/* ---- Reranking: rerank.* ---- */
#define EV_PLAN_RERANK_TOP_N	("rerank.top_n", EV_PLAN_INT, 1, EV_PLAN_MAX_K, 100, NULL, \
				 "ev-rerank")
/* hits written per query; 0: all */
#define EV_PLAN_RERANK_K	("rerank.k", EV_PLAN_INT, 0, EV_PLAN_MAX_K, 0, NULL, "ev-rerank")
/* FEATURE: X, the built-in model's weights */
#define EV_PLAN_RERANK_WEIGHTS	("rerank.weights.*", EV_PLAN_MAP, 0, 0, NAN, NULL, "ev-rerank")
#define EV_PLAN_RERANK_WINDOW	("rerank.window", EV_PLAN_INT, 2, 64, 8, NULL, "ev-rerank")
#define EV_PLAN_RERANK_PASSAGE	("rerank.passage", EV_PLAN_INT, 1, 10000, 32, NULL, "ev-rerank")
#define EV_PLAN_RERANK_COMMAND	("rerank.command", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-rerank")
#define EV_PLAN_RERANK_TIMEOUT	("rerank.timeout", EV_PLAN_NUM, 0.001, 86400, 30, NULL, \
				 "ev-rerank")
#define EV_PLAN_RERANK_BATCH	("rerank.batch", EV_PLAN_INT, 1, 10000, 32, NULL, "ev-rerank")
/* the model the plan asks to rerank by: ev-pack warns when the hits were not
 * reranked, or were by another model (ev-rerank's evkit-linear-1) */
#define EV_PLAN_RERANK_MODEL	("rerank.model", EV_PLAN_STR, 0, 0, NAN, NULL, "ev-pack")

/* ---- The pack: ev-pack's keys ---- */
#define EV_PLAN_K		("k", EV_PLAN_INT, 0, 1000000000, 10, NULL, "ev-pack")
#define EV_PLAN_MIN_SCORE	("min_score", EV_PLAN_NUM, -1e300, 1e300, NAN, NULL, "ev-pack")
#define EV_PLAN_BY_DOCUMENT	("diversity.by_document", EV_PLAN_INT, 0, 1000000000, 3, NULL, \
				 "ev-pack")
#define EV_PLAN_NEAR_DUPLICATES	("diversity.near_duplicates", EV_PLAN_BOOL, 0, 1, 1, NULL, \
				 "ev-pack")
#define EV_PLAN_OVERLAP		("diversity.overlap", EV_PLAN_NUM, 0, 1, 0.9, NULL, "ev-pack")
#define EV_PLAN_MMR_LAMBDA	("diversity.mmr_lambda", EV_PLAN_NUM, 0, 1, 1, NULL, "ev-pack")
#define EV_PLAN_MMR_DEPTH	("diversity.mmr_depth", EV_PLAN_INT, 1, EV_PLAN_MAX_K, 50, NULL, \
				 "ev-pack")
#define EV_PLAN_GROUP_BY	("group_by", EV_PLAN_CHOICE, 0, 0, 0, "none|lane|modality", \
				 "ev-pack")
#define EV_PLAN_MAX_SNIPPET_CHARS ("output.max_snippet_chars", EV_PLAN_INT, 1, 1000000000, 500, \
				 NULL, "ev-pack")
#define EV_PLAN_SNIPPET_POLICY	("output.snippet_policy", EV_PLAN_CHOICE, 0, 0, 3, \
				 "l2|l1|l0|auto", "ev-pack")
#define EV_PLAN_OUTPUT_FORMAT	("output.format", EV_PLAN_CHOICE, 0, 0, 0, "jsonl|json|text", \
				 "ev-pack")

/* Every key of a plan, in the order of the table. */
#define EV_PLAN_ENTRIES(X) \
	X(EV_PLAN_VERSION) X(EV_PLAN_PLAN_ID) X(EV_PLAN_REQUEST_ID) X(EV_PLAN_QUERY) \
	X(EV_PLAN_DB) X(EV_PLAN_INDEX) X(EV_PLAN_EF_SEARCH) X(EV_PLAN_NPROBE) X(EV_PLAN_SNIPPET) \
	X(EV_PLAN_TEXT) \
	X(EV_PLAN_TEXT_K) X(EV_PLAN_TEXT_PROXIMITY) X(EV_PLAN_TEXT_FEEDBACK) \
	X(EV_PLAN_TEXT_FEEDBACK_TERMS) X(EV_PLAN_TEXT_FEEDBACK_WEIGHT) \
	X(EV_PLAN_TEXT_FEEDBACK_FOCUS) X(EV_PLAN_TEXT_FEEDBACK_POOL) X(EV_PLAN_TEXT_FUZZY) X(EV_PLAN_TEXT_FUZZY_EXPANSIONS) \
	X(EV_PLAN_TEXT_DROP_REQUEST_WORDS) X(EV_PLAN_TEXT_WEIGHT_TITLE) \
	X(EV_PLAN_TEXT_WEIGHT_SECTION) X(EV_PLAN_TEXT_WEIGHT_TEXT) X(EV_PLAN_TEXT_K1) \
	X(EV_PLAN_TEXT_K1_SCALE) X(EV_PLAN_TEXT_B) X(EV_PLAN_TEXT_NORM_SPREAD) X(EV_PLAN_TEXT_LONG_QUERY) X(EV_PLAN_TEXT_DOC_WEIGHT) \
	X(EV_PLAN_TEXT_ALL_TERMS) \
	X(EV_PLAN_TEXT_RAW_FTS) X(EV_PLAN_TEXT_SNIPPET_OPEN) X(EV_PLAN_TEXT_SNIPPET_CLOSE) \
	X(EV_PLAN_TEXT_SNIPPET_TOKENS) X(EV_PLAN_TEXT_EXHAUSTIVE) X(EV_PLAN_TEXT_THREADS) \
	X(EV_PLAN_TEXT_SKIP_INVALID) \
	X(EV_PLAN_VECTOR_K) X(EV_PLAN_VECTOR_FEEDBACK) X(EV_PLAN_VECTOR_FEEDBACK_WEIGHT) \
	X(EV_PLAN_VECTOR_MIN_SCORE) X(EV_PLAN_VECTOR_EF_SEARCH) X(EV_PLAN_VECTOR_NPROBE) \
	X(EV_PLAN_VECTOR_PAIRWISE) X(EV_PLAN_VECTOR_SNIPPET) \
	X(EV_PLAN_VISUAL_K) X(EV_PLAN_VISUAL_CANDIDATES) X(EV_PLAN_VISUAL_TOKEN_K) \
	X(EV_PLAN_VISUAL_NPROBE) X(EV_PLAN_VISUAL_EF_SEARCH) X(EV_PLAN_VISUAL_EXACT) \
	X(EV_PLAN_VISUAL_LANE) \
	X(EV_PLAN_STRUCTURED_DB) X(EV_PLAN_STRUCTURED_SQL) X(EV_PLAN_STRUCTURED_ID_COLUMN) \
	X(EV_PLAN_STRUCTURED_SNIPPET_COLUMNS) X(EV_PLAN_STRUCTURED_K) X(EV_PLAN_STRUCTURED_LANE) \
	X(EV_PLAN_EXPAND_FROM) X(EV_PLAN_EXPAND_NEIGHBOURS) X(EV_PLAN_EXPAND_TIMELINE) \
	X(EV_PLAN_EXPAND_HOPS) X(EV_PLAN_EXPAND_PER_HIT) X(EV_PLAN_EXPAND_PER_QUERY) \
	X(EV_PLAN_EXPAND_DECAY) \
	X(EV_PLAN_FUSION_METHOD) X(EV_PLAN_FUSION_RRF_K) X(EV_PLAN_FUSION_NORMALIZATION) \
	X(EV_PLAN_FUSION_WEIGHTS) X(EV_PLAN_FUSION_FLOOR) X(EV_PLAN_FUSION_GROUP) \
	X(EV_PLAN_FUSION_K) X(EV_PLAN_FUSION_EXPLAIN) X(EV_PLAN_FUSION_SKIP_INVALID) \
	X(EV_PLAN_FUSION_ADAPT) X(EV_PLAN_FUSION_ANCHOR) X(EV_PLAN_FUSION_AGREEMENT_DEPTH) \
	X(EV_PLAN_FUSION_AGREEMENT_FULL) X(EV_PLAN_FUSION_AGREEMENT_FROM) \
	X(EV_PLAN_EMBED_DIM) X(EV_PLAN_EMBED_MIN_DF) X(EV_PLAN_EMBED_MAX_TERMS) \
	X(EV_PLAN_EMBED_POWER_ITERS) X(EV_PLAN_EMBED_OVERSAMPLE) X(EV_PLAN_EMBED_SEED) \
	X(EV_PLAN_EMBED_SIGMA_POWER) X(EV_PLAN_EMBED_QUERY_TF) X(EV_PLAN_EMBED_QUERY_IDF_POWER) \
	X(EV_PLAN_EMBED_LOG_ENTROPY) X(EV_PLAN_EMBED_MAX_DRIFT) X(EV_PLAN_EMBED_ROLE) \
	X(EV_PLAN_EMBED_SKIP_INVALID) \
	X(EV_PLAN_ROUTING_DEFAULT) X(EV_PLAN_ROUTING_FIELD) X(EV_PLAN_ROUTING_VALUES) \
	X(EV_PLAN_ROUTING_RULES) X(EV_PLAN_ROUTING_GATE) X(EV_PLAN_ROUTING_HIGH_STAKES) \
	X(EV_PLAN_RERANK_TOP_N) X(EV_PLAN_RERANK_K) X(EV_PLAN_RERANK_WEIGHTS) \
	X(EV_PLAN_RERANK_WINDOW) X(EV_PLAN_RERANK_PASSAGE) X(EV_PLAN_RERANK_COMMAND) \
	X(EV_PLAN_RERANK_TIMEOUT) X(EV_PLAN_RERANK_BATCH) X(EV_PLAN_RERANK_MODEL) \
	X(EV_PLAN_K) X(EV_PLAN_MIN_SCORE) X(EV_PLAN_BY_DOCUMENT) X(EV_PLAN_NEAR_DUPLICATES) \
	X(EV_PLAN_OVERLAP) X(EV_PLAN_MMR_LAMBDA) X(EV_PLAN_MMR_DEPTH) X(EV_PLAN_GROUP_BY) \
	X(EV_PLAN_MAX_SNIPPET_CHARS) X(EV_PLAN_SNIPPET_POLICY) X(EV_PLAN_OUTPUT_FORMAT)
/* The other form of a key given as a mapping instead of a number: in the
 * table (for ev_plan_read()) but not among the keys of a plan's shape, as a
 * plan gives one form or the other. */
#define EV_PLAN_FORMS(X) \
	X(EV_PLAN_TEXT_FEEDBACK_DOCS_M) X(EV_PLAN_TEXT_FEEDBACK_TERMS_M) \
	X(EV_PLAN_TEXT_FEEDBACK_WEIGHT_M) X(EV_PLAN_TEXT_FEEDBACK_FOCUS_M) \
	X(EV_PLAN_TEXT_FEEDBACK_POOL_M)

struct ev_plan_key {
	const char *key;	/* its dotted path ("diversity.mmr_lambda") */
	enum ev_plan_type type;
	double min, max;	/* the range of a number */
	double def;		/* the default of a number, bool or choice; NAN: none */
	const char *words;	/* a choice's words ("none|lane|modality"), else NULL */
	const char *stage;	/* the command that owns it ("ev-pack") */
};

/* Every entry (EV_PLAN_ENTRIES, then EV_PLAN_FORMS), then one whose key is
 * NULL. */
extern const struct ev_plan_key ev_plan_schema[];

/* Every key of EV_PLAN_ENTRIES, NULL-terminated: the keys of a plan's
 * shape (for ev_config_check_shape()). */
extern const char *const ev_plan_keys[];

/* Every key of EV_PLAN_FORMS, NULL-terminated: the entries of the mappings
 * that keys of two forms take (ev_plan_two_forms()). */
extern const char *const ev_plan_form_keys[];

/* Every key of EV_PLAN_ENTRIES, then of EV_PLAN_FORMS, NULL-terminated: the
 * keys a plan may hold (for ev_config_unknown(), which then checks the
 * keys of "lanes.text.feedback" given as a mapping; never for
 * ev_config_check_shape(), which would take the key for a section that
 * must be a mapping). */
extern const char *const ev_plan_known_keys[];

/* The entry of key ("lanes.text.k"), or NULL. */
const struct ev_plan_key *ev_plan_find(const char *key);

/* Whether key ("lanes.text.feedback") takes a number or a mapping: the
 * schema has entries under it ("lanes.text.feedback.docs"), the mapping's
 * keys. */
int ev_plan_two_forms(const char *key);

/* Where a plan reader puts the value of one key: an int, long, long long or
 * double (a choice's index goes to an int); or, with set, set(value, arg,
 * err) is called with the text a flag would carry (a number as
 * "%.17g", true/false; each entry of a mapping as "NAME=VALUE"), which
 * returns 0, or -1 with *err's message set (the reader adds the file and
 * the key).  value NULL: the key is checked but not kept (another stage's,
 * or one the reader passes over).  EV_PLAN_FIELD(e, p) makes one,
 * EV_PLAN_FIELD_SET(e, p, set) one with a setter, EV_PLAN_CHECKED(e) one
 * that only checks. */
enum ev_plan_ctype { EV_PLAN_C_INT, EV_PLAN_C_LONG, EV_PLAN_C_LLONG, EV_PLAN_C_DOUBLE };
struct ev_plan_field {
	const char *key;	/* the entry's key */
	void *value;
	enum ev_plan_ctype ctype;
	int (*set)(void *value, const char *arg, struct ev_err *err);
};
#define EV_PLAN_FIELD(e, p) { EV_PLAN_KEY(e), (p), _Generic((p), \
	long *: EV_PLAN_C_LONG, long long *: EV_PLAN_C_LLONG, double *: EV_PLAN_C_DOUBLE, \
	default: EV_PLAN_C_INT), NULL }
#define EV_PLAN_FIELD_SET(e, p, fn) { EV_PLAN_KEY(e), (p), EV_PLAN_C_INT, (fn) }
#define EV_PLAN_CHECKED(e) { EV_PLAN_KEY(e), NULL, EV_PLAN_C_INT, NULL }

/* Read the keys of fields[0..n) that plan sets, each checked against its
 * schema entry (type and range; a mapping's entries single values), into
 * their values; a field whose value keep(value) says to keep (the flags
 * given, ev_opt_given()) is checked but not set (keep NULL: none is kept).
 * A key whose entry is a number but whose plan value is a mapping is left
 * to the entries under it
 * ("lanes.text.feedback" as {docs: 15}: "lanes.text.feedback.docs"), when the
 * schema has such.  file names the plan in messages.  Returns 0, or -1 with
 * *err set (code 2: "'KEY' must be a number from 0 to 1") for a value of
 * the wrong type or out of range. */
int ev_plan_read(const json_t *plan, const char *file, const struct ev_plan_field *fields,
	size_t n, int (*keep)(const void *value), struct ev_err *err);

/* The plan reader of a stage that reads other stages' keys too (ev-pack,
 * ev-tune): every entry of the schema owned by one of stages (a
 * NULL-terminated list of commands) but a section (EV_PLAN_ANY) is read by
 * its field among fields[0..n), as ev_plan_read() does, so that a key added
 * to the schema is read by every such reader or the reader says so.
 * Returns 0; or -1 with *err set: code 2 as ev_plan_read(), code 1 ("'KEY'
 * of STAGE has no field in this reader") for an entry that fields lack. */
int ev_plan_read_stages(const json_t *plan, const char *file, const char *const *stages,
	const struct ev_plan_field *fields, size_t n, int (*keep)(const void *value),
	struct ev_err *err);

/* Check every key of plan that the schema types (all but the sections and
 * values their stages check themselves, EV_PLAN_ANY) against its entry, as
 * ev_plan_read() does, keeping none: for a reader that copies the keys of
 * other stages into a plan it writes (ev-tune), so that a bad one is its
 * bad input, not the next reader's.  A mapping's entries are checked to be
 * single values (their stages check the rest).  Returns 0 (also for plan
 * NULL), or -1 with *err set as ev_plan_read() sets it. */
int ev_plan_check(const json_t *plan, const char *file, struct ev_err *err);

/* Whether the config cfg (NULL: none) is a retrieval plan rather than a file
 * of one command's options: it has a key that only a plan has at its top
 * (lanes, version, plan_id, fusion, diversity, output, rerank, routing), so
 * that its top-level k and min_score are ev-pack's, not a lane's. */
int ev_plan_is_plan(const json_t *cfg);

/* A scalar plan value as the text a flag would carry ("0.5", "true",
 * "rrf"), in buf; NULL when v is not a single value. */
const char *ev_plan_scalar_text(const json_t *v, char *buf, size_t size);

/* The index of word among words ("jsonl|json|text"), or -1. */
int ev_plan_word_index(const char *words, const char *word);

/* words as a sentence ("jsonl, json or text") into buf.  Returns buf. */
const char *ev_plan_words_text(const char *words, char *buf, size_t size);

#define EV_PLAN_LANE_MAX 31	/* bytes in the name a command gives its lane */
/* The rule of a lane's name, as messages state it. */
#define EV_PLAN_LANE_RULE "1 to 31 lowercase letters, digits, '_' or '-'"

/* Whether s is a lane's name, as every stage reads one (a hit's "lane", a
 * plan's or an option's lane): 1 to EV_PLAN_LANE_MAX lowercase ASCII
 * letters, digits, '_' or '-' (so that "TEXT" is refused, not taken for a
 * lane that no hit names). */
int ev_plan_lane_name_ok(const char *s);

/* Split a copy of list, the lanes option opt takes ("LANE,LANE..."), into
 * buf[0..size) and out[] (NULL-terminated): 1 to max lanes, none empty
 * (ev_config_list_check()), and with check each a lane's name
 * (ev_plan_lane_name_ok()).  Returns their number, or -1 with *err set
 * (code 2, the message beginning with opt): an empty name, a bad one, more
 * than max, or a list longer than buf. */
int ev_plan_split_lanes(const char *opt, int check, const char *list, char *buf, size_t size,
	const char **out, int max, struct ev_err *err);

/* Check s as the name a command (prog, or NULL) gives its lane in hits,
 * signals ("NAME_score") and plans: 1 to EV_PLAN_LANE_MAX lowercase ASCII
 * letters, digits, '_' or '-' ("visual", "colpali_p2"), and not the name of
 * a lane another evkit command writes hits of ("text": ev-search-text;
 * "vector", "vector_feedback": ev-search-vec; "fused": ev-fuse;
 * "structured": ev-search-sql), whose hits ev-fuse would fuse as that
 * lane's, or refuse ("fused"); prog's own lane may be named.  Returns 0, or
 * -1 with *err set (code 2, "lane 'NAME' ...", no place). */
int ev_plan_lane_check(const char *s, const char *prog, struct ev_err *err);

#endif
