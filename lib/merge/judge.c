/* judge.c: an external judge of claims, kept running.  See judge.h. */
#include "judge.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "jsonl.h"

struct ev_judge {
	const char *cmd;
	pid_t pid;
	FILE *to;
	int from;		/* the judge's stdout, read with a timeout */
	int timeout_ms;		/* per verdict */
	struct ev_buf in;	/* bytes read from the judge */
	size_t used;		/* of which the last line returned */
	long long asked;
	const struct ev_score_item *item;	/* the item being scored */
	json_t *query_id;
	struct ev_buf req;
};

/* Fork and exec the judge with a pipe each way.  Returns 0, or -1 with
 * *err set. */
static int
judge_spawn(struct ev_judge *j, struct ev_err *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };

	if (pipe(in) == -1 || pipe(out) == -1)
		goto fail;
	fflush(NULL);
	if ((j->pid = fork()) == -1)
		goto fail;
	if (j->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execl("/bin/sh", "sh", "-c", j->cmd, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	signal(SIGPIPE, SIG_IGN);	/* a judge that quits is an error, not a kill */
	j->from = out[0];
	if ((j->to = fdopen(in[1], "w")) == NULL) {
		close(in[1]);
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "judge '%s': %s", j->cmd, strerror(errno));
	}
	return 0;
fail:
	ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot start the judge '%s': %s", j->cmd,
	    strerror(errno));
	if (in[0] != -1) {
		close(in[0]);
		close(in[1]);
	}
	if (out[0] != -1) {
		close(out[0]);
		close(out[1]);
	}
	return -1;
}

int
ev_judge_stop(struct ev_judge *j, struct ev_err *err)
{
	int status, r = 0;

	if (j == NULL)
		return 0;
	if (j->to != NULL)
		fclose(j->to);
	if (j->from > 0)
		close(j->from);
	if (j->pid > 0) {
		while (waitpid(j->pid, &status, 0) == -1 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			r = ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the judge '%s' failed (%s %d)",
			    j->cmd, WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	}
	ev_buf_release(&j->in);
	ev_buf_release(&j->req);
	free(j);
	return r;
}

/* Read the judge's next line: it is j->in.p[0 .. n - 1), n returned (the
 * newline counted), 0 at end of file, -1 on a timeout (errno ETIMEDOUT) or
 * an error.  What follows the line stays in j->in for the next call. */
static ssize_t
judge_line(struct ev_judge *j, size_t *used)
{
	struct pollfd pfd = { j->from, POLLIN, 0 };
	char *nl;
	ssize_t n;
	size_t done;

	/* drop the line returned last time */
	if (*used > 0) {
		memmove(j->in.p, j->in.p + *used, j->in.len - *used);
		j->in.len -= *used;
		*used = 0;
	}
	for (;;) {
		if (j->in.len > 0 && (nl = memchr(j->in.p, '\n', j->in.len)) != NULL) {
			done = (size_t)(nl - j->in.p);
			*used = done + 1;
			return (ssize_t)done + 1;
		}
		if (j->in.len > (1u << 20)) {
			errno = EMSGSIZE;
			return -1;
		}
		n = poll(&pfd, 1, j->timeout_ms);
		if (n == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (ev_buf_reserve(&j->in, 4096) == -1)
			return -1;
		n = read(j->from, j->in.p + j->in.len, 4096);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0)
			return 0;
		j->in.len += (size_t)n;
	}
}

int
ev_judge_ask(void *ctx, const char *claim, size_t len, const struct ev_score_cite *best,
    double keyword, double *verdict, struct ev_err *err)
{
	struct ev_judge *j = ctx;
	json_t *req, *cite = json_null(), *v, *f;
	ssize_t n;
	int r;

	if (best != NULL) {
		cite = json_pack("{s:I,s:s%}", "index", (json_int_t)(best - j->item->cites),
		    "text", best->text, best->len);
		if (cite != NULL && best->id != NULL &&
		    json_object_set_new(cite, "id", json_string(best->id)) == -1) {
			json_decref(cite);
			return ev_err_nomem(err);
		}
	}
	req = json_pack("{s:O,s:s%,s:s%,s:o,s:f}", "query_id", j->query_id,
	    "query", j->item->query, j->item->query_len, "claim", claim, len,
	    "citation", cite, "keyword_support", keyword);
	ev_buf_reset(&j->req);
	r = req == NULL || ev_json_dump(&j->req, req) == -1 || ev_buf_addc(&j->req, '\n') == -1;
	json_decref(req);
	if (r)
		return ev_err_nomem(err);
	j->asked++;
	if (fwrite(j->req.p, 1, j->req.len, j->to) != j->req.len || fflush(j->to) == EOF) {
		/* a judge that quit may still have left its verdict in the pipe */
		if (errno != EPIPE)
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			    "cannot write to the judge '%s': %s", j->cmd, strerror(errno));
		clearerr(j->to);
	}
	n = judge_line(j, &j->used);
	if (n == 0)
		goto quit;
	if (n < 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "the judge '%s' gave no verdict for claim %lld: %s", j->cmd, j->asked,
		    errno == ETIMEDOUT ? "no answer in time (see --judge-timeout)" : strerror(errno));
	n--;	/* the newline */
	{
		struct ev_err perr = { 0 };

		/* not json_loadb(): see ev_json_parse_line() on failed allocations */
		v = ev_json_parse_line(j->in.p, (size_t)n, NULL, &perr);
		if (v == NULL && perr.code == EV_EXIT_RUNTIME)
			return ev_err_nomem(err);
	}
	if (json_is_object(v)) {
		f = json_object_get(v, "support");
		if (f == NULL)
			f = json_object_get(v, "supported");
	} else
		f = v;
	r = 0;
	if (json_is_boolean(f))
		*verdict = json_is_true(f) ? 1 : 0;
	else if (json_is_number(f) && json_number_value(f) >= 0 && json_number_value(f) <= 1)
		*verdict = json_number_value(f);
	else
		r = ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "the judge '%s' answered claim %lld with '%.*s', not a verdict (a number from 0 "
		    "to 1, true, false, {\"support\": N} or {\"supported\": B})", j->cmd, j->asked,
		    (int)(n > 60 ? 60 : n), j->in.p);
	json_decref(v);
	return r;
quit:
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
	    "the judge '%s' gave no verdict for claim %lld: it has quit", j->cmd, j->asked);
}

struct ev_judge *
ev_judge_start(const char *cmd, double timeout, struct ev_err *err)
{
	struct ev_judge *j = calloc(1, sizeof *j);

	if (j == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	j->cmd = cmd;
	j->from = -1;
	j->timeout_ms = (int)ceil(timeout * 1000);
	if (judge_spawn(j, err) == -1) {
		free(j);
		return NULL;
	}
	return j;
}

void
ev_judge_item(struct ev_judge *j, const struct ev_score_item *item, json_t *query_id)
{
	j->item = item;
	j->query_id = query_id;
}

long long
ev_judge_asked(const struct ev_judge *j)
{
	return j != NULL ? j->asked : 0;
}
