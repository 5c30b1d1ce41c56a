/* Communicators: a context id that keeps their traffic apart, and the map from their ranks to the
 * job's ranks. MPI_COMM_WORLD and MPI_COMM_SELF are built at MPI_Init. */
#ifndef SKIFF_COMM_H
#define SKIFF_COMM_H

#include <stdint.h>

#include "mpi.h"

#define SKIFF_COMM_MAGIC 0x636f6d6du

struct skiff_errhandler;

struct skiff_comm {
    uint32_t magic;
    uint32_t ctx;         /* point-to-point context; collectives will use ctx + 1 */
    int rank, size;
    int *world;           /* comm rank -> job rank; NULL means identity */
    MPI_Comm handle;      /* what the user holds */
    MPI_Errhandler errhandler;
    char name[MPI_MAX_OBJECT_NAME];
};

extern struct skiff_comm skiff_comm_world, skiff_comm_self;

/* NULL for MPI_COMM_NULL and anything that is not a live communicator. */
struct skiff_comm *skiff_comm_get(MPI_Comm h);
void skiff_comm_init_predefined(int rank, int size);
void skiff_comm_finalize(void);

static inline int skiff_comm_world_rank(const struct skiff_comm *c, int r)
{
    return c->world ? c->world[r] : r;
}

#endif
