/* walcopy.c: a store's write-ahead log copied on a thread of its own.  See
 * walcopy.h. */
#include "walcopy.h"

#include <pthread.h>
#include <stdlib.h>

struct ev_walcopy {
	sqlite3 *writer;	/* the connection whose commits ask for copies */
	sqlite3 *db;		/* the thread's own connection */
	int pages;		/* a commit leaving the log this long asks for a copy */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int wanted;		/* a copy asked for since the last began */
	int quit;
	long long copies;
};

/* The writer's WAL hook: after each commit, the log's length in frames. */
static int
on_commit(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct ev_walcopy *wc = arg;

	(void)db;
	(void)name;
	if (frames < wc->pages)
		return SQLITE_OK;
	pthread_mutex_lock(&wc->mu);
	wc->wanted = 1;
	pthread_cond_signal(&wc->cv);
	pthread_mutex_unlock(&wc->mu);
	return SQLITE_OK;
}

/* The thread: a passive checkpoint each time one is asked for.  One that
 * fails (another checkpoint under way, memory short) leaves the log to the
 * next, or to the writer's own when it closes the store. */
static void *
run(void *arg)
{
	struct ev_walcopy *wc = arg;

	pthread_mutex_lock(&wc->mu);
	for (;;) {
		while (!wc->wanted && !wc->quit)
			pthread_cond_wait(&wc->cv, &wc->mu);
		if (wc->quit)
			break;
		wc->wanted = 0;
		pthread_mutex_unlock(&wc->mu);
		(void)sqlite3_wal_checkpoint_v2(wc->db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&wc->mu);
		wc->copies++;
	}
	pthread_mutex_unlock(&wc->mu);
	return NULL;
}

struct ev_walcopy *
ev_walcopy_start(sqlite3 *db, const char *path, int pages, struct ev_err *err)
{
	struct ev_walcopy *wc = calloc(1, sizeof *wc);

	if (wc == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	wc->writer = db;
	wc->pages = pages > 0 ? pages : 1;
	/* (a connection knows the log once it has read the database: until
	 * then, a checkpoint does nothing) */
	if (sqlite3_open_v2(path, &wc->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK || sqlite3_exec(wc->db, "PRAGMA schema_version", NULL, NULL, NULL) != SQLITE_OK) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot open a second connection: %s",
		    wc->db != NULL ? sqlite3_errmsg(wc->db) : "out of memory");
		sqlite3_close(wc->db);
		free(wc);
		return NULL;
	}
	pthread_mutex_init(&wc->mu, NULL);
	pthread_cond_init(&wc->cv, NULL);
	if (pthread_create(&wc->thread, NULL, run, wc) != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot start a thread to copy the log");
		pthread_cond_destroy(&wc->cv);
		pthread_mutex_destroy(&wc->mu);
		sqlite3_close(wc->db);
		free(wc);
		return NULL;
	}
	(void)sqlite3_wal_hook(db, on_commit, wc);	/* (in place of the automatic checkpoint) */
	return wc;
}

void
ev_walcopy_stop(struct ev_walcopy *wc)
{
	if (wc == NULL)
		return;
	(void)sqlite3_wal_autocheckpoint(wc->writer, wc->pages);	/* (removes the hook) */
	pthread_mutex_lock(&wc->mu);
	wc->quit = 1;
	pthread_cond_signal(&wc->cv);
	pthread_mutex_unlock(&wc->mu);
	pthread_join(wc->thread, NULL);
	pthread_cond_destroy(&wc->cv);
	pthread_mutex_destroy(&wc->mu);
	sqlite3_close(wc->db);
	free(wc);
}

long long
ev_walcopy_copies(struct ev_walcopy *wc)
{
	long long n;

	if (wc == NULL)
		return 0;
	pthread_mutex_lock(&wc->mu);
	n = wc->copies;
	pthread_mutex_unlock(&wc->mu);
	return n;
}
