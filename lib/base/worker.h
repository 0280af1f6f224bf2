/* worker.h: a second thread that runs its owner's jobs one at a time, kept
 * from one job to the next.
 *
 * Low layer: includes nothing of evkit's.
 *
 * A job of a few milliseconds on a thread made for it waits for the thread
 * to be scheduled, and on a virtual machine whose other processor sleeps
 * between jobs that took up to 3 ms (the text lane's second pass, split in
 * two halves).  A worker is made once; after a job, and while it waits for
 * its first, it polls for the next one for EV_WORKER_SPIN_NS before it
 * sleeps, and its owner polls as long for a job to end: the processor stays
 * awake through the short gaps of a query, and sleeps after it.
 *
 * The worker runs on the processors the process may use but the one its
 * owner ran on when it was made: both on one, each job would wait for the
 * other's turn (ev_worker_new()). */
#ifndef EV_WORKER_H
#define EV_WORKER_H

#define EV_WORKER_SPIN_NS 3000000L	/* 3 ms */

struct ev_worker;

/* A new worker, polling for its first job, kept off the caller's
 * processor when the process may run on another; NULL when no thread can
 * be had (out of memory, or too many threads). */
struct ev_worker *ev_worker_new(void);

/* The processors this process may run on (its affinity, which taskset(1)
 * and cgroups' cpusets narrow): a worker pays only with two or more. */
int ev_worker_processors(void);

/* Run fn(arg) on the worker.  The previous job must have ended
 * (ev_worker_wait()). */
void ev_worker_run(struct ev_worker *w, void (*fn)(void *), void *arg);

/* Wait until the job given to ev_worker_run() has ended; its writes are
 * then seen by the caller. */
void ev_worker_wait(struct ev_worker *w);

/* End the worker's thread, once its job (if any) has ended, and free it
 * (NULL-safe). */
void ev_worker_free(struct ev_worker *w);

#endif
