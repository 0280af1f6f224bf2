/* fuzz_config.c: libFuzzer target for the configuration reader (lib/base/config.h).
 *
 * The input is YAML text.  It must either give a mapping (an object) or fail
 * with exit code 2 and a message naming "fuzz.yaml:LINE"; the typed look-ups
 * and the unknown-key walk must then work on whatever tree came out. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

static const char *const known[] = { "k", "text.weights.*", "fusion.method", NULL };

static void
count_unknown(const char *path, void *ctx)
{
	(void)path;
	(*(int *)ctx)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_err err = { 0 };
	json_t *cfg;
	long long ll;
	double d;
	const char *s;
	int b, n = 0;

	cfg = ev_config_parse((const char *)data, size, "fuzz.yaml", &err);
	if (cfg == NULL) {
		if (err.code != EV_EXIT_USAGE && err.code != EV_EXIT_RUNTIME)
			abort();
		if (err.code == EV_EXIT_USAGE && strncmp(err.where, "fuzz.yaml", 9) != 0)
			abort();
		return 0;
	}
	if (!json_is_object(cfg))
		abort();	/* the top level of a config is always a mapping */
	ev_config_get(cfg, "text.weights.title");
	ev_config_get(cfg, "a..b");
	ev_config_get(cfg, "");
	ev_config_int(cfg, "k", 1, 100000, &ll, "fuzz.yaml", &err);
	ev_config_num(cfg, "text.weights.title", 0, 100, &d, "fuzz.yaml", &err);
	ev_config_str(cfg, "fusion.method", &s, "fuzz.yaml", &err);
	ev_config_bool(cfg, "all", &b, "fuzz.yaml", &err);
	ev_config_unknown(cfg, known, count_unknown, &n);
	json_decref(cfg);
	return 0;
}
