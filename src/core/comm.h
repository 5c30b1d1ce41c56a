/* Communicators: a context id that keeps their traffic apart, and the map from their ranks to the
 * job's ranks. MPI_COMM_WORLD and MPI_COMM_SELF are built at MPI_Init; the others are objects from a pool
 * whose address is the user's handle. */
#ifndef SKIFF_COMM_H
#define SKIFF_COMM_H

#include "util/arch.h"

#include <stdint.h>

#include "core/attr.h"
#include "mpi.h"

#define SKIFF_COMM_MAGIC 0x636f6d6du

struct skiff_errhandler;
struct skiff_group;
struct skiff_topo;

struct skiff_comm {
    uint32_t magic;       /* cleared when freed: the handle is refused from then on */
    uint32_t ctx;         /* point-to-point context; collectives use ctx + 1 */
    int rank, size;       /* in the local group: an intercommunicator's own side */
    int peers;            /* ranks that point-to-point names: size, or the remote group's size */
    int *world;           /* peer rank -> job rank; NULL means identity; owned by group (remote if inter) */
    MPI_Comm handle;      /* what the user holds */
    MPI_Errhandler errhandler;
    char name[MPI_MAX_OBJECT_NAME];
    struct skiff_group *group; /* its processes in rank order (its own) */
    struct skiff_group *remote; /* an intercommunicator's other side (its own), NULL for an intracommunicator */
    const void *session;       /* the MPI-4 session it derives from (its buffered sends' buffer), or NULL */
    struct skiff_topo *topo;   /* Cartesian topology, or NULL */
    struct skiff_attrs attrs;  /* cached attributes */
    unsigned hints;            /* the info assertions in force: SKIFF_HINT_* bits (mpi/comm_info.c) */
    unsigned trace_epoch;      /* core/trace.c: the trace that announced it (0: none) */
    struct skiff_comm *zombie_next; /* freed while requests still use it: see skiff_comm_free */
    /* Node-aware collectives (coll/hier.c): this rank's node and the node leaders, built on first use. */
    int hier;                  /* enum skiff_hier_state */
    struct skiff_comm *node_comm, *leader_comm;
};

/* The MPI-4 info assertions a communicator can carry, stored and reported (MPI_Comm_get_info). Matching
 * uses NO_ANY_TAG and NO_ANY_SOURCE (core/match.c: posted receives in buckets by tag or source); the
 * other two change nothing. */
enum skiff_hint {
    SKIFF_HINT_NO_ANY_TAG = 1u << 0,
    SKIFF_HINT_NO_ANY_SOURCE = 1u << 1,
    SKIFF_HINT_EXACT_LENGTH = 1u << 2,
    SKIFF_HINT_ALLOW_OVERTAKING = 1u << 3,
};
/* Bits from here up: the hardware level a split_type made the communicator by (mpi_hw_resource_type,
 * reported by MPI_Comm_get_info): 0 none, 1 mpi_shared_memory, 2 + hwloc level (core/hwtopo.h). */
#define SKIFF_HINT_HW_SHIFT 8

enum skiff_hier_state { SKIFF_HIER_UNKNOWN = 0, SKIFF_HIER_BUILDING, SKIFF_HIER_FLAT, SKIFF_HIER_READY };

extern SKIFF_HIDDEN struct skiff_comm skiff_comm_world, skiff_comm_self;

/* NULL for MPI_COMM_NULL and anything that is not a live communicator. */
struct skiff_comm *skiff_comm_get(MPI_Comm h);
void skiff_comm_init_predefined(int rank, int size);
void skiff_comm_finalize(void);

static inline int skiff_comm_world_rank(const struct skiff_comm *c, int r)
{
    return c->world ? c->world[r] : r;
}

/* For messages: the name set by MPI_Comm_set_name (MPI_Comm_get_name must give "" for a communicator
 * without one, so the name itself stays empty). */
static inline const char *skiff_comm_label(const struct skiff_comm *c)
{
    return c->name[0] ? c->name : "(unnamed)";
}

/* A communicator of the n processes world[] (job ranks, in rank order) with an agreed ctx: no
 * communication (the agreement, and skiff_comm_make that does both, are in coll/ctxid_agree.h). eh: the
 * error handler it starts with. */
int skiff_comm_make_ctx(uint32_t ctx, const int *world, int n, MPI_Errhandler eh, struct skiff_comm **out);

/* An intercommunicator of this process's group local and the group remote (both taken over, also on
 * failure) on context ctx, which every process of both groups has agreed on. */
int skiff_comm_make_inter(uint32_t ctx, struct skiff_group *local, struct skiff_group *remote, MPI_Errhandler eh,
                          struct skiff_comm **out);

/* Frees c (a communicator made by skiff_comm_make_ctx) after its attributes are deleted. Requests still in
 * flight keep it readable until they are released. */
void skiff_comm_free(struct skiff_comm *c);

#endif
