/* Intercommunicators: making them from two groups, merging them into one, asking about the other
 * side. intercomm_make.c agrees on context ids; dup, split, create and free of an
 * intercommunicator go through the usual entry points (comm_create.c), which ask it when comm->remote. */
#include "mpi/intercomm_make.h"
#include "mpi/mpi_impl.h"

/* What only the local leader reads: the peer communicator and the remote leader's rank in it. */
static int check_leader_args(MPI_Comm peer_comm, int remote_leader, struct skiff_comm **peer)
{
    int rc = skiff_check_comm(peer_comm, peer);
    if (rc)
        return rc;
    if (SKIFF_UNLIKELY(remote_leader < 0 || remote_leader >= (*peer)->peers))
        return skiff_err(MPI_ERR_RANK, "invalid remote_leader %d (peer_comm %s has %d ranks)", remote_leader,
                         skiff_comm_label(*peer), (*peer)->peers);
    if (SKIFF_UNLIKELY(skiff_comm_world_rank(*peer, remote_leader) == skiff.rank))
        return skiff_err(MPI_ERR_RANK, "remote_leader %d of peer_comm %s is this process, the local leader: the "
                         "two groups must be disjoint", remote_leader, skiff_comm_label(*peer));
    return MPI_SUCCESS;
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    struct skiff_comm *local = NULL, *peer = NULL, *n = NULL;
    int rc;
    SKIFF_ENTER(MPI_Intercomm_create);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(local_comm, &local)) || (rc = skiff_check_intra(local)) ||
        (rc = skiff_check_ptr(newintercomm, "newintercomm")) || (rc = skiff_check_send_tag(tag)))
        return skiff_fail(local_comm, rc);
    if (SKIFF_UNLIKELY(local_leader < 0 || local_leader >= local->size))
        return skiff_fail(local_comm, skiff_err(MPI_ERR_RANK, "invalid local_leader %d (local_comm %s has %d ranks)",
                                                local_leader, skiff_comm_label(local), local->size));
    if (local->rank == local_leader && (rc = check_leader_args(peer_comm, remote_leader, &peer)))
        return skiff_fail(local_comm, rc);
    if ((rc = skiff_intercomm_create(local, local_leader, peer, remote_leader, tag, &n)))
        return skiff_fail(local_comm, rc);
    *newintercomm = n->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Intercomm_create)

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    struct skiff_comm *c = NULL, *n = NULL;
    int rc;
    SKIFF_ENTER(MPI_Intercomm_merge);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(intercomm, &c)) || (rc = skiff_check_inter(c)) ||
        (rc = skiff_check_ptr(newintracomm, "newintracomm")) || (rc = skiff_intercomm_merge(c, high, &n)))
        return skiff_fail(intercomm, rc);
    *newintracomm = n->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Intercomm_merge)

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_remote_size);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_inter(c)) || (rc = skiff_check_ptr(size, "size")))
        return skiff_fail(comm, rc);
    *size = c->peers;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_remote_size)

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_remote_group);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_inter(c)) || (rc = skiff_check_ptr(group, "group")))
        return skiff_fail(comm, rc);
    /* A group of its own, as MPI_Comm_group gives. */
    struct skiff_group *g = skiff_group_from(c->remote->world, c->remote->size);
    if (!g)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", c->peers));
    g->session = c->session;
    *group = skiff_group_handle(g);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_remote_group)
