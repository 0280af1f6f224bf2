/* packbadge.c: relevance badges.  See packbadge.h. */
#include "packbadge.h"

#include <stdio.h>
#include <string.h>

#include "jsonl.h"
#include "packstate.h"

/* A badge of kind `badge` (and lane, or NULL) with a label, appended to a
 * unless a has one of that kind (and lane) already; the object is returned
 * for more fields (NULL when none was added). */
static json_t *
badge_add(int *bad, json_t *a, const char *badge, const char *lane, const char *label)
{
	json_t *b;
	const char *l;
	size_t i;

	json_array_foreach(a, i, b) {
		l = json_string_value(json_object_get(b, "lane"));
		if (strcmp(json_string_value(json_object_get(b, "badge")), badge) == 0 &&
		    (lane == NULL || l == NULL || strcmp(l, lane) == 0))
			return NULL;
	}
	if ((b = json_pack("{s:s,s:s}", "badge", badge, "label", label)) == NULL ||
	    json_array_append_new(a, b) == -1) {
		*bad = 1;
		return NULL;
	}
	if (lane != NULL)
		set_new(bad, b, "lane", json_string(lane));
	return b;
}

/* The count v of an evidence entry (its hops, or its distance in chunks or
 * days) as a label says it, into buf: " (N UNITs APART)" with a whole
 * number as an integer (2.0 is 2) and another as %g, after unit, the plural
 * "s" and tail; "" when v is not a number (a string "2" is not a count of
 * 0).  Returns buf. */
static const char *
count_text(const json_t *v, const char *unit, const char *tail, char *buf, size_t size)
{
	long long n;

	buf[0] = '\0';
	if (ev_json_whole_value(v, &n))
		snprintf(buf, size, " (%lld %s%s%s)", n, unit, n == 1 ? "" : "s", tail);
	else if (json_is_number(v))
		snprintf(buf, size, " (%g %ss%s)", json_number_value(v), unit, tail);
	return buf;
}

/* The badge an evidence entry of lane `lane` gives (NULL: none). */
static const char *
lane_badge(const char *lane)
{
	unsigned b = ev_pack_lane_bit(lane);

	if (b & LANE_TEXT)
		return "exact_match";
	/* the feedback lane's vector came from the text lane's hits, not from
	 * the query: its own badge */
	if (strcmp(lane, "vector_feedback") == 0)
		return "feedback_match";
	if (b & (LANE_VECTOR | LANE_REGION | LANE_VISUAL))
		return "semantic_match";
	if (b & LANE_LINK)
		return "cross_reference_chain";
	if (b & (LANE_NEIGHBOUR | LANE_TIMELINE))
		return "neighbour";
	if (b & LANE_STRUCTURED)
		return "structured_constraint";
	return NULL;
}

/* Is word one that typo repair read as another (a "term" of e's fuzzy)? */
static int
repaired(const json_t *e, const char *word)
{
	json_t *f;
	size_t i;

	json_array_foreach(json_object_get(e, "fuzzy"), i, f)
		if (json_is_string(json_object_get(f, "term")) &&
		    strcmp(json_string_value(json_object_get(f, "term")), word) == 0)
			return 1;
	return 0;
}

/* Where a text entry e's words of the query are, for its badge's label,
 * when none is in the chunk's text (so its snippet, cut from the text,
 * shows none): " in its title", " in its section title" or " in its title
 * and section title", from the lane's "matched_fields"; else "". */
static const char *
fields_label(const json_t *e)
{
	static const char *const labels[4] = { "", " in its title", " in its section title",
	    " in its title and section title" };
	json_t *f;
	size_t i;
	unsigned set = 0;

	json_array_foreach(json_object_get(e, "matched_fields"), i, f) {
		const char *name = json_string_value(f);

		if (name == NULL)
			continue;
		if (strcmp(name, "text") == 0)
			return "";
		set |= strcmp(name, "title") == 0 ? 1u : strcmp(name, "section_title") == 0 ? 2u : 0u;
	}
	return labels[set];
}

/* The badges of a text entry e: exact_match with the query's words found as
 * the query wrote them, and typo_repair with each word found only as typo
 * repair read it (the word as typed, the indexed word and stem it was read
 * as, their edit distance). */
static void
text_badges(int *bad, json_t *a, json_t *e)
{
	json_t *terms = json_array(), *fixes = json_array(), *b, *f;
	char label[512];
	size_t i, n;
	long long dist;

	if (terms == NULL || fixes == NULL)
		*bad = 1;
	n = (size_t)snprintf(label, sizeof label, "holds words of the query%s", fields_label(e));
	json_array_foreach(json_object_get(e, "matched_terms"), i, b) {
		if (!json_is_string(b) || repaired(e, json_string_value(b)))
			continue;
		if (n < sizeof label)
			n += (size_t)snprintf(label + n, sizeof label - n, "%s%s",
			    json_array_size(terms) ? ", " : ": ", json_string_value(b));
		set_ref_append(bad, terms, b);
	}
	if (json_array_size(terms) > 0 || json_array_size(json_object_get(e, "fuzzy")) == 0) {
		if ((b = badge_add(bad, a, "exact_match", NULL, label)) != NULL &&
		    json_is_array(json_object_get(e, "matched_terms")))
			set_ref(bad, b, "terms", terms);
		if (b != NULL && json_is_array(json_object_get(e, "matched_fields")))
			set_ref(bad, b, "fields", json_object_get(e, "matched_fields"));
	}
	n = (size_t)snprintf(label, sizeof label, "typo repaired");
	json_array_foreach(json_object_get(e, "fuzzy"), i, f) {
		const char *typed = json_string_value(json_object_get(f, "term"));
		const char *word = json_string_value(json_object_get(f, "word"));
		const char *stem = json_string_value(json_object_get(f, "expansion"));
		if (typed == NULL || (word == NULL && stem == NULL))
			continue;
		if (n < sizeof label)
			n += (size_t)snprintf(label + n, sizeof label - n, "%s'%s' read as '%s'",
			    json_array_size(fixes) ? ", " : ": ", typed, word ? word : stem);
		b = json_pack("{s:s,s:s}", "typed", typed, "read_as", word ? word : stem);
		if (b != NULL && stem != NULL)
			set_new(bad, b, "stem", json_string(stem));
		if (b != NULL && ev_json_whole_value(json_object_get(f, "distance"), &dist))
			set_new(bad, b, "distance", json_integer(dist));	/* 1.0 is 1 */
		append_new(bad, fixes, b);
	}
	if (json_array_size(fixes) > 0 &&
	    (b = badge_add(bad, a, "typo_repair", NULL, label)) != NULL)
		set_ref(bad, b, "repairs", fixes);
	json_decref(terms);
	json_decref(fixes);
}

/* One badge from one evidence entry e of lane `lane`. */
static void
entry_badge(int *bad, json_t *a, const char *lane, json_t *e)
{
	const char *kind = lane_badge(lane), *from = json_string_value(json_object_get(e, "from"));
	json_t *b, *v;
	char label[512], count[64];

	if (kind == NULL)
		return;
	if (strcmp(kind, "exact_match") == 0) {
		text_badges(bad, a, e);
	} else if (strcmp(kind, "semantic_match") == 0 || strcmp(kind, "feedback_match") == 0) {
		const char *to = kind[0] == 's' ? "the query" : "the text lane's first hits";
		v = json_object_get(e, "score");
		if (json_is_number(v))
			snprintf(label, sizeof label, "close in meaning to %s (%s score %.3g)", to,
			    lane, json_number_value(v));
		else
			snprintf(label, sizeof label, "close in meaning to %s", to);
		if ((b = badge_add(bad, a, kind, NULL, label)) != NULL && json_is_number(v))
			set_ref(bad, b, "score", v);
	} else if (strcmp(kind, "cross_reference_chain") == 0) {
		v = json_object_get(e, "hops");
		snprintf(label, sizeof label, "linked from %s%s", from ? from : "a hit",
		    count_text(v, "hop", "", count, sizeof count));
		if ((b = badge_add(bad, a, kind, NULL, label)) != NULL) {
			set_ref(bad, b, "from", json_object_get(e, "from"));
			set_ref(bad, b, "hops", v);
		}
	} else if (strcmp(kind, "neighbour") == 0) {
		v = json_object_get(e, "distance");
		if (strcmp(lane, "timeline") == 0)
			snprintf(label, sizeof label, "published near %s%s", from ? from : "a hit",
			    count_text(v, "day", " apart", count, sizeof count));
		else
			snprintf(label, sizeof label, "next to %s in its document%s",
			    from ? from : "a hit", count_text(v, "chunk", " away", count, sizeof count));
		if ((b = badge_add(bad, a, kind, lane, label)) != NULL) {
			set_ref(bad, b, "from", json_object_get(e, "from"));
			set_ref(bad, b, "distance", v);
		}
	} else {
		const char *t = json_string_value(json_object_get(e, "table"));
		v = json_object_get(e, "row");
		if (t != NULL)
			snprintf(label, sizeof label, "a row of table %s that the query's constraints "
			    "select", t);
		else
			snprintf(label, sizeof label, "a record that the query's constraints select");
		if ((b = badge_add(bad, a, kind, NULL, label)) != NULL) {
			set_ref(bad, b, "table", json_object_get(e, "table"));
			set_ref(bad, b, "row", v);
		}
	}
}

/* The badges of a candidate: one per kind its evidence gives (else its
 * lanes), and countervailing when cv says so. */
json_t *
ev_pack_badges(const json_t *evidence, const struct ev_contra_why *cv, const char *best_id,
    int *bad)
{
	json_t *a = json_array(), *e, *b;
	const char *lane;
	char label[512];
	size_t i;

	if (a == NULL) {
		*bad = 1;
		return NULL;
	}
	json_array_foreach(evidence, i, e)
		if ((lane = json_string_value(json_object_get(e, "lane"))) != NULL)
			entry_badge(bad, a, lane, e);
	if (cv != NULL) {
		snprintf(label, sizeof label, "may contradict the first evidence (%s: %s)", cv->cue,
		    cv->words);
		if ((b = badge_add(bad, a, "countervailing", NULL, label)) != NULL) {
			set_new(bad, b, "against", json_string(best_id));
			set_new(bad, b, "cue", json_string(cv->cue));
			set_new(bad, b, "words", json_string(cv->words));
			set_new(bad, b, "subject", json_string(cv->subject));
		}
	}
	return a;
}
