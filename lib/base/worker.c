/* worker.c: a second thread kept for its owner's jobs.  See worker.h. */
#include "worker.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* The job's state: the owner sets POSTED (or QUIT), the worker sets
 * RUNNING and then DONE; each is polled for, then waited for under mu.  A
 * POSTED job is claimed by compare-and-swap, by the worker (to RUNNING) or
 * by its owner waiting for it (back to IDLE: it runs it itself). */
enum { IDLE, POSTED, RUNNING, DONE, QUIT };

struct ev_worker {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;		/* signalled at every change of state */
	int state;			/* read and written atomically */
	void (*fn)(void *);
	void *arg;
};

static long long
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int
get_state(struct ev_worker *w)
{
	return __atomic_load_n(&w->state, __ATOMIC_ACQUIRE);
}

static void
set_state(struct ev_worker *w, int state)
{
	pthread_mutex_lock(&w->mu);
	__atomic_store_n(&w->state, state, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* Wait, polling for spin_ns and then asleep, until w's state is one of a
 * and b; returns it. */
static int
await_state(struct ev_worker *w, int a, int b, long long spin_ns)
{
	long long until = now_ns() + spin_ns;
	int s;

	for (unsigned i = 1;; i++) {
		if ((s = get_state(w)) == a || s == b)
			return s;
		if (i % 64 == 0 && now_ns() > until)
			break;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	pthread_mutex_lock(&w->mu);
	while ((s = get_state(w)) != a && s != b)
		pthread_cond_wait(&w->cv, &w->mu);
	pthread_mutex_unlock(&w->mu);
	return s;
}

/* Move w's state from POSTED to `to`; returns 1, or 0 when the job was
 * not POSTED (the other thread claimed it first). */
static int
claim(struct ev_worker *w, int to)
{
	int posted = POSTED;

	return __atomic_compare_exchange_n(&w->state, &posted, to, 0, __ATOMIC_ACQ_REL,
	    __ATOMIC_ACQUIRE);
}

static void *
work(void *arg)
{
	struct ev_worker *w = arg;

	while (await_state(w, POSTED, QUIT, EV_WORKER_IDLE_SPIN_NS) == POSTED) {
		if (!claim(w, RUNNING))
			continue;	/* its owner took it back */
		w->fn(w->arg);
		set_state(w, DONE);
	}
	return NULL;
}

/* Keep attr's thread off the processor the caller runs on, when the
 * process may run on others (sched_getaffinity()): made on the caller's
 * (the kernel counts a processor busy by its recent past, and an idle one
 * of a virtual machine may not look for work for milliseconds), the two
 * threads would share it, each job waiting for a turn and the owner's
 * polling taking the worker's time.  Returns 1 when it is kept off, else
 * 0 (attr unchanged). */
static int
off_my_processor(pthread_attr_t *attr)
{
	cpu_set_t set;
	int me = sched_getcpu();

	if (me < 0 || sched_getaffinity(0, sizeof set, &set) != 0 || !CPU_ISSET(me, &set) ||
	    CPU_COUNT(&set) < 2)
		return 0;
	CPU_CLR(me, &set);
	return pthread_attr_setaffinity_np(attr, sizeof set, &set) == 0;
}

int
ev_worker_processors(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

struct ev_worker *
ev_worker_new(void)
{
	struct ev_worker *w = calloc(1, sizeof *w);
	pthread_attr_t attr;
	int made;

	if (w == NULL)
		return NULL;
	w->state = IDLE;
	if (pthread_mutex_init(&w->mu, NULL) != 0) {
		free(w);
		return NULL;
	}
	if (pthread_cond_init(&w->cv, NULL) != 0) {
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	if (pthread_attr_init(&attr) != 0) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	made = pthread_create(&w->thread, off_my_processor(&attr) ? &attr : NULL, work, w) == 0;
	pthread_attr_destroy(&attr);
	if (!made) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	return w;
}

void
ev_worker_run(struct ev_worker *w, void (*fn)(void *), void *arg)
{
	w->fn = fn;
	w->arg = arg;
	set_state(w, POSTED);
}

void
ev_worker_wait(struct ev_worker *w)
{
	if (claim(w, IDLE)) {
		w->fn(w->arg);
		return;
	}
	await_state(w, DONE, DONE, EV_WORKER_SPIN_NS);
	__atomic_store_n(&w->state, IDLE, __ATOMIC_RELAXED);	/* (only the owner moves it on) */
}

void
ev_worker_free(struct ev_worker *w)
{
	int s;

	if (w == NULL)
		return;
	if ((s = get_state(w)) == POSTED || s == RUNNING)
		ev_worker_wait(w);
	set_state(w, QUIT);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
