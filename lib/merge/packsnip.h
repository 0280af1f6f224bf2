/* packsnip.h: an evidence's snippet as the plan's output.snippet_policy
 * asks for it (packopts.h's EV_PACK_SNIPPET_*), and what the pack says when
 * it could not give it.
 *
 * Includes buf.h, packopts.h and Jansson; knows nothing of the store (the
 * stored text comes from the caller). */
#ifndef EV_PACKSNIP_H
#define EV_PACKSNIP_H

#include <jansson.h>

#include "buf.h"
#include "packopts.h"

/* The snippet of hit under policy (EV_PACK_SNIPPET_*), into out (reset
 * first), at most max characters (never cut inside a UTF-8 character):
 *   l2    the chunk's whole text: the hit's "text", else stored (the text the
 *         store holds for it, or NULL); with neither, the passage (as l1);
 *   l1    the passage the lanes cut around the query's words: the hit's
 *         "snippet", else its "text", else stored, else "";
 *   l0    of that passage, the one sentence holding the most of the query's
 *         marked words («...»; the first such sentence on a tie, the first
 *         sentence when none is marked);
 *   auto  the passage, as l1.
 * A sentence ends after '.', '!' or '?' followed by a space, after '。',
 * '！' or '？', or at a line break.  Returns the policy word the snippet
 * follows ("l2", "l1", "l0" or "auto"; "l1" where l2 fell back to the
 * passage), or NULL when out of memory. */
const char *ev_pack_snippet(int policy, const json_t *hit, const char *stored, long long max,
	struct ev_buf *out);

/* The word naming policy (EV_PACK_SNIPPET_*): "l2", "l1", "l0", "auto". */
const char *ev_pack_snippet_policy_name(int policy);

/* Append to ignored (an array of strings) why evidences of evs (a pack's)
 * do not follow the policy asked for: with l2, "output.snippet_policy: N
 * evidence(s) hold the lanes' passage (l1): ..." when some say l1.
 * Returns 0, or -1 when out of memory. */
int ev_pack_snippets_ignored(json_t *ignored, const json_t *evs, int policy);

#endif
