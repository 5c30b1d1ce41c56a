#ifndef SKIFF_SHM_H
#define SKIFF_SHM_H

#include <stdint.h>

#include "core/transport.h"

/* Maps the job segment and builds this rank's view of it; NULL after printing why. */
const struct skiff_transport *skiff_shm_init(void);

/* For ranks that also have tcp peers and so sleep in epoll instead of on the futex: the socket a
 * sender pokes when it finds us asleep (created on first call; -1 if it cannot be), and arm(1) to
 * announce the sleep (returns 1 if something is already waiting: do not sleep), arm(0) after it. */
int skiff_shm_wake_fd(void);
int skiff_shm_arm(int on);
void skiff_shm_wake_self(void);

/* The asynchronous progress thread's sleep (core/async.c), in halves so that only the first needs the
 * library's lock: doze_arm announces it (returns 1, not announced, if something waits already) and reads
 * the bell; doze sleeps until the bell moves (only atomics and the futex: no lock needed), or doze_end
 * ends an announcement slept in epoll (and drains the wake socket). The announcement is a count, as an
 * application thread may sleep on the same doorbell meanwhile (arm and the transport's sleep count too). */
int skiff_shm_doze_arm(uint32_t *bell);
void skiff_shm_doze(uint32_t bell, double seconds);
void skiff_shm_doze_end(void);

/* What went through shared memory since MPI_Init, from the positions and cell counts the transport
 * keeps anyway (MPI_T performance variables); all 0 when shm is not running. */
struct skiff_shm_traffic {
    unsigned long long fbox_sent, fbox_recv;   /* fast box bytes, record heads and padding included */
    unsigned long long cells_sent, cells_recv; /* queue cells (larger eager messages, pipelined copies) */
};
void skiff_shm_traffic(struct skiff_shm_traffic *t);

#endif
