/* ingestpass.h: ev-ingest's two passes, so that bad input leaves the store
 * exactly as it was and a killed run keeps what it committed.
 *
 * Pass 1 (ev_ingestpass_read()) reads every input, checks every record and copies
 * the good ones into a spool file (a tmpfile(), stdin included), but for the
 * records the store holds as they are (ev_ingestpass_against()).  Pass 2
 * (ev_ingestpass_write()) chunks and writes them in batched transactions, writing
 * a batch's chunk records once it is committed, so that a later stage never
 * sees a chunk the store does not have; with opts.threads 2 a second thread
 * reads the spool ahead and prepares each document (ev_ingest_prepare())
 * while the caller's thread writes the one before.  ev_ingestpass_delete() is
 * --delete.
 *
 * What a user should be told (a second copy of a file, a skipped record, a
 * document no search can find) is handed to the caller's note function as
 * one line without the program's name; errors come back in *err.
 *
 * High layer: includes err.h, note.h, store.h and ingest.h. */
#ifndef EV_INGESTPASS_H
#define EV_INGESTPASS_H

#include <stdio.h>

#include "err.h"
#include "ingest.h"
#include "note.h"
#include "store.h"

/* Records named one by one in notes (invalid ones skipped, second copies,
 * files named twice, documents without chunks); the rest are counted. */
#define EV_INGESTPASS_NAMED 10

/* A batch is committed after opts.batch documents, this long, or this much
 * input, whichever comes first.  Few, large transactions: FTS5 writes its
 * pending terms as a new segment at each commit, and merges segments as they
 * pile up, so small batches cost more than the indexing itself. */
#ifndef EV_INGESTPASS_BATCH_MS
#define EV_INGESTPASS_BATCH_MS 1000
#endif
#define EV_INGESTPASS_BATCH_BYTES (16 << 20)
#define EV_INGESTPASS_BATCH_DOCS 10000	/* opts.batch's default */

struct ev_ingestpass_opts {
	int skip_invalid;	/* bad records (code 2) are noted, counted and skipped */
	int verbose;		/* name each file of a directory that is not a document */
	int format;		/* EV_INGEST_AUTO, EV_DOCREAD_KIND_JSONL, EV_CHUNK_MARKDOWN
				 * or EV_CHUNK_TEXT: how named files are read */
	const char *source;	/* the source of every input, or NULL: each input's id */
	struct ev_ingest_ids *ids_of;	/* file ids (borrowed) */
	long long batch;	/* documents per transaction, at least 1 */
	int threads;		/* 2: pass 2 prepares documents on a second thread
				 * (on two processors or more); 1 (or 0): one thread */
	int prune;		/* pass 2 ends by pruning the sources read */
	long kill_after;	/* testing aid: SIGKILL after this many commits (0: never) */
	FILE *out;		/* where chunk records go (pass 2) */
	ev_note_fn *note;	/* a warning for the user (note.h), or NULL */
	void (*progress)(void *ctx, long long docs, long long bytes);	/* pass 2, per document */
	void *ctx;		/* for note and progress */
	const char *password;	/* for encrypted PDFs, or NULL */
	int extract_progress;	/* show ev-extract's progress on stderr (a terminal) */
};

struct ev_ingestpass_stats {
	long long docs;		/* documents spooled */
	long long invalid;	/* records skipped as invalid */
	long long skipped;	/* files of directories that are not documents */
	long long copies;	/* files whose text is another's of this run */
	long long again;	/* files named twice, read once */
	long long empty;	/* documents stored with no chunk */
	long long pruned;	/* documents pruned (opts.prune) */
};

struct ev_ingestpass;

/* A spool with options o (copied; its pointers borrowed).  NULL with *err
 * set when the spool file cannot be made (code 1). */
struct ev_ingestpass *ev_ingestpass_new(const struct ev_ingestpass_opts *o, struct ev_err *err);

/* Free it (NULL-safe); the spool file is deleted. */
void ev_ingestpass_free(struct ev_ingestpass *sp);

/* Pass 1 for one input arg: "-" (stdin, JSON Lines), a directory (its
 * documents, see ev_ingest_walk()), or a file read as opts.format says, or
 * by its extension (ev_docread_kind(): any other is JSON Lines); one that is
 * not a regular file (a pipe, /dev/stdin) is JSON Lines unless opts.format
 * names a plain kind.  PDF and HTML files (EV_DOCREAD_KIND_EXTRACT, unless
 * opts.format names a kind) are read by running ev-extract (the one beside
 * this program, else the one on PATH) in a process of its own, its record
 * given the file's id; what it reports about the file comes back as notes
 * ("FILE: ...") or, when it fails, as the error (code 2 for a file it cannot
 * read, 1 when it cannot be run).  A document id seen before in this run is
 * refused.  Returns 0, or -1 with *err set (code 2 for bad input, unless
 * skipped). */
int ev_ingestpass_read(struct ev_ingestpass *sp, const char *arg, struct ev_err *err);

/* End pass 1: forget the ids seen and note the totals of what was skipped
 * beyond the records named. */
void ev_ingestpass_read_done(struct ev_ingestpass *sp);

/* Have pass 1 check its records against st, the store pass 2 will write
 * with ig's options o (NULL: nothing done): a JSON Lines record of a
 * regular file that st holds as it is (the same content hash, see
 * ingest.h) is spooled as its id and hash alone, not copied whole, and
 * pass 2 counts it unchanged after checking the store again (should it
 * have changed since, by another writer, the record is read again from
 * its file).  Not for o's output EV_INGEST_ALL.  Returns sp. */
struct ev_ingestpass *ev_ingestpass_against(struct ev_ingestpass *sp, struct ev_store *st,
	const struct ev_ingest_opts *o);

/* Pass 1 for the inputs args[0..n) (none: stdin, "-"), each read with
 * ev_ingestpass_read() in turn, then ev_ingestpass_read_done().  Returns 0,
 * or -1 with *err set at the first input that failed (pass 1 not ended). */
int ev_ingestpass_read_all(struct ev_ingestpass *sp, char *const *args, int n, struct ev_err *err);

/* Pass 2: the spooled documents into the store through ig (opened on st) in
 * batched transactions, each batch's chunk records written to opts.out after
 * its commit; the store's base recorded in the first transaction when it has
 * none (ev_ingest_base_set()); then with opts.prune the documents of the
 * sources read that this run did not see are deleted (not of a source that
 * had invalid records without an id: noted).  Returns 0, or -1 with *err set,
 * the open transaction rolled back. */
int ev_ingestpass_write(struct ev_ingestpass *sp, struct ev_store *st, struct ev_ingest *ig,
	struct ev_err *err);

/* What pass 1 and 2 did. */
const struct ev_ingestpass_stats *ev_ingestpass_stats(const struct ev_ingestpass *sp);

/* --delete (sources 0) or --delete-source (sources 1), in one transaction:
 * each of names[0..n) an id (or a file, by its id under ids_of) or a source
 * (or a directory or file, by its id).  A name that matches nothing is noted
 * through o's note.  *deleted counts the documents deleted.  Returns 0, or -1
 * with *err set and the store unchanged. */
int ev_ingestpass_delete(const struct ev_ingestpass_opts *o, struct ev_store *st, struct ev_ingest *ig,
	int sources, char **names, int n, long long *deleted, struct ev_err *err);

#endif
