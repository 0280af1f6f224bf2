/* embed.h: the built-in embedder: latent semantic analysis over the tokens of
 * the text lane.
 *
 * Middle layer: includes err.h, plan.h (the defaults), store.h, token.h and
 * svd.h.  Knows nothing of JSON Lines or Faiss.
 *
 * Terms are the text index's: a chunk's words stemmed for its language
 * (chunks.language), a query's for its own language, else for each of the
 * model's languages: those of the chunks it was trained on, the most
 * frequent first (at most EV_ANALYZE_MAX_QUERY_LANGS), kept in its
 * parameters as "languages" unless English is the only one (an English
 * model's parameters, and so its id, are as they always were).  Every store
 * given the model (ev_embed_copy()) embeds a query alike.
 *
 * Training (ev_embed_train) reads every chunk of the store, weights its
 * terms by tf-idf (tf sublinear: 1 + ln tf; idf smoothed: ln((1 + N) /
 * (1 + df)) + 1; each chunk's row scaled to unit length), keeps the terms that
 * occur in at least min_df chunks (at most max_terms of them, the most
 * frequent), and reduces the chunk × term matrix to dim dimensions by a
 * randomised truncated SVD (svd.h).  A text is embedded by folding it in:
 * its weighted term vector times the projection V Σ^(p-1), scaled to unit
 * length.  Queries are weighted differently from documents (asymmetric
 * embedding): their tf and idf power are parameters of the model.
 *
 * The model lives in the store, in tables of its own, written in one
 * transaction (a killed training leaves the previous model):
 *   embed_model(model_id TEXT PRIMARY KEY, dim, terms, chunks, params TEXT
 *               (JSON), sigma BLOB (dim float32), created_at TEXT)
 *   embed_vocab(term TEXT PRIMARY KEY, col, df, idf REAL,
 *               vec BLOB (dim float32: the term's row of the projection))
 *   meta 'embed.model' = the model id, 'embed.dim' = its dimension.
 * The model id ("lsa256-" and 16 hex digits) is a hash of what the model is
 * computed from: its parameters, vocabulary (terms, df, idf) and tf-idf
 * matrix.  The same corpus and parameters give the same id on any machine
 * (the SVD's last bits, which vary with BLAS kernels and threads, do not
 * enter it); a model trained on other chunks or with other parameters has
 * another id.  Vectors carry it in their "model" field, which makes vectors
 * of an older model detectably stale. */
#ifndef EV_EMBED_H
#define EV_EMBED_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "plan.h"
#include "store.h"

#define EV_EMBED_DIM_DEFAULT 256
#define EV_EMBED_DIM_MAX EV_PLAN_MAX(EV_PLAN_EMBED_DIM)	/* 2048 */
#define EV_EMBED_ID_SIZE 48	/* room for a model id and its NUL */

/* Meta keys other modules may read (ev-embed-load, ev-search-vec). */
#define EV_EMBED_META_MODEL "embed.model"
#define EV_EMBED_META_DIM "embed.dim"

/* Who a text is embedded for. */
enum ev_embed_role {
	EV_EMBED_DOCUMENT = 0,
	EV_EMBED_QUERY = 1
};

/* Training parameters; ev_embed_params_init() sets the defaults. */
struct ev_embed_params {
	int dim;		/* dimensions wanted, 1..EV_EMBED_DIM_MAX; 0 (the
				 * default): from the store's size */
	int min_df;		/* chunks a term must occur in; 0 (the default):
				 * from the store's size */
	int max_terms;		/* vocabulary cap, most frequent first (100000) */
	int power_iters;	/* SVD power iterations (3) */
	int oversample;		/* SVD extra directions (10) */
	uint64_t seed;		/* seed of the random projection */
	double sigma_power;	/* p: a text's coordinates are scaled by Σ^(p-1) */
	int query_log_tf;	/* queries: 1 for 1 + ln tf, 0 for raw tf */
	double query_idf_power;	/* queries: idf raised to this power */
	int log_entropy;	/* 1: a term's global weight is its log-entropy
				 * 1 + sum_d p ln p / ln N (p = tf / the term's
				 * total count), not its idf (0, the default) */
};

void ev_embed_params_init(struct ev_embed_params *p);

/* Below this many chunks a store is small: a word of one chunk is kept. */
#define EV_EMBED_SMALL_STORE 1000

/* The dimension from the store's size: the matrix's rank bound, the lesser
 * of its chunks and terms, over EV_EMBED_DIM_SHARE, between
 * EV_EMBED_DIM_DEFAULT and EV_EMBED_DIM_CAP (the cap bounds the training's
 * memory and the index's size on a large store). */
#define EV_EMBED_DIM_SHARE 4
#define EV_EMBED_DIM_CAP 768

/* The training's min_df from the store's size, for a store of chunks
 * chunks: 1 for a small store (below EV_EMBED_SMALL_STORE chunks: a word
 * found in one chunk alone is what finds that chunk when there are few),
 * else 2.  ev_embed_train() applies it to a min_df of 0. */
int ev_embed_min_df_rule(long long chunks);

/* The training's dimension from the store's size, for a store of chunks
 * chunks whose vocabulary (after min_df) holds terms terms: the chunks
 * themselves when there are fewer than EV_EMBED_DIM_DEFAULT (a small store's
 * matrix keeps every direction it has), at least 1; else min(chunks, terms)
 * / EV_EMBED_DIM_SHARE, at least EV_EMBED_DIM_DEFAULT and at most
 * EV_EMBED_DIM_CAP (a larger store has more directions worth keeping: on
 * the test collections the vector lane gains up to 0.05 nDCG@10 over a
 * fixed 256); and EV_EMBED_DIM_DEFAULT above EV_VLOAD_FLAT_MAX chunks,
 * where ev-embed-load indexes an inverted file, whose search reads its
 * lists' vectors: at 1.36 M chunks a query read 100 MB at 768 dimensions
 * and found 83.5% of the exact 10 nearest, at 256 a third and 90.2%.
 * ev_embed_train() applies it to a dim of 0. */
int ev_embed_dim_rule(long long chunks, long long terms);

/* What training did. */
struct ev_embed_info {
	char model_id[EV_EMBED_ID_SIZE];
	int dim;		/* dimensions of the model */
	int dim_asked;		/* dimensions asked for (dim is less when the corpus
				 * supports fewer: dim <= min(chunks, terms)); 0
				 * when they came from the store's size */
	int min_df;		/* the min_df used (given, or from the store's size) */
	long long chunks;	/* chunks read */
	long long empty;	/* chunks with no term of the vocabulary */
	int terms;		/* vocabulary size */
	long long distinct;	/* distinct terms seen before the cut */
	double energy;		/* share of the matrix's squared norm the model keeps */
	double ms_read, ms_svd, ms_save;
};

/* Fit the model on every chunk of st and save it, replacing the previous
 * one, in one transaction; a min_df or dim of 0 in p is the store's size's
 * (ev_embed_min_df_rule(), ev_embed_dim_rule()).  Returns 0 with *info filled, or -1 with *err set:
 * code 2 when the store has no chunks, or no term occurs in min_df chunks
 * (what to do next is in the message), code 1 for a database or LAPACK
 * failure or when memory runs out.  On failure the previous model stays. */
int ev_embed_train(struct ev_store *st, const struct ev_embed_params *p,
	struct ev_embed_info *info, struct ev_err *err);

/* A model opened for embedding. */
struct ev_embed;

/* Open the store's model.  Reads happen in one read transaction held until
 * ev_embed_close(), so a training that commits meanwhile does not mix two
 * models.  Returns NULL with *err set: code 2 and "no embedding model in
 * 'DB'; run 'ev-embed --db DB --train'" when there is none, code 1 on a
 * database error. */
struct ev_embed *ev_embed_open(struct ev_store *st, struct ev_err *err);

/* Free the model and end its read transaction (NULL-safe). */
void ev_embed_close(struct ev_embed *e);

/* The model's id (owned by e) and dimension. */
const char *ev_embed_model_id(const struct ev_embed *e);
int ev_embed_dim(const struct ev_embed *e);

/* The language of the texts ev_embed_texts() embeds from now on: code (a
 * language code, normalised), or NULL for none.  A document's words are
 * stemmed for its language (none: English), as the text index stems its
 * chunk; a query's for its language, or with none for each of the model's
 * languages, a word's stems in several languages each counted once.  Returns 0, or -1 when code is not
 * a language code (the language is then unchanged). */
int ev_embed_set_lang(struct ev_embed *e, const char *code);

/* Embed the concatenation of n texts (a chunk's title, section title and
 * text; NULL entries are skipped) for role.  out receives dim floats of unit
 * length.  Returns 1, or 0 when no term of the texts is in the model's
 * vocabulary (out is then all zeros), or -1 with *err set (code 1). */
int ev_embed_texts(struct ev_embed *e, const char *const *texts, const size_t *lens, int n,
	enum ev_embed_role role, float *out, struct ev_err *err);

/* The model id the store holds now: 1 with *id (malloc'd; the caller frees
 * it), 0 when the store has no model, -1 with *err set.  For checking that
 * vectors are not stale. */
int ev_embed_current(struct ev_store *st, char **id, struct ev_err *err);

/* Copy the model of the store src (trained there, or copied there) into dst,
 * replacing dst's, in one transaction: a model trained once, on one shard
 * or on the whole collection, is given to every shard, and their vectors,
 * of the same model id, can be searched together.  id receives the model's
 * id (EV_EMBED_ID_SIZE bytes).  Nothing is written when dst holds that
 * model already.  Returns 0, or -1 with *err set: code 2 when src has no
 * model, 1 for a database failure or a damaged model (dst unchanged). */
int ev_embed_copy(struct ev_store *dst, struct ev_store *src, char *id, struct ev_err *err);

/* Vocabulary drift: how much of the store's text the model cannot see.
 * The store's terms are those of its text index (chunks_vocab: the same
 * tokeniser), stop words and terms over 64 bytes left out as the embedder
 * leaves them.  A term is learnable when a training now would keep it: it
 * occurs in min_df chunks or more (the model's min_df) and, when the model's
 * vocabulary was cut at max_terms, in more chunks than the model's rarest
 * term.  drift is the share of the store's term occurrences that belong to
 * learnable terms missing from the model's vocabulary: 0 right after a
 * training, growing as new words arrive in new chunks.  With no model, every
 * term is learnable (drift 1 when the store has any text). */
struct ev_embed_drift {
	char model_id[EV_EMBED_ID_SIZE];	/* "" when the store has no model */
	double drift;
	long long occurrences;	/* term occurrences in the store */
	long long unseen;	/* of them, of learnable terms the model lacks */
	long long new_terms;	/* learnable terms the model lacks */
	long long chunks;	/* chunks in the store now */
	long long trained_chunks;	/* chunks the model was trained on */
};

/* Measure the drift of the store's model, in one read transaction (or the
 * caller's).  Returns 0 with *d filled, or -1 with *err set (code 1). */
int ev_embed_drift(struct ev_store *st, struct ev_embed_drift *d, struct ev_err *err);

#endif
