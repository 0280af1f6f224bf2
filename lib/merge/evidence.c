/* evidence.c: a candidate's evidence array.  See evidence.h. */
#include "evidence.h"

#include <stdio.h>
#include <string.h>

#include "jsoncopy.h"

int
ev_evidence_lane_order(const char *lane)
{
	static const char *const order[] = { "vector", "vector_feedback", "text", "region",
		"visual", "timeline" };
	int i;

	for (i = 0; lane != NULL && i < 6; i++)
		if (strcmp(lane, order[i]) == 0)
			return i;
	return 6;
}

/* The signal named PREFIX_what of lane (fts_ for the text lane) in the
 * hit's signals, or NULL. */
static json_t *
lane_signal(const json_t *hit, const char *lane, const char *what)
{
	char key[128];

	snprintf(key, sizeof key, "%s_%s", strcmp(lane, "text") == 0 ? "fts" : lane, what);
	return json_object_get(json_object_get(hit, "signals"), key);
}

/* The entry e's "rank" or "score" (what), else its lane's in the hit's
 * signals, else the hit's own when it is of that lane alone; or NULL. */
static json_t *
lane_value(const json_t *hit, const char *lane, const json_t *e, const char *what, int alone)
{
	json_t *v = json_object_get(e, what);

	if (v == NULL)
		v = lane_signal(hit, lane, what);
	if (v == NULL && alone)
		v = json_object_get(hit, what);
	return v;
}

/* A new entry of lane: "lane", its "rank" and "score" (e's, else the
 * hit's signals' for the lane, else the hit's own when it is of that lane
 * alone), then e's other fields, and query_index when >= 0. */
static json_t *
entry(const json_t *hit, const char *lane, const json_t *e, long long query_index)
{
	const char *own = json_string_value(json_object_get(hit, "lane"));
	int alone = own != NULL && strcmp(own, lane) == 0;
	json_t *x = json_pack("{s:s}", "lane", lane), *v;
	int bad = x == NULL;

	v = lane_value(hit, lane, e, "rank", alone);
	if (!bad && json_is_integer(v) && json_object_set(x, "rank", v) == -1)
		bad = 1;
	v = lane_value(hit, lane, e, "score", alone);
	if (!bad && json_is_number(v) && json_object_set(x, "score", v) == -1)
		bad = 1;
	if (!bad && e != NULL && ev_jsoncopy_update(x, e, 1) == -1)
		bad = 1;
	if (!bad && query_index >= 0 &&
	    json_object_set_new(x, "query_index", json_integer(query_index)) == -1)
		bad = 1;
	if (bad) {
		json_decref(x);
		return NULL;
	}
	return x;
}

/* Append a new entry of lane (e: a copy of it) to a; 0 or -1. */
static int
add(json_t *a, const json_t *hit, const char *lane, const json_t *e, long long query_index)
{
	json_t *x = entry(hit, lane, e, query_index);

	return x == NULL || json_array_append_new(a, x) == -1 ? -1 : 0;
}

/* A hit without evidence: an entry per lane that found it. */
static int
lanes_of(json_t *a, const json_t *hit, long long query_index)
{
	const char *own = json_string_value(json_object_get(hit, "lane"));
	json_t *sig = json_object_get(hit, "signals"), *l;
	size_t i;

	if (own != NULL && strcmp(own, "fused") != 0)
		return add(a, hit, own, NULL, query_index);
	json_array_foreach(json_object_get(json_object_get(hit, "explain"), "lanes"), i, l) {
		const char *lane = json_string_value(json_object_get(l, "lane"));
		json_t *x;

		if (lane == NULL || !json_is_true(json_object_get(l, "found")))
			continue;
		if ((x = json_pack("{s:s}", "lane", lane)) == NULL)
			return -1;
		if ((json_is_integer(json_object_get(l, "rank")) &&
		    json_object_set(x, "rank", json_object_get(l, "rank")) == -1) ||
		    (json_is_number(json_object_get(l, "score")) &&
		    json_object_set(x, "score", json_object_get(l, "score")) == -1) ||
		    add(a, hit, lane, x, query_index) == -1) {
			json_decref(x);
			return -1;
		}
		json_decref(x);
	}
	if (json_array_size(a) > 0)
		return 0;
	if (json_object_get(sig, "vector_score") != NULL && add(a, hit, "vector", NULL,
	    query_index) == -1)
		return -1;
	if (json_object_get(sig, "fts_score") != NULL && add(a, hit, "text", NULL,
	    query_index) == -1)
		return -1;
	return 0;
}

json_t *
ev_evidence_of_hit(const json_t *hit, long long query_index)
{
	json_t *a = json_array(), *e;
	size_t i;

	if (a == NULL)
		return NULL;
	json_array_foreach(json_object_get(hit, "evidence"), i, e) {
		const char *lane = json_string_value(json_object_get(e, "lane"));

		if (lane != NULL && json_is_object(e) && add(a, hit, lane, e, query_index) == -1)
			goto fail;
	}
	if (json_array_size(a) == 0 && lanes_of(a, hit, query_index) == -1)
		goto fail;
	return a;
fail:
	json_decref(a);
	return NULL;
}

int
ev_evidence_merge(json_t *into, const json_t *entries)
{
	json_t *e, *have;
	size_t i, j;

	json_array_foreach(entries, i, e) {
		json_array_foreach(into, j, have)
			if (json_equal(have, e))
				break;
		if (j == json_array_size(into) && json_array_append(into, e) == -1)
			return -1;
	}
	return 0;
}

int
ev_evidence_tag_query(json_t *entries, long long query_index)
{
	json_t *e;
	size_t i;

	json_array_foreach(entries, i, e)
		if (json_object_get(e, "query_index") == NULL &&
		    json_object_set_new(e, "query_index", json_integer(query_index)) == -1)
			return -1;
	return 0;
}

int
ev_evidence_order(json_t *entries)
{
	size_t n = json_array_size(entries), i, j;

	/* insertion sort: stable, and a candidate has a handful of entries */
	for (i = 1; i < n; i++) {
		json_t *e = json_array_get(entries, i);
		int k = ev_evidence_lane_order(json_string_value(json_object_get(e, "lane")));

		for (j = i; j > 0 && ev_evidence_lane_order(json_string_value(json_object_get(
		    json_array_get(entries, j - 1), "lane"))) > k; j--)
			;
		if (j == i)
			continue;
		json_incref(e);
		if (json_array_remove(entries, i) == -1 || json_array_insert_new(entries, j, e) == -1)
			return -1;
	}
	return 0;
}
