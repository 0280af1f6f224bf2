/* Tests of lib/base/worker.c: jobs run on the worker's own thread, one at a
 * time, their writes seen once waited for, whether the worker was polling
 * or asleep when a job came. */
#include <criterion/criterion.h>
#include <pthread.h>
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

		ev_worker_run(w, add_up, &j);
		ev_worker_wait(w);
		cr_assert_eq(j.sum, (long long)j.n * (j.n - 1) / 2, "job %d", k);
		cr_assert(!pthread_equal(j.ran_on, pthread_self()));
	}
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
