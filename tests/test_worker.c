/* Tests of lib/base/worker.c: jobs run on the worker's own thread, one at a
 * time, their writes seen once waited for, whether the worker was polling
 * or asleep when a job came; a job not yet begun when waited for run by the
 * waiter; the worker idle between jobs; the worker kept off its owner's
 * processor. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "worker.h"

struct job {
	pthread_t ran_on;	/* the thread the job ran on */
	long long sum;		/* of 0 .. n - 1 */
	int n;
};

static void
add_up(void *arg)
{
	struct job *j = arg;

	j->ran_on = pthread_self();
	j->sum = 0;
	for (int i = 0; i < j->n; i++)
		j->sum += i;
}

/* A job and whether it has begun, for on_worker(). */
struct begun {
	void (*fn)(void *);
	void *arg;
	int begun;	/* read and written atomically */
};

static void
begin(void *arg)
{
	struct begun *b = arg;

	__atomic_store_n(&b->begun, 1, __ATOMIC_RELEASE);
	b->fn(b->arg);
}

/* Run fn(arg) on w's thread: waited for only once it has begun there
 * (a job waited for before may be taken back by the waiter). */
static void
on_worker(struct ev_worker *w, void (*fn)(void *), void *arg)
{
	struct begun b = { fn, arg, 0 };

	ev_worker_run(w, begin, &b);
	while (!__atomic_load_n(&b.begun, __ATOMIC_ACQUIRE))
		sched_yield();
	ev_worker_wait(w);
}

static void
sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

Test(worker, jobs_run_on_another_thread_and_their_writes_are_seen)
{
	struct ev_worker *w = ev_worker_new();

	cr_assert_not_null(w);
	for (int k = 1; k <= 200; k++) {
		struct job j = { 0, -1, k * 100 };

		on_worker(w, add_up, &j);
		cr_assert_eq(j.sum, (long long)j.n * (j.n - 1) / 2, "job %d", k);
		cr_assert(!pthread_equal(j.ran_on, pthread_self()));
	}
	ev_worker_free(w);
}

Test(worker, a_job_not_begun_when_waited_for_runs_on_the_waiter)
{
	struct ev_worker *w = ev_worker_new();
	int mine = 0;

	cr_assert_not_null(w);
	/* waited for at once, a job to a sleeping worker is nearly always
	 * taken back before the worker is woken; either way it is done once */
	for (int k = 1; k <= 100; k++) {
		struct job j = { 0, -1, k * 10 };

		sleep_ms(1);	/* the worker falls asleep */
		ev_worker_run(w, add_up, &j);
		ev_worker_wait(w);
		cr_assert_eq(j.sum, (long long)j.n * (j.n - 1) / 2, "job %d", k);
		mine += pthread_equal(j.ran_on, pthread_self()) != 0;
	}
	cr_assert_gt(mine, 0, "no job of 100 was run by its waiter");
	ev_worker_free(w);
}

Test(worker, a_job_after_the_worker_fell_asleep_runs_too)
{
	struct ev_worker *w = ev_worker_new();
	struct job j = { 0, -1, 1000 };

	cr_assert_not_null(w);
	/* past the polling, before the first job and between two */
	sleep_ms(EV_WORKER_SPIN_NS / 1000000 * 3);
	ev_worker_run(w, add_up, &j);
	ev_worker_wait(w);
	cr_assert_eq(j.sum, 499500);
	j.n = 2000;
	sleep_ms(EV_WORKER_SPIN_NS / 1000000 * 3);
	ev_worker_run(w, add_up, &j);
	ev_worker_wait(w);
	cr_assert_eq(j.sum, 1999000);
	ev_worker_free(w);
}

/* The CPU time of the whole process, in ms. */
static double
process_cpu_ms(void)
{
	struct timespec t;

	cr_assert_eq(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t), 0);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

Test(worker, between_jobs_it_sleeps_rather_than_polls)
{
	struct ev_worker *w = ev_worker_new();
	struct job j = { 0, -1, 1000 };
	double idle = 0, before;

	cr_assert_not_null(w);
	for (int k = 0; k < 5; k++) {
		ev_worker_run(w, add_up, &j);
		ev_worker_wait(w);
		/* the owner asleep: what the process spends is the worker's
		 * (a worker polling 3 ms after each job spent 3 ms in most
		 * gaps, less only when it was not scheduled) */
		before = process_cpu_ms();
		sleep_ms(20);
		idle += process_cpu_ms() - before;
	}
	/* a poller spends about 15 ms here; a sleeper its wake-ups, under
	 * ASan and a busy machine up to about 2 ms */
	cr_assert_lt(idle, 5.0, "%.3f ms of CPU in 5 gaps of 20 ms", idle);
	ev_worker_free(w);
}

Test(worker, freed_with_no_job_or_with_one_not_waited_for)
{
	struct job j = { 0, -1, 100000 };
	struct ev_worker *w = ev_worker_new();

	cr_assert_not_null(w);
	ev_worker_free(w);
	cr_assert_not_null(w = ev_worker_new());
	ev_worker_run(w, add_up, &j);
	ev_worker_free(w);	/* waits for the job to end */
	cr_assert_eq(j.sum, 4999950000LL);
	ev_worker_free(NULL);
}

/* The processors the worker may run on, read on the worker. */
static void
own_affinity(void *arg)
{
	cpu_set_t *set = arg;

	CPU_ZERO(set);
	cr_assert_eq(pthread_getaffinity_np(pthread_self(), sizeof *set, set), 0);
}

Test(worker, runs_on_every_processor_of_the_process_but_its_owners)
{
	cpu_set_t mine, its, both;
	struct ev_worker *w;

	cr_assert_eq(sched_getaffinity(0, sizeof mine, &mine), 0);
	cr_assert_eq(ev_worker_processors(), CPU_COUNT(&mine));
	if (CPU_COUNT(&mine) < 2)
		cr_skip_test("this process may run on one processor only: nothing to keep off");
	cr_assert_not_null(w = ev_worker_new());
	on_worker(w, own_affinity, &its);
	ev_worker_free(w);
	/* one processor fewer, every other one of the process's */
	CPU_AND(&both, &mine, &its);
	cr_assert_eq(CPU_COUNT(&its), CPU_COUNT(&mine) - 1);
	cr_assert(CPU_EQUAL(&both, &its));
}

Test(worker, on_one_processor_it_shares_it)
{
	cpu_set_t one, its;
	struct job j = { 0, -1, 1000 };
	struct ev_worker *w;
	int cpu = sched_getcpu();

	cr_assert_geq(cpu, 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);	/* as taskset(1) would */
	cr_assert_eq(ev_worker_processors(), 1);
	cr_assert_not_null(w = ev_worker_new());
	on_worker(w, own_affinity, &its);
	cr_assert(CPU_EQUAL(&its, &one));
	ev_worker_run(w, add_up, &j);
	ev_worker_wait(w);
	cr_assert_eq(j.sum, 499500);
	ev_worker_free(w);
}
