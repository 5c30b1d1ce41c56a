/* The barrier of MPI_Win_fence on a direct window: a dissemination barrier of flags in the window's own
 * shared segment (docs/design.md, "One-sided", fence). */
#ifndef SKIFF_RMA_SEG_BARRIER_H
#define SKIFF_RMA_SEG_BARRIER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct skiff_seg_barrier {
    _Atomic uint64_t *flags; /* in the segment: rank r's flag of round k on a line of its own */
    int n, me, rounds;
    int round;               /* the round this process waits in (what the waiter's check reads) */
    uint64_t epoch;          /* barriers this process has entered */
    int *wake;               /* per round: the node-local rank of the process this one signals */
};

/* The bytes of segment n processes' flags take (a multiple of 64; 0 for one process). */
size_t skiff_seg_barrier_bytes(int n);

/* Sets b up over area (skiff_seg_barrier_bytes(n) zeroed bytes every process maps) for process me of n,
 * where local[r] is process r's node-local rank. 0, or -1 when out of memory, or when no process of the
 * node can be woken through the node's shared area (the caller then keeps its message barrier). */
int skiff_seg_barrier_init(struct skiff_seg_barrier *b, void *area, int n, int me, const int *local);
void skiff_seg_barrier_free(struct skiff_seg_barrier *b);

/* Returns once every process has entered this barrier; each one's memory accesses before it happen
 * before every process's accesses after it (release and acquire along the rounds). Progresses, yields
 * and sleeps while it waits, like every blocking wait. */
void skiff_seg_barrier_wait(struct skiff_seg_barrier *b);

#endif
