/* corpus.h: documents and their chunks in the store: putting a document
 * (diffing its chunks against the stored ones), skipping unchanged ones,
 * deleting and pruning.
 *
 * Middle layer: includes err.h and store.h.  Knows nothing of JSON or of how
 * chunks are made (the caller chunks, see chunk.h).  Every function writes in
 * the caller's transaction (ev_store_begin/commit): nothing here commits.
 *
 * Chunk rowids are the vector index's ids: a chunk keeps its rowid while its
 * id and content hash stay the same; a changed or removed chunk is deleted
 * from chunks and chunks_fts and its rowid recorded in chunk_tombstones; new
 * rowids are never reused (a high-water mark is kept in meta under
 * EV_CORPUS_ROWID_KEY, written by ev_corpus_sync() once a transaction). */
#ifndef EV_CORPUS_H
#define EV_CORPUS_H

#include <stddef.h>

#include "err.h"
#include "store.h"

#define EV_CORPUS_ROWID_KEY "chunks.rowid_max"

/* A document as stored; strings are borrowed, NULL when absent. */
struct ev_corpus_doc {
	const char *id;
	const char *source;	/* the input it came from (--prune works per source) */
	const char *title, *source_uri, *source_type, *language, *published_date;
	const char *metadata;	/* a JSON object's text, or NULL */
	const char *content_hash;	/* "sha256:...": of all that makes its chunks */
	size_t length;		/* of the text, bytes */
};

/* A chunk as stored; strings are borrowed. */
struct ev_corpus_chunk {
	const char *id;		/* "DOC:SECTION:INDEX" */
	const char *section_id, *section_title, *section_path;
	int chunk_index;
	const char *text;
	size_t len;
	size_t offset_start, offset_end;
	const char *content_hash;	/* "sha256:" of the text */
	const char *lang;	/* its language, as ev_langid_doc() finds it from the
				 * document's and the text, or NULL: the put finds it */
	int title_is_text;	/* the text is the document's title (a document of a
				 * title alone): the chunk has no title of its own,
				 * so the title's words are indexed once */
	/* With fts_ready set (and lang): the title, section_title and text
	 * columns as chunks_fts receives them, tagged with lang as chunks_src
	 * tags them (EV_STORE_TAG: NULL stays NULL when lang is ""), made by
	 * the caller, which saves the put from making them.  fts_z[i]: the
	 * byte after fts[i][0..fts_len[i]) is NUL and none before it is. */
	int fts_ready;
	const char *fts[3];
	size_t fts_len[3];
	int fts_z[3];
};

struct ev_corpus;

/* Start writing documents into st (which must stay open until
 * ev_corpus_free()).  Sets the connection's commit and rollback hooks (one
 * writer per store).  Returns NULL with *err set. */
struct ev_corpus *ev_corpus_open(struct ev_store *st, struct ev_err *err);

/* Free the writer (NULL-safe); the store stays open. */
void ev_corpus_free(struct ev_corpus *c);

/* Whether document id is stored with content_hash: 1 when it is (its source
 * is updated to source when that differs), 0 when not, -1 with *err set. */
int ev_corpus_unchanged(struct ev_corpus *c, const char *id, const char *content_hash,
	const char *source, struct ev_err *err);

/* Store document d with chunks ch[0..n), replacing what was stored under its
 * id.  Sets changed[i] to 1 when chunk i is new or changed (its id is new, or
 * its content hash, title or section title differ), else 0.  Inside a
 * transaction the rowid high-water mark waits for ev_corpus_sync(); outside
 * one it is written at once.  Returns 0, or -1 with *err set (code 1); the
 * caller then rolls back. */
int ev_corpus_put(struct ev_corpus *c, const struct ev_corpus_doc *d,
	const struct ev_corpus_chunk *ch, size_t n, unsigned char *changed, struct ev_err *err);

/* Before committing a transaction in which documents were put: write the
 * highest chunk rowid given out to meta (once a transaction, not once a
 * document).  A commit without it is refused by SQLite (a commit hook turns it
 * into a rollback), so that no rowid can be given out twice.  Returns 0, or -1
 * with *err set (code 1). */
int ev_corpus_sync(struct ev_corpus *c, struct ev_err *err);

/* Delete document id and its chunks.  Returns 1 when it was stored, 0 when
 * not, -1 with *err set. */
int ev_corpus_delete(struct ev_corpus *c, const char *id, struct ev_err *err);

/* Mark document id as seen in this run (for ev_corpus_prune()).  Returns 0 or
 * -1 with *err set. */
int ev_corpus_seen(struct ev_corpus *c, const char *id, struct ev_err *err);

/* Delete every document of source not marked seen since ev_corpus_open(),
 * adding their number to *n.  Returns 0 or -1 with *err set. */
int ev_corpus_prune(struct ev_corpus *c, const char *source, long long *n, struct ev_err *err);

/* Delete every document of source, adding their number to *n.  Returns 0 or
 * -1 with *err set. */
int ev_corpus_delete_source(struct ev_corpus *c, const char *source, long long *n,
	struct ev_err *err);

/* Give document from (and its chunks: "FROM:SECTION:INDEX" becomes
 * "TO:SECTION:INDEX") the id to, which must not be stored; its source_uri
 * too when it was the id.  Chunks keep their rowids (the vector index's
 * ids).  Returns 0 or -1 with *err set. */
int ev_corpus_rename(struct ev_corpus *c, const char *from, const char *to, struct ev_err *err);

#endif
