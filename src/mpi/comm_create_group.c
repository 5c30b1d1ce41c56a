/* MPI_Comm_create_group: a communicator of a group's processes, made by them alone. The other processes
 * of comm do not take part (they may be busy elsewhere), so the context id is agreed among the members
 * only (coll/ctxid_nb.h), on comm's collective context under a tag made from the caller's: different
 * tags keep concurrent calls on overlapping groups apart. The call's messages carry bit 30 above the
 * low 30 bits of the tag, a space the numbered collectives (below 2^30) never use; tags that differ only
 * in bit 30 and above therefore meet, which the standard's "distinct tags" for concurrent calls avoids in
 * every program that uses tags below 2^30. */
#include <stdlib.h>

#include "coll/sched.h"
#include "coll/ctxid_nb.h"
#include "mpi/comm_make.h"
#include "mpi/mpi_impl.h"

#define GROUP_TAG_BIT 0x40000000

/* The ranks in c of g's processes, in g's order; an error names the first that is not in c. */
static int members_of(struct skiff_comm *c, struct skiff_group *g, int *members)
{
    for (int i = 0; i < g->size; i++) {
        members[i] = skiff_group_rank_of(c->group, g->world[i]);
        if (members[i] == MPI_UNDEFINED)
            return skiff_err(MPI_ERR_GROUP, "rank %d of the group (job rank %d) is not a process of communicator %s",
                             i, g->world[i], skiff_comm_label(c));
    }
    return MPI_SUCCESS;
}

int skiff_comm_group_agree(struct skiff_comm *c, struct skiff_group *g, int tag, uint32_t *ctx)
{
    struct skiff_sched *s = skiff_sched_new_tagged(c, GROUP_TAG_BIT | (tag & (GROUP_TAG_BIT - 1)));
    if (!s)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a communicator of %d processes", g->size);
    int *members = skiff_sched_scratch(s, sizeof(int) * (size_t)(g->size ? g->size : 1));
    int rc = members ? members_of(c, g, members)
                     : skiff_err(MPI_ERR_NO_MEM, "out of memory agreeing on a communicator of %d processes", g->size);
    if (rc) {
        skiff_sched_release(s);
        free(s);
        return rc;
    }
    return skiff_ctx_agree_run(s, members, g->size, g->rank, ctx);
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    struct skiff_comm *c = NULL, *n = NULL;
    struct skiff_group *g = NULL;
    uint32_t ctx = 0;
    int rc;
    SKIFF_ENTER(MPI_Comm_create_group);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_intra(c)) || (rc = skiff_check_group(group, &g)) ||
        (rc = skiff_check_send_tag(tag)) || (rc = skiff_check_ptr(newcomm, "newcomm")))
        return skiff_fail(comm, rc);
    /* Only members call; a process outside the group that calls anyway gets no communicator, as with
     * MPICH. */
    if (g->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    if ((rc = skiff_comm_group_agree(c, g, tag, &ctx)) || (rc = skiff_comm_make_ctx(ctx, g->world, g->size, c->errhandler, &n)))
        return skiff_fail(comm, rc);
    n->session = c->session;
    *newcomm = n->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_create_group)
