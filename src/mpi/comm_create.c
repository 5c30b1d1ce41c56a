/* Making and freeing communicators: dup, split, split by type, create from a group, free.
 * Each is collective over the parent: the processes agree on a context id (core/ctxid.h) and, for split,
 * exchange their (color, key) pairs; point-to-point then works on the new communicator at once. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/ctxid_agree.h"
#include "core/bsend.h"
#include "mpi/intercomm_make.h"
#include "core/node.h"
#include "core/topo.h"
#include "mpi/comm_make.h"
#include "mpi/mpi_impl.h"

static MPI_Comm handle_of(struct skiff_comm *c)
{
    return c ? c->handle : MPI_COMM_NULL;
}

/* Undoes a duplicate that never reached the user; the attributes copied so far go through their delete
 * callbacks, so whatever their copy callbacks allocated is released. */
void skiff_comm_discard(struct skiff_comm *c)
{
    (void)skiff_attr_delete_all(c);
    skiff_comm_free(c);
}

int skiff_comm_dup_props(struct skiff_comm *c, struct skiff_comm *n, const struct skiff_info *info)
{
    int rc = MPI_SUCCESS;
    n->hints = info ? skiff_comm_hints_apply(0, info) : c->hints;
    if (c->topo && !(n->topo = skiff_topo_copy(c->topo)))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory copying the topology of %s", skiff_comm_label(c));
    if (!rc)
        rc = skiff_attr_copy_all(c, n);
    if (rc)
        skiff_comm_discard(n);
    return rc;
}

/* A duplicate keeps the topology, the error handler, the attributes whose copy callback says so and the
 * hints, or with_info takes the assertions of info instead (MPI_INFO_NULL: none; the standard asks for an
 * info object, MPICH and Open MPI also take MPI_INFO_NULL). */
static int dup(MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm)
{
    static const struct skiff_info no_hints;
    struct skiff_comm *c = NULL, *n = NULL;
    const struct skiff_info *in = with_info ? &no_hints : NULL;
    struct skiff_info *given = NULL;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(newcomm, "newcomm")))
        return skiff_fail(comm, rc);
    if (with_info && info != MPI_INFO_NULL) {
        if ((rc = skiff_check_info_obj(info, &given)))
            return skiff_fail(comm, rc);
        in = given;
    }
    if ((rc = c->remote ? skiff_intercomm_dup(c, &n) : skiff_comm_make(c, c->group->world, c->size, &n)) ||
        (rc = skiff_comm_dup_props(c, n, in)))
        return skiff_fail(comm, rc);
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    SKIFF_ENTER(MPI_Comm_dup);
    SKIFF_REQUIRE_INIT();
    return dup(comm, 0, MPI_INFO_NULL, newcomm);
}
SKIFF_ALIAS(MPI_Comm_dup)

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    SKIFF_ENTER(MPI_Comm_dup_with_info);
    SKIFF_REQUIRE_INIT();
    return dup(comm, 1, info, newcomm);
}
SKIFF_ALIAS(MPI_Comm_dup_with_info)

int skiff_comm_color_members(struct skiff_comm *c, const int *pairs, int color, int *world, int *n)
{
    if ((*n = skiff_group_pick(c->group, pairs, 2, color, world)) < 0)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory splitting %d processes", c->size);
    return MPI_SUCCESS;
}

static int split(struct skiff_comm *c, int color, int key, struct skiff_comm **out)
{
    if (c->remote)
        return skiff_intercomm_split(c, color, key, out);
    int mine[2] = {color, key}, n = 0;
    int *pairs = malloc(sizeof mine * (size_t)c->size), *world = malloc(sizeof(int) * (size_t)c->size);
    int rc = pairs && world ? MPI_SUCCESS : skiff_err(MPI_ERR_NO_MEM, "out of memory splitting %d processes", c->size);
    if (!rc)
        rc = skiff_coll_allgather(mine, sizeof mine, pairs, c);
    if (!rc && color != MPI_UNDEFINED)
        rc = skiff_comm_color_members(c, pairs, color, world, &n);
    /* Every process takes part in agreeing on the context id, members of no new communicator too. */
    if (!rc)
        rc = skiff_comm_make(c, world, n, out);
    free(pairs);
    free(world);
    return rc;
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    struct skiff_comm *c = NULL, *n = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_split);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(newcomm, "newcomm")))
        return skiff_fail(comm, rc);
    if (SKIFF_UNLIKELY(color < 0 && color != MPI_UNDEFINED))
        return skiff_fail(comm, skiff_err(MPI_ERR_ARG, "invalid color %d (must be >= 0 or MPI_UNDEFINED)", color));
    if ((rc = split(c, color, key, &n)))
        return skiff_fail(comm, rc);
    *newcomm = handle_of(n);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_split)

/* The color of this process for a split type, and the hardware level it splits by (-1: none); -1 for a
 * type skiff does not know. */
static int type_color(struct skiff_comm *c, int split_type, const struct skiff_info *in, int *level)
{
    *level = -1;
    switch (split_type) {
    case MPI_UNDEFINED:
        return MPI_UNDEFINED;
    case MPI_COMM_TYPE_SHARED:
        return skiff_node_of(skiff_comm_world_rank(c, c->rank));
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        return skiff_split_guided_color(c, split_type, in, level);
    default:
        return -1;
    }
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    struct skiff_comm *c = NULL, *n = NULL;
    int rc, level = -1;
    SKIFF_ENTER(MPI_Comm_split_type);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_intra(c)) || (rc = skiff_check_info(info)) ||
        (rc = skiff_check_ptr(newcomm, "newcomm")))
        return skiff_fail(comm, rc);
    if (split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
        rc = skiff_split_unguided(c, key, &n, &level);
    } else {
        int color = type_color(c, split_type, skiff_info_get(info), &level);
        if (SKIFF_UNLIKELY(color == -1))
            return skiff_fail(comm, skiff_err(MPI_ERR_ARG, "invalid split_type %d (MPI_COMM_TYPE_SHARED is %d)",
                                              split_type, MPI_COMM_TYPE_SHARED));
        rc = split(c, color, key, &n);
    }
    if (rc)
        return skiff_fail(comm, rc);
    /* MPI_Comm_get_info names the level (mpi_hw_resource_type), as the standard asks of HW_UNGUIDED. */
    if (n && level >= 0)
        n->hints |= (unsigned)(level + 1) << SKIFF_HINT_HW_SHIFT;
    *newcomm = handle_of(n);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_split_type)

/* Every process of g must belong to c. */
static int check_subgroup(struct skiff_comm *c, struct skiff_group *g)
{
    for (int i = 0; i < g->size; i++)
        if (skiff_group_rank_of(c->group, g->world[i]) == MPI_UNDEFINED)
            return skiff_err(MPI_ERR_GROUP, "rank %d of the group (job rank %d) is not a process of communicator %s",
                             i, g->world[i], skiff_comm_label(c));
    return MPI_SUCCESS;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    struct skiff_comm *c = NULL, *n = NULL;
    struct skiff_group *g = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_create);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_group(group, &g)) ||
        (rc = skiff_check_ptr(newcomm, "newcomm")) || (rc = check_subgroup(c, g)))
        return skiff_fail(comm, rc);
    /* On an intercommunicator the group is a part of the local group, paired with the other side's part. */
    if ((rc = c->remote ? skiff_intercomm_subset(c, g, &n) : skiff_comm_make(c, g->world, g->size, &n)))
        return skiff_fail(comm, rc);
    *newcomm = handle_of(n);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_create)

int PMPI_Comm_free(MPI_Comm *comm)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_free);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_ptr(comm, "comm")))
        return skiff_fail(MPI_COMM_NULL, rc);
    if ((rc = skiff_check_comm(*comm, &c)))
        return skiff_fail(*comm, rc);
    /* Named by handle: the user may have renamed it with MPI_Comm_set_name. */
    if (SKIFF_UNLIKELY(c == &skiff_comm_world || c == &skiff_comm_self))
        return skiff_fail(*comm, skiff_err(MPI_ERR_COMM, "%s is predefined and cannot be freed",
                                           c == &skiff_comm_world ? "MPI_COMM_WORLD" : "MPI_COMM_SELF"));
    /* A failing delete callback leaves the communicator alive, as if the call had not happened. */
    if ((rc = skiff_attr_delete_all(c)))
        return skiff_fail(*comm, rc);
    skiff_bsend_owner_freed(SKIFF_BBUF_COMM, c); /* its buffered messages leave first, as a detach would wait for them */
    skiff_comm_free(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_free)
