/* toolrun.h: what a retrieval command's ToolRun line says of its work: the
 * retrieval frame of each query it handled (inputs_logged) and the ids, ranks
 * and scores it wrote (outputs), gathered from the records it read and wrote.
 *
 * The command is not asked to report anything: its input lines are shown to
 * ev_toolrun_read() (jsonl.h's reader observer) and its standard output to
 * ev_toolrun_wrote() as the bytes go out, in whatever pieces; each is parsed
 * only for the fields the log keeps.  A record that is not a query's (no
 * "query_id", or not JSON) is passed over: the log never fails the run.
 * Safe to call from two threads at once (a lane reads on one, writes on
 * another).
 *
 * Layer 3 of cli/: includes jsonl.h (and Jansson); cli.c, which writes the
 * line, is its only user besides the tests. */
#ifndef EV_TOOLRUN_H
#define EV_TOOLRUN_H

#include <stddef.h>
#include <jansson.h>

struct ev_toolrun;

/* The records of no query (embedded chunks) a run logs, the first of them. */
#define EV_TOOLRUN_MAX_RECORDS 100

/* An empty record of a run.  Returns NULL when out of memory. */
struct ev_toolrun *ev_toolrun_new(void);

/* Free it (NULL-safe). */
void ev_toolrun_free(struct ev_toolrun *t);

/* A line the command read (no newline), the lineno-th of its input: a query
 * record, a hit, or a line that is only a JSON string (a query whose
 * query_id is lineno).  The query's frame is kept the first time its
 * query_id is seen: {"query_id", "query", "request_id", "filters",
 * "routing"} as far as the record has them, and "lanes", the distinct
 * "lane" values of the records read for it, in the order first seen.
 * The signature is jsonl.h's ev_jsonl_observer (ctx is t). */
void ev_toolrun_read(void *t, const char *line, size_t len, size_t lineno);

/* Bytes the command wrote to standard output, any piece of its lines.  Each
 * whole line is kept as an output of its query: a hit record as
 * {"id", "rank", "score", "lane"} in its query's "hits"; an EvidencePack as
 * {"id", "rank" (its place, from 1), "signals"} in its query's "evidences";
 * a query record with a "routing" object as that object; an embedded query
 * record's "vector" as {"dim", "norm"} (norm to 4 decimals), with its
 * "model".  A query first seen here gets its frame from the record too.  A
 * line of no query with an "id" and a "vector" (an embedded chunk) is an
 * output of its own, {"id", "vector": {"dim", "norm"}, "model"}, for the
 * first EV_TOOLRUN_MAX_RECORDS such lines; the others are counted in
 * "outputs_left_off".  Returns 0 (never fails: a line it cannot read is not
 * logged). */
int ev_toolrun_wrote(struct ev_toolrun *t, const char *p, size_t n);

/* A record the command wrote in another form than a JSON line (ev-pack's
 * text report of a pack): kept as ev_toolrun_wrote() keeps a line holding
 * it.  rec is borrowed. */
void ev_toolrun_output(struct ev_toolrun *t, const json_t *rec);

/* Add to run (a ToolRun object): "inputs_logged": {"plan"?: plan (copied;
 * NULL leaves it out), "queries": [frame, ...]} and "outputs": [{"query_id",
 * "hits"?, "evidences"?, "routing"?, "vector"?, "model"?} or {"id",
 * "vector", "model"?}, ...], in the order first seen, and
 * "outputs_left_off" when records were. Returns 0, or -1 when out of
 * memory. */
int ev_toolrun_add(struct ev_toolrun *t, json_t *run, const json_t *plan);

#endif
