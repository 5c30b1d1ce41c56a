/* The progress engine: polls transports, retries sends that found no room, pushes pipelined data;
 * and the waiting policy: spin, then yield, then sleep on the doorbell. */
#ifndef SKIFF_PROGRESS_H
#define SKIFF_PROGRESS_H

#include "core/request.h"

/* One pass; returns how many events it handled. */
int skiff_progress(void);

/* Set by a layer above while it has work the progress engine must advance (nonblocking
 * collectives); an explicit hook keeps the core from depending on the layers that use it. */
extern int (*skiff_progress_hook)(void);
/* Set by the one-sided engine (rma/win.c) while any window exists: targets apply arrived operations. */
extern int (*skiff_rma_progress_hook)(void);

struct skiff_waiter {
    unsigned polls;
    double start;     /* when the wait began (0 until it first yields) */
    int reported;
    /* What the caller waits for, when it is not a message arriving (a shared-memory barrier):
     * checked again after the doorbell is armed, so a wake-up cannot slip past. */
    int (*ready)(void *arg);
    void *arg;
    /* MPI_THREAD_MULTIPLE: this wait rang the dozers once (core/progress.c, hand_over). */
    int rang;
};

#define SKIFF_WAITER_INIT {0, 0.0, 0, NULL, NULL, 0}

/* One step of a blocking wait: progress, and if nothing happened, back off a little more. */
void skiff_wait_step(struct skiff_waiter *w);

/* MPI_THREAD_MULTIPLE: a thread found the lock taken; if its holder sleeps on the doorbell, wake it
 * (core/mt.c's slow path calls this; safe without the lock). */
void skiff_progress_wake_holder(void);

/* Blocks until r completes. */
void skiff_wait_req(struct skiff_request *r);

#endif
