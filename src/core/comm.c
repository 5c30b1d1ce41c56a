#include "core/comm.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/ctxid.h"
#include "core/errhandler.h"
#include "core/error.h"
#include "core/group.h"
#include "core/objpool.h"
#include "core/request.h"
#include "core/topo.h"

struct skiff_comm skiff_comm_world, skiff_comm_self;
static struct skiff_objpool pool = SKIFF_OBJPOOL_INIT(struct skiff_comm);
static struct skiff_comm *zombies; /* freed by the user, still named by requests in flight */

struct skiff_comm *skiff_comm_get(MPI_Comm h)
{
    if (h == MPI_COMM_WORLD)
        return skiff_comm_world.magic ? &skiff_comm_world : NULL;
    if (h == MPI_COMM_SELF)
        return skiff_comm_self.magic ? &skiff_comm_self : NULL;
    /* Predefined handles are small integers; anything else is a pointer into our pool. */
    if ((uintptr_t)h < 0x1000 || (uintptr_t)h % sizeof(void *))
        return NULL;
    struct skiff_comm *c = (struct skiff_comm *)(void *)h;
    return c->magic == SKIFF_COMM_MAGIC ? c : NULL;
}

static void init_one(struct skiff_comm *c, MPI_Comm h, uint32_t ctx, struct skiff_group *g, const char *name)
{
    memset(c, 0, sizeof *c);
    c->magic = SKIFF_COMM_MAGIC;
    c->ctx = ctx;
    c->rank = g->rank;
    c->size = g->size;
    c->peers = g->size;
    c->world = g->world;
    c->group = g;
    c->handle = h;
    c->errhandler = MPI_ERRORS_ARE_FATAL;
    strncpy(c->name, name, sizeof c->name - 1);
}

void skiff_comm_init_predefined(int rank, int size)
{
    int *ids = malloc(sizeof(int) * (size_t)size);
    if (!ids)
        skiff_abort_job(MPI_ERR_NO_MEM, "out of memory for MPI_COMM_WORLD's group");
    for (int i = 0; i < size; i++)
        ids[i] = i;
    struct skiff_group *wg = skiff_group_from(ids, size), *sg = skiff_group_from(&rank, 1);
    free(ids);
    if (!wg || !sg)
        skiff_abort_job(MPI_ERR_NO_MEM, "out of memory for the predefined communicators");
    init_one(&skiff_comm_world, MPI_COMM_WORLD, 0, wg, "MPI_COMM_WORLD");
    skiff_comm_world.world = NULL; /* identity: the fast path of skiff_comm_world_rank */
    init_one(&skiff_comm_self, MPI_COMM_SELF, 2, sg, "MPI_COMM_SELF");
    skiff_ctx_init();
}

int skiff_comm_make_ctx(uint32_t ctx, const int *world, int n, MPI_Errhandler eh, struct skiff_comm **out)
{
    *out = NULL;
    if (n == 0)
        return MPI_SUCCESS;
    struct skiff_group *g = skiff_group_from(world, n);
    if (!g)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", n);
    if (g->rank == MPI_UNDEFINED) {
        skiff_group_free(g);
        return MPI_SUCCESS;
    }
    struct skiff_comm *c = skiff_objpool_get(&pool);
    if (!c) {
        skiff_group_free(g);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a communicator");
    }
    init_one(c, (MPI_Comm)(void *)c, ctx, g, "");
    c->errhandler = eh;
    skiff_eh_retain(eh); /* the communicator holds its handler */
    *out = c;
    return MPI_SUCCESS;
}

int skiff_comm_make_inter(uint32_t ctx, struct skiff_group *local, struct skiff_group *remote, MPI_Errhandler eh,
                          struct skiff_comm **out)
{
    struct skiff_comm *c = skiff_objpool_get(&pool);
    *out = NULL;
    if (!c) {
        skiff_group_free(local);
        skiff_group_free(remote);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a communicator");
    }
    init_one(c, (MPI_Comm)(void *)c, ctx, local, "");
    /* Point-to-point names the other side: its size bounds ranks, its map finds the peer. */
    c->remote = remote;
    c->peers = remote->size;
    c->world = remote->world;
    c->errhandler = eh;
    skiff_eh_retain(eh); /* the communicator holds its handler */
    *out = c;
    return MPI_SUCCESS;
}

static int finalizing; /* every communicator goes at once: sub-communicators are not freed twice */

static void destroy(struct skiff_comm *c)
{
    if (!finalizing && c->node_comm)
        skiff_comm_free(c->node_comm);
    if (!finalizing && c->leader_comm)
        skiff_comm_free(c->leader_comm);
    skiff_attr_drop_all(c);
    skiff_eh_release(c->errhandler);
    skiff_topo_free(c->topo);
    skiff_group_free(c->group);
    if (c->remote)
        skiff_group_free(c->remote);
    skiff_objpool_put(&pool, c);
}

static void find_user(struct skiff_request *r, void *arg)
{
    struct skiff_comm **c = arg;
    if (*c && r->comm == *c)
        *c = NULL;
}

static int in_use(struct skiff_comm *c)
{
    struct skiff_comm *probe = c;
    skiff_req_foreach(find_user, &probe);
    return probe == NULL;
}

/* Destroys the zombies whose last request is gone. */
static void reap(void)
{
    for (struct skiff_comm **p = &zombies; *p;) {
        struct skiff_comm *z = *p;
        if (in_use(z)) {
            p = &z->zombie_next;
            continue;
        }
        *p = z->zombie_next;
        destroy(z);
    }
}

void skiff_comm_free(struct skiff_comm *c)
{
    /* MPI lets pending operations finish after MPI_Comm_free: they still need the rank map and the error
     * handler, so such a communicator only loses its handle until they are done. */
    c->magic = 0;
    if (in_use(c)) {
        c->zombie_next = zombies;
        zombies = c;
    } else {
        destroy(c);
    }
    reap();
}

static void destroy_any(void *obj)
{
    destroy(obj);
}

void skiff_comm_finalize(void)
{
    finalizing = 1;
    skiff_comm_world.magic = 0;
    skiff_comm_self.magic = 0;
    zombies = NULL;
    skiff_objpool_foreach(&pool, destroy_any);
    skiff_objpool_destroy(&pool);
    skiff_attr_drop_all(&skiff_comm_world);
    skiff_attr_drop_all(&skiff_comm_self);
    skiff_topo_free(skiff_comm_world.topo);
    skiff_topo_free(skiff_comm_self.topo);
    skiff_group_free(skiff_comm_world.group);
    skiff_group_free(skiff_comm_self.group);
    skiff_group_finalize();
    skiff_attr_finalize();
    finalizing = 0;
}
