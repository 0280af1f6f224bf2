/* qidset.c: the query ids of one input.  See qidset.h. */
#include "qidset.h"

#include <stdlib.h>

int
ev_qidset_add(struct ev_qidset *s, const json_t *id, size_t lineno, const char *where,
    struct ev_err *err)
{
	int32_t n;
	int added, r;

	if (id == NULL || json_is_null(id)) {
		ev_buf_reset(&s->text);
		r = ev_buf_printf(&s->text, "%zu", lineno);
	} else {
		r = ev_json_id_buf(id, &s->text);
	}
	if (r == -1 && id != NULL && !json_is_null(id))
		return ev_err_query_id(err, where);
	if (r < 0)
		return ev_err_nomem(err);
	if ((n = ev_strmap_add(&s->ids, s->text.p, s->text.len, &added)) < 0)
		return ev_err_nomem(err);
	if (!added)
		return ev_err_set(err, EV_EXIT_USAGE, where, "query_id '%s' was taken by the query of"
		    " line %zu: each query needs an id of its own (the stages after merge hits by it)",
		    ev_buf_str(&s->text), s->line[n]);
	if (ev_grow(&s->line, &s->capline, (size_t)n, sizeof *s->line, 64) == -1) {
		ev_strmap_drop_last(&s->ids);
		return ev_err_nomem(err);
	}
	s->line[n] = lineno;
	return 0;
}

void
ev_qidset_drop_last(struct ev_qidset *s)
{
	ev_strmap_drop_last(&s->ids);
}

void
ev_qidset_release(struct ev_qidset *s)
{
	if (s == NULL)
		return;
	ev_strmap_release(&s->ids);
	free(s->line);
	s->line = NULL;
	s->capline = 0;
	ev_buf_release(&s->text);
}
