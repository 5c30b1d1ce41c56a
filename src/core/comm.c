#include "core/comm.h"

#include <stdlib.h>
#include <string.h>

struct skiff_comm skiff_comm_world, skiff_comm_self;
static int self_map[1];

struct skiff_comm *skiff_comm_get(MPI_Comm h)
{
    if (h == MPI_COMM_WORLD)
        return skiff_comm_world.magic ? &skiff_comm_world : NULL;
    if (h == MPI_COMM_SELF)
        return skiff_comm_self.magic ? &skiff_comm_self : NULL;
    return NULL;
}

static void init_one(struct skiff_comm *c, MPI_Comm h, uint32_t ctx, int rank, int size, int *map,
                     const char *name)
{
    memset(c, 0, sizeof *c);
    c->magic = SKIFF_COMM_MAGIC;
    c->ctx = ctx;
    c->rank = rank;
    c->size = size;
    c->world = map;
    c->handle = h;
    c->errhandler = MPI_ERRORS_ARE_FATAL;
    strncpy(c->name, name, sizeof c->name - 1);
}

void skiff_comm_init_predefined(int rank, int size)
{
    init_one(&skiff_comm_world, MPI_COMM_WORLD, 0, rank, size, NULL, "MPI_COMM_WORLD");
    self_map[0] = rank;
    init_one(&skiff_comm_self, MPI_COMM_SELF, 2, 0, 1, self_map, "MPI_COMM_SELF");
}

void skiff_comm_finalize(void)
{
    skiff_comm_world.magic = 0;
    skiff_comm_self.magic = 0;
}
