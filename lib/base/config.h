/* config.h: YAML configuration files (and retrieval plans) as JSON trees.
 *
 * Bottom layer: includes err.h and Jansson; libyaml does the parsing.  A YAML
 * mapping becomes an object, a sequence an array; a plain scalar becomes null,
 * true/false, an integer or a real when it reads as one (YAML 1.2 core schema),
 * else a string; a quoted scalar is always a string.  Anchors and aliases are
 * refused, as are duplicate keys and non-scalar keys. */
#ifndef EV_CONFIG_H
#define EV_CONFIG_H

#include <jansson.h>
#include <stdio.h>

#include "err.h"

/* Whether s is a number as a config file's plain scalar and an option's
 * value write one: plain decimal, an optional sign, then digits with perhaps
 * a '.' (or a '.' and digits), then perhaps an exponent ('e' or 'E', perhaps
 * a sign, digits), and nothing else (no hexadecimal, "inf", "nan" or white
 * space).  Returns 1 for a whole number (a sign and digits alone), 2 for
 * another number, 0 when s is none. */
int ev_config_number_text(const char *s);

/* Load the YAML file at path.  Returns the top-level value (an object; an
 * empty file gives an empty object), or NULL with *err set: "FILE:LINE: what"
 * and code 2 for malformed YAML, a top level that is not a mapping, or a
 * file that cannot be read (naming a missing file is bad usage).  A path of
 * "-" is refused so (code 2): standard input is the records' (the commands
 * read their input there), never a configuration's. */
json_t *ev_config_load(const char *path, struct ev_err *err);

/* Parse YAML text held in memory; name is used in messages. */
json_t *ev_config_parse(const char *text, size_t len, const char *name, struct ev_err *err);

/* Look up a dotted path ("text.weights.title") in cfg.  Returns the value
 * (borrowed) or NULL when any step is absent. */
json_t *ev_config_get(const json_t *cfg, const char *path);

/* The line (from 1) of path's key in the file cfg was parsed
 * from (one of the last 8 parsed, which are held until then), or 0 when
 * unknown (cfg not such a tree, path absent or under a sequence). */
size_t ev_config_line(const json_t *cfg, const char *path);

/* "FILE:LINE" of path in cfg into buf, or file alone when the line is
 * unknown: where a message about a key of a file points.  Returns buf or
 * file. */
const char *ev_config_where(const json_t *cfg, const char *path, const char *file, char *buf,
	size_t size);

/* Typed look-ups of a dotted path.  Each returns 1 and sets *out when the key
 * is present and valid, 0 when absent (*out untouched), -1 with *err set
 * (code 2, naming the config file and the key's line, "FILE:LINE", and the
 * key) when of the wrong type or out of [min, max]. */
int ev_config_int(const json_t *cfg, const char *path, long long min, long long max,
	long long *out, const char *file, struct ev_err *err);
int ev_config_num(const json_t *cfg, const char *path, double min, double max,
	double *out, const char *file, struct ev_err *err);
int ev_config_str(const json_t *cfg, const char *path, const char **out,
	const char *file, struct ev_err *err);
int ev_config_bool(const json_t *cfg, const char *path, int *out,
	const char *file, struct ev_err *err);

/* Call warn(path, ctx) for every key of cfg, at any depth, whose dotted path
 * is not in known[] (a NULL-terminated list).  A known entry "a.b.*" accepts
 * any key below a.b.  A mapping whose path known[] has entries below is
 * walked, even when known[] holds its path too ("a.b" given as a mapping
 * when known[] has "a.b" and "a.b.c": its keys are checked).  Returns the
 * number of unknown keys. */
int ev_config_unknown(const json_t *cfg, const char *const *known,
	void (*warn)(const char *path, void *ctx), void *ctx);

/* Check that every section known[] implies (a path with known keys below it,
 * such as "text" for "text.weights.title") is a mapping when present.
 * Returns 0, or -1 with *err set ("FILE:LINE: 'text' must be a mapping of
 * keys to values", code 2): a section of the wrong shape would otherwise be silently
 * ignored. */
int ev_config_check_shape(const json_t *cfg, const char *const *known, const char *file,
	struct ev_err *err);

/* Check list, the names separated by commas that name (an option such as
 * "--known", or a key) takes: none may be empty (two commas together, one
 * at either end, an empty list), which would be read as no name or as a
 * name "".  Returns 0, or -1 with *err set (code 2, the message beginning
 * with name). */
int ev_config_list_check(const char *list, const char *name, struct ev_err *err);

/* Print cfg's value of each key of the comma-separated list keys (named
 * keys_name in messages, e.g. the option that gave it) to out (named
 * out_name): a string as it is, anything else as compact JSON.  Of one key,
 * nothing when it is absent; of several, exactly one line each (empty when
 * absent, a string holding a line break as JSON), so that a script reads
 * them all from one process.  Returns 0, or -1 with *err set (code 2 for a
 * key over 255 bytes or an empty one, ev_config_list_check(), before
 * anything is printed; 1 for a write error). */
int ev_config_print_keys(const json_t *cfg, const char *keys, const char *keys_name, FILE *out,
	const char *out_name, struct ev_err *err);

#endif
