/* child.c: a helper program behind two pipes, with deadlines.  See child.h. */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINE	(16u << 20)

struct ev_child {
	char *cmd;
	const char *what;
	pid_t pid;
	int to, from;		/* its stdin (non-blocking) and stdout */
	struct ev_buf in;	/* bytes read from it */
	size_t used;		/* of which the line returned last */
	int eof;
};

double
ev_child_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
}

static int
fail(const char *why, struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "%s", why);
}

struct ev_child *
ev_child_start(const char *cmd, const char *what, struct ev_err *err)
{
	struct ev_child *c = calloc(1, sizeof *c);
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };

	if (c == NULL || (c->cmd = strdup(cmd)) == NULL) {
		free(c);
		ev_err_nomem(err);
		return NULL;
	}
	c->what = what;
	c->to = c->from = -1;
	if (pipe(in) == -1 || pipe(out) == -1)
		goto fail;
	fflush(NULL);
	if ((c->pid = fork()) == -1)
		goto fail;
	if (c->pid == 0) {
		setpgid(0, 0);	/* its own group, so that a kill reaches what it runs */
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(c->pid, c->pid);
	close(in[0]);
	close(out[1]);
	signal(SIGPIPE, SIG_IGN);	/* a child that quits is an error, not a kill */
	c->to = in[1];
	c->from = out[0];
	fcntl(c->to, F_SETFL, fcntl(c->to, F_GETFL) | O_NONBLOCK);
	fcntl(c->to, F_SETFD, FD_CLOEXEC);
	fcntl(c->from, F_SETFD, FD_CLOEXEC);
	return c;
fail:
	ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot start %s '%s': %s", what, cmd,
	    strerror(errno));
	if (in[0] != -1) {
		close(in[0]);
		close(in[1]);
	}
	if (out[0] != -1) {
		close(out[0]);
		close(out[1]);
	}
	free(c->cmd);
	free(c);
	return NULL;
}

/* Milliseconds left before the deadline for poll(): -1 without one. */
static int
left_ms(double deadline)
{
	double left;

	if (deadline <= 0)
		return -1;
	left = deadline - ev_child_now_ms();
	return left <= 0 ? 0 : left > 1e9 ? 1000000000 : (int)left + 1;
}

/* Wait until one of p[0..n) is ready.  Returns 0, or -1 with *err set (the
 * deadline passed, or poll() failed). */
static int
await(struct pollfd *p, nfds_t n, double deadline, struct ev_err *err)
{
	int r;

	while ((r = poll(p, n, left_ms(deadline))) == -1 && errno == EINTR)
		;
	if (r == -1)
		return fail(strerror(errno), err);
	return r == 0 ? fail(EV_CHILD_LATE, err) : 0;
}

/* Read what the child has written (one read).  Returns 0, or -1. */
static int
take_input(struct ev_child *c, struct ev_err *err)
{
	ssize_t n;

	if (c->in.len - c->used > MAX_LINE)
		return fail("a line over 16 MiB", err);
	if (ev_buf_reserve(&c->in, 65536) == -1)
		return ev_err_nomem(err);
	n = read(c->from, c->in.p + c->in.len, 65536);
	if (n == -1 && errno != EINTR && errno != EAGAIN)
		return fail(strerror(errno), err);
	if (n == 0)
		c->eof = 1;
	if (n > 0)
		c->in.len += (size_t)n;
	return 0;
}

int
ev_child_send(struct ev_child *c, const char *s, size_t len, double deadline,
    struct ev_err *err)
{
	while (len > 0) {
		struct pollfd p[2] = { { c->to, POLLOUT, 0 }, { c->from, POLLIN, 0 } };
		ssize_t w;

		if (await(p, c->eof ? 1 : 2, deadline, err) == -1)
			return -1;
		if (!c->eof && (p[1].revents & (POLLIN | POLLHUP)) && take_input(c, err) == -1)
			return -1;
		if (p[0].revents & (POLLERR | POLLHUP))
			return fail(EV_CHILD_QUIT, err);
		if (!(p[0].revents & POLLOUT))
			continue;
		w = write(c->to, s, len);
		if (w == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w == -1)
			return fail(errno == EPIPE ? EV_CHILD_QUIT : strerror(errno), err);
		s += w;
		len -= (size_t)w;
	}
	return 0;
}

int
ev_child_line(struct ev_child *c, const char **line, size_t *len, double deadline,
    struct ev_err *err)
{
	char *nl;

	/* drop the line returned last time */
	if (c->used > 0) {
		memmove(c->in.p, c->in.p + c->used, c->in.len - c->used);
		c->in.len -= c->used;
		c->used = 0;
	}
	for (;;) {
		struct pollfd p = { c->from, POLLIN, 0 };

		if (c->in.len > 0 && (nl = memchr(c->in.p, '\n', c->in.len)) != NULL) {
			*line = c->in.p;
			*len = (size_t)(nl - c->in.p);
			c->used = *len + 1;
			return 1;
		}
		if (c->eof)
			return 0;
		if (await(&p, 1, deadline, err) == -1 || take_input(c, err) == -1)
			return -1;
	}
}

int
ev_child_unasked(struct ev_child *c, struct ev_err *err)
{
	struct pollfd p = { c->from, POLLIN, 0 };
	int r;

	if (c->in.len == c->used && !c->eof) {
		while ((r = poll(&p, 1, 0)) == -1 && errno == EINTR)
			;
		if (r == -1)
			return fail(strerror(errno), err);
		if (r == 1 && (p.revents & (POLLIN | POLLHUP)) && take_input(c, err) == -1)
			return -1;
	}
	return c->in.len > c->used;
}

int
ev_child_stop(struct ev_child *c, double deadline, struct ev_err *err)
{
	int status = 0, r = 0, killed = 0;
	pid_t w;

	if (c == NULL)
		return 0;
	if (c->to != -1)
		close(c->to);
	if (c->from != -1)
		close(c->from);
	while (c->pid > 0) {
		w = waitpid(c->pid, &status, deadline > 0 && !killed ? WNOHANG : 0);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == 0) {
			if (ev_child_now_ms() < deadline) {
				struct timespec ts = { 0, 10 * 1000 * 1000 };

				nanosleep(&ts, NULL);
			} else {
				kill(-c->pid, SIGKILL);
				killed = 1;
			}
			continue;
		}
		if (w == c->pid && (WIFEXITED(status) ? WEXITSTATUS(status) != 0 : !killed))
			r = ev_err_set(err, EV_EXIT_RUNTIME, NULL, "%s '%s' failed (%s %d)", c->what,
			    c->cmd, WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		break;
	}
	ev_buf_release(&c->in);
	free(c->cmd);
	free(c);
	return r;
}
