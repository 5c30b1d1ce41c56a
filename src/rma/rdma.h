/* One-sided by the transport's RDMA (docs/design.md, "One-sided"): windows made with their memory
 * (Win_create, Win_allocate across nodes) register it with every transport that offers one-sided
 * capabilities (core/transport.h) and exchange the keys; put and get to a target reached by such a
 * transport then go straight into its memory, one transport operation per contiguous block of the target
 * type, while accumulates and synchronization stay messages the target applies. */
#ifndef SKIFF_RMA_RDMA_H
#define SKIFF_RMA_RDMA_H

#include <stdint.h>

#include "core/transport.h"

struct skiff_win;
struct skiff_rma_op;
struct skiff_request;

struct skiff_rma_rdma {
    void *mem;                          /* this process's registration (NULL: none) */
    const struct skiff_transport *mine; /* ... with this transport */
    void **rkey;                        /* per window rank: its opened key; NULL: that target takes messages */
    uint64_t *raddr;                    /* per window rank: the address of its displacement 0 */
    int *world;                         /* per window rank: its job rank */
    unsigned char *dirty;               /* per window rank: a put (or an Rput, Rget) since its last flush */
    struct skiff_rdma_done gets;        /* plain gets in flight, to any target */
    unsigned char *await;               /* per window rank: a lock asked for and not yet seen granted */
    struct skiff_rma_rreq *reqs;        /* Rput and Rget in flight */
};

/* Collective over the window's processes, after its sizes are known: registers this process's memory
 * and opens the targets' keys where the transports allow (w->rdma stays NULL when none does). Called by
 * every process of the window or by none: the job's transports and the window's flavor decide, the same
 * everywhere. failed: this process's creation already failed; it still joins the exchanges (so that no
 * other process waits for it forever), registers nothing, and every process then fails. */
int skiff_rma_rdma_setup(struct skiff_win *w, int failed);
/* 1 when some transport that reaches a peer of this job offers one-sided capabilities. */
int skiff_rma_rdma_offered(void);
/* A put or get on this path: MPI_SUCCESS with *done 1 when started (its user request completes when
 * its transfers do), *done 0 when it must go as a message (an accumulate, a non-contiguous origin). */
int skiff_rma_rdma_issue(struct skiff_win *w, const struct skiff_rma_op *op, int *done);
/* Waits until every put and get started to target (-1: to every target) is complete there. */
int skiff_rma_rdma_flush(struct skiff_win *w, int target);
/* The same in two halves, so a fence can exchange its counts meanwhile: start (d is the flush's own
 * counter, filled here), then wait (rc: start's answer, returned unless the wait adds an error). */
int skiff_rma_rdma_flush_start(struct skiff_win *w, int target, struct skiff_rdma_done *d);
int skiff_rma_rdma_flush_wait(struct skiff_win *w, int target, struct skiff_rdma_done *d, int rc);
/* Completes the Rput and Rget whose transfers are done; returns how many (the progress hook). */
int skiff_rma_rdma_reap(struct skiff_win *w);
/* Closes the keys and deregisters (Win_free, after every process's last flush; finalize: forgets). */
void skiff_rma_rdma_free(struct skiff_win *w);

#endif
