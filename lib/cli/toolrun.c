/* toolrun.c: the retrieval frames and outputs of a ToolRun line.  See
 * toolrun.h. */
#include "toolrun.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonl.h"

struct ev_toolrun {
	pthread_mutex_t lock;
	json_t *frames;		/* query_id text -> frame */
	json_t *frame_order;	/* the frames, first seen first */
	json_t *outputs;	/* query_id text -> output entry */
	json_t *output_order;
	long long records_logged;	/* records of no query (chunks) kept */
	long long records_left_off;	/* those beyond EV_TOOLRUN_MAX_RECORDS */
	struct ev_buf partial;	/* written bytes not yet ended by a newline */
	struct ev_buf qid;	/* a record's query_id as text (scratch, the lock held) */
};

/* The fields of a record that frame its query, in the frame's order. */
static const char *const frame_keys[] = {
	"query_id", "query", "request_id", "filters", "routing", NULL
};

struct ev_toolrun *
ev_toolrun_new(void)
{
	struct ev_toolrun *t = calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	t->frames = json_object();
	t->frame_order = json_array();
	t->outputs = json_object();
	t->output_order = json_array();
	if (t->frames == NULL || t->frame_order == NULL || t->outputs == NULL ||
	    t->output_order == NULL) {
		ev_toolrun_free(t);
		return NULL;
	}
	return t;
}

void
ev_toolrun_free(struct ev_toolrun *t)
{
	if (t == NULL)
		return;
	json_decref(t->frames);
	json_decref(t->frame_order);
	json_decref(t->outputs);
	json_decref(t->output_order);
	ev_buf_release(&t->partial);
	ev_buf_release(&t->qid);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/* The record of line[0..len) when it may belong to a query (it names
 * "query_id", or is a JSON string), else NULL; the caller owns it. */
static json_t *
parse_record(const char *line, size_t len)
{
	struct ev_err err = { 0 };
	size_t i = 0;

	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i == len || (line[i] != '"' && memmem(line, len, "\"query_id\"", 10) == NULL))
		return NULL;
	return ev_json_parse_line(line, len, "log", &err);
}

/* The frame of query qid, made from rec when it is new.  Borrowed, or NULL
 * when out of memory. */
static json_t *
frame_of(struct ev_toolrun *t, const char *qid, const json_t *rec)
{
	json_t *frame = json_object_get(t->frames, qid);
	int i;

	if (frame != NULL)
		return frame;
	if ((frame = json_object()) == NULL)
		return NULL;
	for (i = 0; frame_keys[i] != NULL; i++) {
		json_t *v = json_object_get(rec, frame_keys[i]);

		if (v != NULL && !json_is_null(v))
			json_object_set(frame, frame_keys[i], v);
	}
	if (json_object_set_new(t->frames, qid, frame) == -1 ||
	    json_array_append(t->frame_order, frame) == -1)
		return NULL;
	return frame;
}

/* Add rec's "lane" to the frame's "lanes" when it is not there yet. */
static void
note_lane(json_t *frame, const json_t *rec)
{
	json_t *lane = json_object_get(rec, "lane"), *lanes, *v;
	size_t i;

	if (!json_is_string(lane))
		return;
	if ((lanes = json_object_get(frame, "lanes")) == NULL) {
		lanes = json_array();
		if (json_object_set_new(frame, "lanes", lanes) == -1)
			return;
	}
	json_array_foreach(lanes, i, v)
		if (json_equal(v, lane))
			return;
	json_array_append(lanes, lane);
}

/* The query_id of rec as text, of any length, in t->qid (the lock held).
 * Returns it, or NULL when rec has none or memory runs out. */
static const char *
query_id(struct ev_toolrun *t, const json_t *rec)
{
	return ev_json_id_buf(json_object_get(rec, "query_id"), &t->qid) == 0 ?
	    ev_buf_str(&t->qid) : NULL;
}

void
ev_toolrun_read(void *ctx, const char *line, size_t len, size_t lineno)
{
	struct ev_toolrun *t = ctx;
	json_t *rec = parse_record(line, len), *frame;
	const char *qid;

	if (rec == NULL)
		return;
	if (json_is_string(rec)) {	/* a query given as its text alone */
		json_t *q = json_pack("{s:I,s:O}", "query_id", (json_int_t)lineno, "query", rec);

		json_decref(rec);
		rec = q;
	}
	pthread_mutex_lock(&t->lock);
	if (json_is_object(rec) && (qid = query_id(t, rec)) != NULL &&
	    (frame = frame_of(t, qid, rec)) != NULL)
		note_lane(frame, rec);
	pthread_mutex_unlock(&t->lock);
	json_decref(rec);
}

/* The output entry of query qid, {"query_id"} when new.  Borrowed, or NULL. */
static json_t *
output_of(struct ev_toolrun *t, const char *qid, const json_t *rec)
{
	json_t *out = json_object_get(t->outputs, qid);

	if (out != NULL)
		return out;
	if ((out = json_pack("{s:O}", "query_id", json_object_get(rec, "query_id"))) == NULL)
		return NULL;
	if (json_object_set_new(t->outputs, qid, out) == -1 ||
	    json_array_append(t->output_order, out) == -1)
		return NULL;
	return out;
}

/* Append item to the array out[key], made when absent. */
static void
append_to(json_t *out, const char *key, json_t *item)
{
	json_t *arr = json_object_get(out, key);

	if (item == NULL)
		return;
	if (arr == NULL && json_object_set_new(out, key, arr = json_array()) == -1) {
		json_decref(item);
		return;
	}
	json_array_append_new(arr, item);
}

/* An embedded record's vector as {"dim", "norm"} (the norm to 4 decimals:
 * 1 for the unit vectors embedders write, 0 for a text they could not
 * place), or NULL when it has none. */
static json_t *
vector_summary(const json_t *rec)
{
	const json_t *vec = json_object_get(rec, "vector"), *x;
	double sum = 0;
	size_t i;

	if (!json_is_array(vec))
		return NULL;
	json_array_foreach(vec, i, x)
		sum += json_number_value(x) * json_number_value(x);
	return json_pack("{s:I,s:f}", "dim", (json_int_t)json_array_size(vec),
	    "norm", round(sqrt(sum) * 1e4) / 1e4);
}

/* Keep an embedded record's vector ("vector": {"dim", "norm"}) and its
 * "model" in its entry out. */
static void
keep_vector(json_t *out, const json_t *rec)
{
	json_t *v = vector_summary(rec);

	if (v != NULL && json_object_set_new(out, "vector", v) == 0 &&
	    json_is_string(json_object_get(rec, "model")))
		json_object_set(out, "model", json_object_get(rec, "model"));
}

/* Keep a written record's ids, ranks and scores in its query's entry. */
static void
keep_output(json_t *out, const json_t *rec)
{
	json_t *evidences = json_object_get(rec, "evidences"), *item, *v;
	size_t i;

	if (json_is_array(evidences)) {
		json_array_foreach(evidences, i, item) {
			v = json_pack("{s:O*,s:I,s:O*}", "id", json_object_get(item, "id"),
			    "rank", (json_int_t)(i + 1), "signals", json_object_get(item, "signals"));
			append_to(out, "evidences", v);
		}
	} else if (json_object_get(rec, "id") != NULL && json_object_get(rec, "score") != NULL) {
		v = json_pack("{s:O,s:O*,s:O}", "id", json_object_get(rec, "id"), "rank",
		    json_object_get(rec, "rank"), "score", json_object_get(rec, "score"));
		if (v != NULL && json_is_string(json_object_get(rec, "lane")))
			json_object_set(v, "lane", json_object_get(rec, "lane"));
		append_to(out, "hits", v);
	} else if (json_is_object(json_object_get(rec, "routing"))) {
		json_object_set(out, "routing", json_object_get(rec, "routing"));
	}
	keep_vector(out, rec);
}

/* Does rec hold something keep_output() keeps? */
static int
is_output(const json_t *rec)
{
	return json_is_array(json_object_get(rec, "evidences")) ||
	    (json_object_get(rec, "id") != NULL && json_object_get(rec, "score") != NULL) ||
	    json_is_object(json_object_get(rec, "routing")) ||
	    json_is_array(json_object_get(rec, "vector"));
}

/* Keep rec as an output of its query (the lock held). */
static void
output_record(struct ev_toolrun *t, const json_t *rec)
{
	const char *qid;
	json_t *out;

	if (json_is_object(rec) && is_output(rec) && (qid = query_id(t, rec)) != NULL &&
	    frame_of(t, qid, rec) != NULL && (out = output_of(t, qid, rec)) != NULL)
		keep_output(out, rec);
}

/* A written line of no query that holds a vector (an embedded chunk):
 * {"id", "vector", "model"?} appended to the outputs, for the first
 * EV_TOOLRUN_MAX_RECORDS of them; the others are counted. */
static void
wrote_embedded(struct ev_toolrun *t, const char *line, size_t len)
{
	struct ev_err err = { 0 };
	json_t *rec, *out;

	if (memmem(line, len, "\"vector\"", 8) == NULL)
		return;
	if (t->records_logged >= EV_TOOLRUN_MAX_RECORDS) {
		t->records_left_off++;
		return;
	}
	rec = ev_json_parse_line(line, len, "log", &err);
	if (json_is_string(json_object_get(rec, "id")) &&
	    json_is_array(json_object_get(rec, "vector")) &&
	    (out = json_pack("{s:O}", "id", json_object_get(rec, "id"))) != NULL) {
		keep_vector(out, rec);
		if (json_array_append_new(t->output_order, out) == 0)
			t->records_logged++;
	}
	json_decref(rec);
}

/* One whole line written. */
static void
wrote_line(struct ev_toolrun *t, const char *line, size_t len)
{
	json_t *rec = parse_record(line, len);

	if (rec == NULL)
		wrote_embedded(t, line, len);
	output_record(t, rec);
	json_decref(rec);
}

void
ev_toolrun_output(struct ev_toolrun *t, const json_t *rec)
{
	pthread_mutex_lock(&t->lock);
	output_record(t, rec);
	pthread_mutex_unlock(&t->lock);
}

int
ev_toolrun_wrote(struct ev_toolrun *t, const char *p, size_t n)
{
	const char *end = p + n, *nl;

	pthread_mutex_lock(&t->lock);
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (t->partial.len > 0) {
			if (ev_buf_add(&t->partial, p, (size_t)(nl - p)) == 0)
				wrote_line(t, t->partial.p, t->partial.len);
			ev_buf_reset(&t->partial);
		} else {
			wrote_line(t, p, (size_t)(nl - p));
		}
		p = nl + 1;
	}
	if (p < end && ev_buf_add(&t->partial, p, (size_t)(end - p)) == -1)
		ev_buf_reset(&t->partial);	/* (that line goes unlogged) */
	pthread_mutex_unlock(&t->lock);
	return 0;
}

int
ev_toolrun_add(struct ev_toolrun *t, json_t *run, const json_t *plan)
{
	json_t *inputs;
	int r;

	pthread_mutex_lock(&t->lock);
	if ((inputs = json_object()) == NULL)
		r = -1;
	else if ((plan != NULL && json_object_set_new(inputs, "plan", json_deep_copy(plan)) == -1) ||
	    json_object_set(inputs, "queries", t->frame_order) == -1) {
		json_decref(inputs);
		r = -1;
	} else {
		r = json_object_set_new(run, "inputs_logged", inputs) == -1 ||
		    json_object_set(run, "outputs", t->output_order) == -1 ||
		    (t->records_left_off > 0 && json_object_set_new(run, "outputs_left_off",
		    json_integer(t->records_left_off)) == -1) ? -1 : 0;
	}
	pthread_mutex_unlock(&t->lock);
	return r;
}
