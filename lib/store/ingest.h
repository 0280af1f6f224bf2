/* ingest.h: documents into the store, as ev-ingest does it: a document record
 * (JSON, or a plain .md/.txt file made into one) is checked, hashed, chunked
 * (chunk.h) and put (corpus.h), and the chunk records to print (evkit(7)'s
 * Chunk) are written into a buffer.
 *
 * High layer: includes err.h, buf.h, docread.h (reading records), jsonl.h (Jansson), region.h, chunk.h, corpus.h,
 * langid.h, analyze.h, sha256.h (content hashes) and store.h.  Writes in the caller's transaction, like corpus.h.
 *
 * A document's content hash covers every field of its record and the
 * chunking options, so a changed field or a new chunk size re-chunks it.
 * A paged document (metadata.pages and metadata.lines, as ev-extract writes
 * them for a PDF) has them checked and stored by chunk (region.h): each
 * chunk's page, page_end and line boxes; its chunk records carry "page" and,
 * when it crosses a page break, "page_end".
 *
 * Fields of the record other than id, text, title, source_uri, source_type,
 * language, published_date and metadata are passed through into each chunk
 * record (unless a chunk field has that name) and stored in
 * documents.metadata beside the keys of "metadata" (which win). */
#ifndef EV_INGEST_H
#define EV_INGEST_H

#include <stddef.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "docread.h"
#include "region.h"
#include "sha256.h"
#include "store.h"

enum ev_ingest_output {
	EV_INGEST_CHANGED = 0,	/* the chunks that are new or changed */
	EV_INGEST_ALL = 1,	/* every chunk of every document read */
	EV_INGEST_NONE = 2
};

struct ev_ingest_opts {
	size_t size, overlap;	/* see chunk.h */
	int format;		/* EV_INGEST_AUTO or an enum ev_chunk_format */
	int output;		/* enum ev_ingest_output */
	int no_prune;		/* 1: no ev_ingest_prune() will follow, so documents
				 * need not be marked seen (saves a write each) */
	int postings;		/* 1: the caller makes the postings file after the
				 * run when ev_postings_wanted() (postings.h) says
				 * so: ev_ingest_finish() leaves a bulk load's
				 * segments for it to read */
};

struct ev_ingest_stats {
	long long written;	/* documents new or changed */
	long long unchanged;	/* documents skipped */
	long long chunks;	/* chunks new or changed */
	long long printed;	/* chunk records written out */
	long long bytes;	/* document text read */
	long long empty;	/* documents written with no chunk (no text, no title in the record):
				 * stored, but no search can find them */
	long long ahead;	/* documents put as ev_ingest_prepare() chunked them
				 * (on another thread) */
};

/* The documents (kind EV_CHUNK_MARKDOWN, EV_CHUNK_TEXT or EV_DOCREAD_KIND_EXTRACT) under
 * directory dir, recursively, sorted by name, as "dir/sub/name.md" (entries
 * starting with '.' and symbolic links to directories are skipped).  Returns
 * 0 with *paths (each and the array malloc'd; the caller frees) and *n set,
 * and when skipped is not NULL the other regular files, and the symbolic
 * links of a document's name that lead nowhere (stat() fails on them), in
 * *skipped and *nskipped (freed the same way); or -1 with *err set. */
int ev_ingest_walk(const char *dir, char ***paths, size_t *n, char ***skipped,
	size_t *nskipped, struct ev_err *err);

/* Ids of files: the path relative to a base directory, wherever the command
 * runs and however the path is spelled ("docs/a.md", "./docs/a.md" and
 * "/abs/docs/a.md" give one id); the absolute path for a file outside the
 * base.  The directory part is resolved (symbolic links, "..", "."), the
 * file's own name is kept. */
struct ev_ingest_ids;

/* path made absolute with symbolic links resolved (realpath), malloc'd; with
 * dir_only it must be a directory.  NULL with *err set (code 2). */
char *ev_ingest_resolve(const char *path, int dir_only, struct ev_err *err);

/* Ids relative to base (absolute and resolved, as ev_ingest_resolve()
 * gives).  NULL with *err set when out of memory. */
struct ev_ingest_ids *ev_ingest_ids_new(const char *base, struct ev_err *err);
void ev_ingest_ids_free(struct ev_ingest_ids *ids);
const char *ev_ingest_ids_base(const struct ev_ingest_ids *ids);

/* The id of the file or directory at path (which must exist; "." for the
 * base itself), malloc'd.  The directory part is resolved once for
 * consecutive files of one directory.  NULL with *err set (code 2 when path
 * cannot be resolved). */
char *ev_ingest_ids_of(struct ev_ingest_ids *ids, const char *path, struct ev_err *err);

struct ev_ingest;

/* Start ingesting into st.  Returns NULL with *err set (code 2 when the
 * options are out of range). */
struct ev_ingest *ev_ingest_open(struct ev_store *st, const struct ev_ingest_opts *o,
	struct ev_err *err);

/* Free it (NULL-safe); the store stays open. */
void ev_ingest_free(struct ev_ingest *ig);

/* A checked document, ready to ingest.  Strings are borrowed; NULL when
 * absent. */
struct ev_ingest_rec {
	const char *id, *text, *title, *source_uri, *source_type, *language,
	    *published_date;
	size_t text_len;
	const char *metadata;	/* documents.metadata: a JSON object's text (the
				 * unknown fields, then "metadata"'s keys), or NULL */
	const char *extra;	/* the unknown fields to pass through, as JSON
				 * members: ",\"k\":v,..."; "" when none */
	int from_file;		/* untitled: the file's base name is the title */
	const char *regions;	/* metadata.pages and .lines as ev_regions_encode()
				 * writes them (region.h), or NULL */
	size_t regions_len;
};

/* Fill *rec from a checked document record doc (which must outlive it);
 * metadata and extra are written into the buffers meta and extra.  A record
 * whose metadata has "pages" or "lines" (a paged document, region.h) has them
 * in rec->regions (written into meta too), not in rec->metadata.  Returns 0,
 * or -1 when out of memory. */
int ev_ingest_rec_make(const json_t *doc, int from_file, struct ev_ingest_rec *rec,
	struct ev_buf *meta, struct ev_buf *extra);

/* Append rec to out as bytes that ev_ingest_rec_unpack() reads back (for a
 * spool file of this process, not a format to keep).  Returns 0 or -1. */
int ev_ingest_rec_pack(const struct ev_ingest_rec *rec, struct ev_buf *out);

/* Read a packed record from p[0..n); its strings point into p.  Returns 0,
 * or -1 when p is not one. */
int ev_ingest_rec_unpack(const char *p, size_t n, struct ev_ingest_rec *rec);

/* Ingest one document that came from source: skipped when the store holds it
 * with the same content hash (unless the output is EV_INGEST_ALL, which chunks
 * and prints it without writing), else chunked and put.  A document without a
 * title takes its first level-1 heading's, or when it came from a file, the
 * file's base name without the extension.  A document whose text has no
 * chunk but whose record has a title gets one chunk, "ID:_top:0", whose
 * text is the title (offsets 0 and 0); one with neither is stored with no
 * chunk and counted in the stats' empty.  Appends the chunk records to print
 * to out, one JSON line each.  Marks the document seen (ev_corpus_seen)
 * unless the options say no_prune.
 * Returns 1 when the document was written, 0 when it was unchanged, -1 with
 * *err set. */
int ev_ingest_put(struct ev_ingest *ig, const struct ev_ingest_rec *rec, const char *source,
	struct ev_buf *out, struct ev_err *err);

/* The work of a put that needs no store, done ahead on another thread (as
 * ev-ingest's second pass does, ingestpass.h): a document's content hash, its
 * chunks with their ids, hashes and languages, and the tokens of their
 * indexed columns, which the store's tokeniser then replays instead of
 * making them (analyze.h).  What is stored is the same either way. */
struct ev_ingest_prep;
struct ev_ingest_preparer;

/* An empty prepared document, reused from one to the next; NULL when out of
 * memory.  ev_ingest_prep_free() frees it (NULL-safe). */
struct ev_ingest_prep *ev_ingest_prep_new(void);
void ev_ingest_prep_free(struct ev_ingest_prep *p);

/* A preparer of ig's documents for one other thread: ig's options, stop
 * lists and a clone of the store's tokeniser of its own, and, when the
 * store holds documents, a read-only connection to it, so that a document
 * stored with the same content hash is not chunked (a guess: the put
 * decides, and chunks what the guess skipped).  Made and freed on ig's
 * thread, while no other thread uses ig.  NULL with *err set (code 1). */
struct ev_ingest_preparer *ev_ingest_preparer_new(struct ev_ingest *ig, struct ev_err *err);
void ev_ingest_preparer_free(struct ev_ingest_preparer *pr);

/* Prepare r into p (what p held is forgotten); r must outlive p's use.
 * Returns 0, or -1 with *err set (code 1, out of memory). */
int ev_ingest_prepare(struct ev_ingest_preparer *pr, const struct ev_ingest_rec *r,
	struct ev_ingest_prep *p, struct ev_err *err);

/* A checker of pass 1 (before ev_ingest_open()): a read-only connection to
 * st, when it holds documents, to tell which records it holds as they are,
 * with o's options (those ev_ingest_open() will be given).  NULL when it
 * holds none, cannot be read, or o's output is EV_INGEST_ALL (which prints
 * every document's chunks); ev_ingest_preparer_free() frees it, and ends
 * its read transaction. */
struct ev_ingest_preparer *ev_ingest_checker_new(struct ev_store *st, const struct ev_ingest_opts *o);

/* r's content hash into dhash, and whether the store held r with that hash
 * when pr last looked (1), else 0: a guess, which ev_ingest_keep() checks. */
int ev_ingest_checker_holds(struct ev_ingest_preparer *pr, const struct ev_ingest_rec *r,
	char dhash[EV_SHA256_TEXT]);

/* r's content hash, as ig stores it, into dhash. */
void ev_ingest_hash(const struct ev_ingest *ig, const struct ev_ingest_rec *r, char dhash[EV_SHA256_TEXT]);

/* ev_ingest_put() of a document the store held as it is when a checker
 * looked (its id, content hash dhash and text's length text_len), without
 * the document: 1 when the store still holds it so (counted unchanged,
 * marked seen, its source updated as ev_ingest_put() would), 0 when it
 * does not (nothing done: the caller puts the whole document), -1 with
 * *err set. */
int ev_ingest_keep(struct ev_ingest *ig, const char *id, const char *dhash, long long text_len,
	const char *source, struct ev_err *err);

/* ev_ingest_put() of r prepared in p by ev_ingest_prepare() (p NULL: r is
 * prepared here).  p is left for the caller to reuse or free. */
int ev_ingest_put_prepared(struct ev_ingest *ig, const struct ev_ingest_rec *r,
	struct ev_ingest_prep *p, const char *source, struct ev_buf *out, struct ev_err *err);

/* ev_ingest_rec_make() and ev_ingest_put() in one. */
int ev_ingest_doc(struct ev_ingest *ig, json_t *doc, const char *source, int from_file,
	struct ev_buf *out, struct ev_err *err);

/* Mark document id as seen without ingesting it (a record skipped as
 * invalid must not be pruned); nothing with no_prune.  Returns 0 or -1. */
int ev_ingest_seen(struct ev_ingest *ig, const char *id, struct ev_err *err);

/* Delete the documents of source not seen in this run; *n counts them.
 * An error (code 1) with no_prune. */
int ev_ingest_prune(struct ev_ingest *ig, const char *source, long long *n, struct ev_err *err);

/* Delete document id and its chunks (their rowids recorded in
 * chunk_tombstones, so the vector lane stops returning them).  Returns 1
 * when it was stored, 0 when not, -1 with *err set. */
int ev_ingest_delete(struct ev_ingest *ig, const char *id, struct ev_err *err);

/* Delete every document of source; *n counts them.  Returns 0 or -1. */
int ev_ingest_delete_source(struct ev_ingest *ig, const char *source, long long *n,
	struct ev_err *err);

/* The base directory of the store's file ids, kept in meta under this key:
 * recorded at the first ingest that reads a file.  A base that is the
 * store's directory or below it is recorded relative to that directory
 * ("." or "docs"), so that it moves with the store, as a work tree does
 * with git; another is recorded absolute, as every base was before. */
#define EV_INGEST_BASE_KEY "ingest.base"

/* The store's base, absolute (a relative record joined to the store's
 * directory, resolved): 1 with *base (malloc'd; the caller frees), 0 when
 * it has none, -1 with *err set. */
int ev_ingest_base_get(struct ev_store *st, char **base, struct ev_err *err);

/* A store whose base was recorded absolute (an older evkit) and is the
 * store's directory or below it has it recorded relative instead, as a
 * store made now has.  Returns 1 when it was rewritten, 0 when not, -1 with
 * *err set. */
int ev_ingest_base_relate(struct ev_store *st, struct ev_err *err);

/* The file ids of an ingest into the store at path db (ev-ingest's --db and
 * --base): an existing store is opened (*st, EV_STORE_WRITE; left NULL when
 * db does not exist), an absolute base recorded by an older evkit made
 * relative (ev_ingest_base_relate()), and its base, once recorded, is the
 * base of the ids; else base_arg (NULL: the current directory), which must
 * be a directory.  Returns the ids (ev_ingest_ids_free()), or NULL with *err
 * set: code 2 when base_arg is not the store's recorded base or not a
 * directory, code 1 when the store cannot be read (*st may be open then:
 * the caller closes it). */
struct ev_ingest_ids *ev_ingest_ids_open(const char *db, const char *base_arg, struct ev_store **st,
	struct ev_err *err);

/* ev-ingest --reindex: upgrade the store at path db (which must exist) in
 * place with ev_store_reindex(), each chunk's language its document's
 * declared one, else its text's (ev_langid_doc()).  Returns 1 when the
 * store was upgraded, 0 when it was already current (nothing changed), or
 * -1 with *err set. */
int ev_ingest_reindex(const char *db, struct ev_err *err);

/* Record ids's base as the store's (in the caller's transaction), for a
 * store that has none.  Documents stored before from files (source_uri equal
 * to the id, source_type markdown or text), whose id was the path as given,
 * take their id relative to the base as if the path had been given from the
 * base directory ("./docs/a.md" and "/base/docs/a.md" become "docs/a.md";
 * one whose file's directory is gone keeps its id); *renamed counts them.  A
 * document whose new id is already stored is a second copy and is deleted
 * (*merged).  Sources that name a path are made relative the same way.
 * Returns 0 or -1 with *err set. */
int ev_ingest_base_set(struct ev_ingest *ig, struct ev_ingest_ids *ids, long long *renamed,
	long long *merged, struct ev_err *err);

/* How the full-text index merges in this run, decided before it writes:
 * docs, the documents it will put, at least as many as the store holds
 * makes it a bulk load (ev_store_fts_bulk(): segments are not merged as
 * they are written, and ev_ingest_finish() merges them into one at the
 * end unless the postings file is made from them), which costs less CPU
 * and leaves segments that the postings file is read from quickly; else
 * FTS5 merges as it writes, as always.  The
 * settings are written just before the run's first document is, so that a
 * run that changes nothing changes nothing, and FTS5's own automerge never
 * begins a merge among a bulk load's first segments (those written within
 * its first batch, as its pending terms pass FTS5's hash size) that the
 * bulk settings would leave half done.  Returns 0, or -1 with *err. */
int ev_ingest_plan(struct ev_ingest *ig, long long docs, struct ev_err *err);

/* After a run's last batch: a bulk load's index merged into one segment
 * and FTS5's own merge settings written back, in the caller's open
 * transaction (in_txn: the last batch's, so that a run of one batch
 * either writes all of it or nothing), else in a transaction of its own
 * (a run killed during it keeps its batches, and the next run that writes
 * restores the settings).  The merge is left out when the options'
 * postings is set and the store wants its postings file made
 * (ev_postings_wanted() with EV_POSTINGS_AUTO_ROWS): the build reads the
 * segments as they are, merging their lists (fts5seg.h), and merges the
 * index itself only when it cannot; the text lane's searches, typo
 * repair's look-ups included, then read that file, not the segments
 * (textsearch.h).  The transaction's pending terms are then written as a
 * segment first (a savepoint), under the load's settings, so that FTS5's,
 * written back after them, merge nothing at the commit.  Nothing
 * otherwise.  Returns 0, or -1 with *err set. */
int ev_ingest_finish(struct ev_ingest *ig, int in_txn, struct ev_err *err);

/* Commit the caller's transaction (ev_store_commit()), having first written
 * what the documents put in it leave pending (see ev_corpus_sync()).  Every
 * transaction that ev_ingest_put() wrote in must end so or roll back.
 * Returns 0, or -1 with *err set (code 1). */
int ev_ingest_commit(struct ev_ingest *ig, struct ev_err *err);

/* What has been done so far. */
const struct ev_ingest_stats *ev_ingest_stats(const struct ev_ingest *ig);

#endif
