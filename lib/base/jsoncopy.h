/* jsoncopy.h: copies of Jansson values that fail whole when memory runs out.
 *
 * Jansson's json_copy() and json_object_update_missing() (and, in older
 * releases, json_deep_copy()) ignore a failed insertion and leave an object
 * with a key missing; a record built
 * from it would be written with a field silently dropped.  These copies
 * check every step and return NULL instead.
 *
 * Also: a Jansson string of bytes that need not be UTF-8.
 *
 * Layer 2: includes Jansson, buf.h and utf8.h. */
#ifndef EV_JSONCOPY_H
#define EV_JSONCOPY_H

#include <stddef.h>
#include <jansson.h>

/* Set in object o each member of object other (missing_only: only those o
 * lacks), as json_object_update() and json_object_update_missing() do, but
 * checking every insertion (Jansson's update_missing ignores a failed one).
 * Returns 0, or -1 when out of memory or either is not an object (o may then
 * hold some of the members). */
int ev_jsoncopy_update(json_t *o, const json_t *other, int missing_only);

/* A shallow copy of v (an object's or array's members are shared, with one
 * more reference each; scalars are copied; true/false/null are themselves).
 * Returns the new value (the caller owns one reference), or NULL when out of
 * memory or v is NULL. */
json_t *ev_jsoncopy_shallow(const json_t *v);

/* A deep copy of v: nothing is shared.  Nesting deeper than 10000 levels
 * fails as well (the input reader refuses such values long before).
 * Returns the new value, or NULL when out of memory or v is NULL. */
json_t *ev_jsoncopy_deep(const json_t *v);

/* A string of the n bytes at s, each byte that is not part of valid UTF-8
 * (or is NUL) replaced by U+FFFD, as evkit's JSON writer writes such bytes
 * (ev_jscan_put_str()): Jansson's json_stringn() refuses them, and a value
 * built from its NULL would be dropped.  Returns the new value, or NULL when
 * out of memory. */
json_t *ev_jsoncopy_text(const char *s, size_t n);

#endif
