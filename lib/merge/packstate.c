/* packstate.c: the lanes a hit names, and the candidates' text.  See
 * packstate.h. */
#include "packstate.h"

#include <stdio.h>
#include <string.h>

#include "jsonl.h"

/* The lanes evkit knows by name, and their bits ("fused" has none: its
 * lanes are found in its explanation; "vector_feedback", the vector lane
 * folded with the text lane's best chunks, is a vector lane); any other lane
 * is LANE_OTHER. */
static const char *const lane_names[] = { "vector", "text", "region", "timeline", "structured",
	"neighbour", "link", "fused", "vector_feedback", "visual" };
static const unsigned lane_bits[] = { LANE_VECTOR, LANE_TEXT, LANE_REGION, LANE_TIMELINE,
	LANE_STRUCTURED, LANE_NEIGHBOUR, LANE_LINK, 0, LANE_VECTOR, LANE_VISUAL };

unsigned
ev_pack_lane_bit(const char *lane)
{
	size_t i;

	if (lane == NULL)
		return 0;
	for (i = 0; i < sizeof lane_names / sizeof *lane_names; i++)
		if (strcmp(lane, lane_names[i]) == 0)
			return lane_bits[i];
	return LANE_OTHER;
}

/* The lanes that found a hit: its own lane, or for a fused hit the lanes its
 * explanation says found it, else its evidence's lanes, else its signals';
 * LANE_OTHER when none of these says (a lane evkit does not know). */
unsigned
ev_pack_hit_lanes(json_t *hit)
{
	const char *lane = json_string_value(json_object_get(hit, "lane"));
	json_t *a, *e, *sig;
	unsigned bits = 0;
	size_t i;

	if (lane != NULL && strcmp(lane, "fused") != 0)
		return ev_pack_lane_bit(lane);
	a = json_object_get(json_object_get(hit, "explain"), "lanes");
	json_array_foreach(a, i, e)
		if (json_is_true(json_object_get(e, "found")))
			bits |= ev_pack_lane_bit(json_string_value(json_object_get(e, "lane")));
	if (bits)
		return bits;
	a = json_object_get(hit, "evidence");
	json_array_foreach(a, i, e)
		bits |= ev_pack_lane_bit(json_string_value(json_object_get(e, "lane")));
	if (bits)
		return bits;
	sig = json_object_get(hit, "signals");
	if (json_object_get(sig, "fts_score") != NULL)
		bits |= LANE_TEXT;
	if (json_object_get(sig, "vector_score") != NULL)
		bits |= LANE_VECTOR;
	return bits ? bits : LANE_OTHER;
}

/* The modes, by ev_pack_mode_index(). */
static const char *const mode_names[] = { "exact", "semantic", "relational", "associative",
	"hybrid" };

int
ev_pack_mode_index(unsigned bits)
{
	int exact = (bits & LANE_TEXT) != 0, sem = (bits & (LANE_VECTOR | LANE_REGION |
	    LANE_VISUAL)) != 0;
	int rel = (bits & LANE_STRUCTURED) != 0;
	int assoc = (bits & (LANE_TIMELINE | LANE_NEIGHBOUR | LANE_LINK | LANE_OTHER)) != 0;

	if (exact + sem + rel + assoc > 1)
		return 4;
	return exact ? 0 : rel ? 2 : assoc ? 3 : 1;
}

const char *
ev_pack_mode(unsigned bits)
{
	return mode_names[ev_pack_mode_index(bits)];
}

const char *
ev_pack_mode_name(int index)
{
	return mode_names[index];
}

/* The lanes of bits as text, "vector+text": in the order of the names below. */
void
ev_pack_lanes_text(unsigned bits, char *buf, size_t size)
{
	static const char *const names[] = { "vector", "text", "region", "structured", "link",
		"neighbour", "timeline", "visual", "other" };
	static const unsigned order[] = { LANE_VECTOR, LANE_TEXT, LANE_REGION, LANE_STRUCTURED,
		LANE_LINK, LANE_NEIGHBOUR, LANE_TIMELINE, LANE_VISUAL, LANE_OTHER };
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 9; i++)
		if (bits & order[i])
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s",
			    n ? "+" : "", names[i]);
}

unsigned
ev_pack_raw_lane_bit(const char *raw, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof lane_names / sizeof *lane_names; i++)
		if (ev_jscan_str_eq(raw, n, lane_names[i]))
			return lane_bits[i];
	return LANE_OTHER;
}

/* Parse item it's line (when not parsed yet).  Returns 0 or -1. */
int
ev_pack_materialize(struct ev_pack *p, struct item *it, struct ev_err *err)
{
	if (it->hit != NULL)
		return 0;
	it->hit = ev_json_parse_line(p->raw.p + it->raw, it->rawlen, NULL, err);
	return it->hit ? 0 : -1;
}

const char *
ev_pack_item_text(const struct item *it)
{
	const char *s = json_string_value(json_object_get(it->hit, "text"));

	if (s == NULL)
		s = json_string_value(json_object_get(it->hit, "snippet"));
	return s ? s : "";
}

const char *
ev_pack_ranking_score(const json_t *sig)
{
	static const char *const added[] = { "rerank_score", "mmr_score", "recency_score",
		"tag_score", "topic_score", NULL };
	const char *key;
	const json_t *v;
	size_t n;
	int i;

	json_object_foreach((json_t *)sig, key, v) {
		n = strlen(key);
		if (n <= 6 || strcmp(key + n - 6, "_score") != 0)
			continue;
		for (i = 0; added[i] != NULL && strcmp(key, added[i]) != 0; i++)
			;
		if (added[i] == NULL)
			return key;
	}
	return NULL;
}
