/* The progress engine: polls transports, retries sends that found no room, pushes pipelined data;
 * and the waiting policy: spin, then yield, then sleep on the doorbell. */
#ifndef SKIFF_PROGRESS_H
#define SKIFF_PROGRESS_H

#include "core/request.h"

/* One pass; returns how many events it handled. */
int skiff_progress(void);

struct skiff_waiter {
    unsigned polls;
    double start;     /* when the wait began (0 until it first yields) */
    int reported;
};

#define SKIFF_WAITER_INIT {0, 0.0, 0}

/* One step of a blocking wait: progress, and if nothing happened, back off a little more. */
void skiff_wait_step(struct skiff_waiter *w);

/* Blocks until r completes. */
void skiff_wait_req(struct skiff_request *r);

#endif
