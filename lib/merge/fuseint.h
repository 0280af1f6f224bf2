/* fuseint.h: the state of one query being fused, shared by the fuse
 * modules (fuse.c, fuserank.c, fusewrite.c, fusein.c) and by no other.
 *
 * Includes buf.h, jscan.h, arena.h, strmap.h and fuseopt.h. */
#ifndef EV_FUSEINT_H
#define EV_FUSEINT_H

#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "fuseopt.h"
#include "jscan.h"
#include "strmap.h"

struct lane {
	char name[EV_FUSE_LANE_MAX + 1];
	char sname[EV_FUSE_LANE_MAX + 8], rname[EV_FUSE_LANE_MAX + 8];	/* its signals */
	size_t nlen, snlen, rnlen;
	double w;		/* the weight in effect for this query */
	double w0;		/* the weight given */
	double agree;		/* adaptive weights: its agreement with the anchor, or -1 */
	int agree_lane;		/* ... measured on this lane's documents (itself, or agree_from) */
	int shared, depth;	/* ... as shared candidates out of depth */
	int prio;
	int istext;		/* the lane "text" */
	int as_document;	/* the text lane: -1 not known yet, 1 when its hits say it read
				 * this query as a document (signals.query_as_document) */
	int feedback_off;	/* this query: the feedback lane weighs 0, as the text lane
				 * read the query as a document */
	int xc;			/* its slot of explanations kept, or -1 */
	size_t nfoff, nflen;	/* its account of not finding a candidate, in nfb */
	/* per query, over the candidates the lane found */
	double max, min, mean, sd, floor;
	enum ev_fuse_floor floor_rule;	/* the floor asked for */
	int floor_zero;		/* this query's floor is a raw score of 0's */
	long n;
};

/* The fields fusion reads (F_ID .. F_EV), and the keys a fused hit sets
 * (F_ID .. F_CHUNKS but F_DOC). */
enum { F_ID, F_LANE, F_RANK, F_SCORE, F_DOC, F_SIG, F_SNIP, F_EV, F_N,
	F_EXPLAIN = F_N, F_CHUNK_ID, F_CHUNKS, F_ALL };

/* A hit added: its line and members copied into the arena. */
struct rhit {
	const char *line;
	struct ev_jmem *m;
	int nm;
	int iid, idoc, isig, iev, isnip;	/* member indexes, or -1 */
	const char *id, *doc;	/* decoded, in the arena */
	int li;			/* its lane */
	long long rank;
	double score;
	int next;		/* grouping by document: the next hit of the document, or -1 */
	int pos[F_ALL];		/* where the keys a fused hit sets are, or -1 */
};

struct cand {
	const char *key;	/* id, or doc_id when grouping by document */
	int keyhit;		/* the hit whose raw key text names it */
	int hit[EV_FUSE_MAXLANES];	/* the lane's (best) hit, or -1 */
	int first, last;	/* grouping by document: its hits, in order added */
	long long rank[EV_FUSE_MAXLANES];
	double score[EV_FUSE_MAXLANES];
	double norm[EV_FUSE_MAXLANES];
	double contrib[EV_FUSE_MAXLANES];
	double fused, rrf;
	long long best_rank;
	int nfound;
};

/* A member of an object being written: raw key text, and a value that is raw
 * text (src 0) or text at off in f->gb (src 1) or f->vb (src 2). */
struct om {
	const char *k;
	size_t kn;
	int kesc;
	int src;
	const char *v;
	size_t off, vn;
};

struct oms {
	struct om *m;
	size_t n, cap;
};

/* The accounts of one lane finding a candidate at each rank (RRF), kept
 * from query to query: the text up to the score and after it. */
#define XC_RANKS 1024
#define XC_SLOTS (2 * EV_FUSE_MAXLANES)

struct xtext {
	uint32_t off;		/* in t */
	uint16_t split, len;	/* len 0: not made yet */
};

struct xslot {
	char name[EV_FUSE_LANE_MAX + 1];	/* the lane's, or "" */
	unsigned long gen;	/* the last query whose lanes used it */
	struct ev_buf t;
	struct xtext *r;	/* XC_RANKS of them, or NULL */
};

/* An evidence entry of a fused hit: text at off in f->eb. */
struct evx {
	size_t off, len;
	int prio;
};

struct ev_fuse {
	struct ev_fuse_opts o;
	char *qid;
	struct lane lanes[EV_FUSE_MAXLANES];
	int nlanes;
	char seen[EV_FUSE_MAXLANES][EV_FUSE_LANE_MAX + 1];	/* lanes of any query so far */
	int nseen;
	struct ev_arena a;
	struct rhit *hits;
	size_t nh, caph;
	struct cand *c;
	size_t nc, capc;
	struct ev_strmap ids[EV_FUSE_MAXLANES];	/* the ids of each lane: duplicates */
	struct ev_strmap keys;	/* the candidates' keys, numbered as in c */
	struct ev_strmap adocs, ldocs;	/* adaptive weights: the first documents of two lanes */
	long long count;
	/* writing */
	struct ev_buf gb, vb, eb, tmp;
	struct oms top, sig;
	struct ev_jmems mems;
	struct evx *ev;
	size_t nev, capev;
	int *chunks;
	size_t capchunks;
	struct ev_jscan js;	/* for ev_fuse_add() */
	int sigfast;		/* no clash among the names of the signals */
	struct ev_buf exh, nfb;	/* the explain head, the accounts of missing lanes */
	struct xslot xc[XC_SLOTS];
	unsigned long gen;	/* queries written */
	char st[EV_FUSE_MAXLANES][32];	/* the text of each lane's score, for one candidate */
	unsigned char sn[EV_FUSE_MAXLANES];
	struct {
		uint64_t bits;
		char s[31];
		unsigned char n;	/* 0: empty */
	} rc[2048];		/* reals written lately (RRF's repeat) */
};

/* The names of the fields F_ID .. F_CHUNKS (fuse.c). */
extern const char *const ev_fuse_field_names[F_ALL];

/* The index of the member named key (not null) of m[0..nm), or -1 (fuse.c). */
int ev_fuse_member(const struct ev_jmem *m, int nm, const char *key);

/* Add the hit whose line is line[0..len), its members m[0..nm), as
 * ev_fuse_add_line() does (fuse.c). */
int ev_fuse_add_scanned(struct ev_fuse *f, const char *line, size_t len, const struct ev_jmem *m,
    size_t nm, const char *where, struct ev_err *err);

#endif
