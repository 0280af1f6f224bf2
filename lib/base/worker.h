/* worker.h: a second thread that runs its owner's jobs one at a time, kept
 * from one job to the next.
 *
 * Low layer: includes nothing of evkit's.
 *
 * A job of a few milliseconds on a thread made for it waits for the thread
 * to be scheduled, so a worker is made once and kept.  Between jobs it
 * sleeps: it polls for its next job only EV_WORKER_IDLE_SPIN_NS after one
 * ends (a job posted at once, as the first after it is made, starts
 * without a wake-up), since a worker polling through the gaps of a query
 * (the rows read, the snippets written) takes a processor's time that a
 * user pays for and that the machine's other work could have had: polling
 * 3 ms after each job took a quarter of the CPU time of a one-word query.
 * Its owner, waiting for a job, runs it itself if the worker has not
 * begun it, else (nothing else to do: the other half of a sweep it split
 * ends about when its own does) polls for up to EV_WORKER_SPIN_NS before
 * it sleeps.
 *
 * The worker runs on the processors the process may use but the one its
 * owner ran on when it was made: both on one, each job would wait for the
 * other's turn (ev_worker_new()). */
#ifndef EV_WORKER_H
#define EV_WORKER_H

#define EV_WORKER_SPIN_NS 3000000L	/* 3 ms: the owner, for a job to end */
#define EV_WORKER_IDLE_SPIN_NS 50000L	/* 50 us: the worker, for its next job */

struct ev_worker;

/* A new worker, polling for its first job, kept off the caller's
 * processor when the process may run on another; NULL when no thread can
 * be had (out of memory, or too many threads). */
struct ev_worker *ev_worker_new(void);

/* The processors this process may run on (its affinity, which taskset(1)
 * and cgroups' cpusets narrow): a worker pays only with two or more. */
int ev_worker_processors(void);

/* Run fn(arg) on the worker (or on the caller, if it waits for the job
 * before the worker begins it: ev_worker_wait()).  The previous job must
 * have ended (ev_worker_wait()). */
void ev_worker_run(struct ev_worker *w, void (*fn)(void *), void *arg);

/* Wait until the job given to ev_worker_run() has ended; its writes are
 * then seen by the caller.  A job the worker has not begun is taken back
 * and run here, now: the caller never waits for a sleeping worker to be
 * woken and scheduled (on a busy machine, milliseconds) for work it can
 * do itself.  A job must therefore not care which thread runs it. */
void ev_worker_wait(struct ev_worker *w);

/* End the worker's thread, once its job (if any) has ended, and free it
 * (NULL-safe). */
void ev_worker_free(struct ev_worker *w);

#endif
