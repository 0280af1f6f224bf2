/* packsnip.c: an evidence's snippet by the snippet policy.  See packsnip.h. */
#include "packsnip.h"

#include <string.h>

#include "packtext.h"

static const char *const policy_words[] = { "l2", "l1", "l0", "auto" };

/* The passage the lanes cut: the hit's snippet, else its text, else stored. */
static const char *
passage(const json_t *hit, const char *stored)
{
	const char *s = json_string_value(json_object_get(hit, "snippet"));

	if (s == NULL || *s == '\0')
		s = json_string_value(json_object_get(hit, "text"));
	if (s == NULL)
		s = stored;
	return s != NULL ? s : "";
}

/* Whether a sentence ends at s: the bytes to pass over (its punctuation,
 * and the space after it), with *keep those of them that belong to the
 * sentence; 0 when none ends there. */
static size_t
sentence_end(const char *s, size_t *keep)
{
	if ((s[0] == '.' || s[0] == '!' || s[0] == '?') && (s[1] == ' ' || s[1] == '\t'))
		return *keep = 1, 2;
	if (s[0] == '\n')
		return *keep = 0, 1;
	/* 。！？ (U+3002, U+FF01, U+FF1F) */
	if (strncmp(s, "\xE3\x80\x82", 3) == 0 || strncmp(s, "\xEF\xBC\x81", 3) == 0 ||
	    strncmp(s, "\xEF\xBC\x9F", 3) == 0)
		return *keep = 3, 3;
	return 0;
}

/* The sentence of s holding the most marked words («, U+00AB, opens one;
 * the first of them on a tie): its start in *start, its length returned. */
static size_t
best_sentence(const char *s, size_t *start)
{
	size_t i = 0, from = 0, best_len = 0, end = 0, keep = 0;
	int marks = 0, best = -1;

	*start = 0;
	for (;;) {
		if (s[i] != '\0' && (end = sentence_end(s + i, &keep)) == 0) {
			marks += strncmp(s + i, "\xC2\xAB", 2) == 0;
			i++;
			continue;
		}
		if (s[i] == '\0')
			keep = 0;
		if (marks > best && i + keep > from) {
			best = marks;
			*start = from;
			best_len = i + keep - from;
		}
		if (s[i] == '\0')
			return best_len;
		for (i += end; s[i] == ' ' || s[i] == '\t'; i++)
			;
		from = i;
		marks = 0;
	}
}

const char *
ev_pack_snippet(int policy, const json_t *hit, const char *stored, long long max,
    struct ev_buf *out)
{
	const char *s = NULL;
	size_t start = 0, len;

	ev_buf_reset(out);
	if (policy == EV_PACK_SNIPPET_L2) {
		s = json_string_value(json_object_get(hit, "text"));
		if (s == NULL)
			s = stored;
		if (s == NULL)
			policy = EV_PACK_SNIPPET_L1;
	}
	if (s == NULL)
		s = passage(hit, stored);
	len = strlen(s);
	if (policy == EV_PACK_SNIPPET_L0)
		len = best_sentence(s, &start);
	len = ev_utf8_prefix(s + start, len, (size_t)max);
	if (ev_buf_reserve(out, len) == -1 || ev_buf_add(out, s + start, len) == -1)
		return NULL;
	return policy_words[policy];
}

const char *
ev_pack_snippet_policy_name(int policy)
{
	return policy_words[policy];
}

int
ev_pack_snippets_ignored(json_t *ignored, const json_t *evs, int policy)
{
	const json_t *e;
	size_t i, n = 0;
	char msg[400];

	if (policy != EV_PACK_SNIPPET_L2)
		return 0;
	json_array_foreach(evs, i, e)
		if (strcmp(json_string_value(json_object_get(e, "snippet_policy")) ?: "", "l1") == 0)
			n++;
	if (n == 0)
		return 0;
	snprintf(msg, sizeof msg, "output.snippet_policy: %zu evidence%s hold%s the lanes' passage "
	    "(l1): neither the hit%s nor a store (ev-pack --db) gave the chunk's text", n,
	    n == 1 ? "" : "s", n == 1 ? "s" : "", n == 1 ? "" : "s");
	return json_array_append_new(ignored, json_string(msg));
}
