/* Process-wide state of the library core. */
#ifndef SKIFF_CORE_H
#define SKIFF_CORE_H

#include "core/transport.h"

struct skiff_core {
    int rank, size;
    int initialized, finalized;
    int thread_level;
    const struct skiff_transport *shm;
    int oversubscribed;    /* more ranks on this node than CPUs: yield and sleep early */
    unsigned spin_limit;   /* polls before a waiting rank yields */
};

extern struct skiff_core skiff;

/* 0 or an MPI error code (the reason is already printed). */
int skiff_core_init(void);
void skiff_core_finalize(void);

/* The transport that reaches a job rank (self is handled by the core itself). */
static inline const struct skiff_transport *skiff_transport_for(int world_rank)
{
    (void)world_rank;
    return skiff.shm;
}

#endif
