/* MPI_Comm_idup and MPI_Comm_idup_with_info: a duplicate whose context id is agreed behind a request.
 * The new communicator exists from the call on (its handle is set at once, as MPICH does): its group,
 * topology, hints and the attributes whose copy callbacks say so are taken from comm then, so freeing
 * comm before the request completes changes nothing. Its context id is agreed on a schedule
 * (coll/ctxid_nb.h) that every MPI_Test/MPI_Wait moves on, so several idups of one communicator may be
 * outstanding at once; the communicator may be used once the request has completed. An intercommunicator's
 * duplicate is agreed the same way by every process of both groups, over the intercommunicator itself. */
#include <stdlib.h>

#include "coll/sched.h"
#include "coll/ctxid_nb.h"
#include "core/error.h"
#include "core/group.h"
#include "mpi/comm_make.h"
#include "mpi/mpi_impl.h"

/* Stands for the id until it is agreed: no message is sent on the communicator before then. */
#define CTX_PENDING 0xfffffffeu

static void agreed(struct skiff_sched *s, void *arg, uint32_t ctx, int rc)
{
    struct skiff_comm *n = arg;
    (void)s;
    if (rc)
        skiff_comm_discard(n); /* the request reports the error; the handle is refused from now on */
    else
        n->ctx = ctx;
}

/* Starts the agreement over every process of c (of both groups for an intercommunicator) for n. */
static int start(struct skiff_comm *c, struct skiff_comm *n, struct skiff_request **req)
{
    struct skiff_sched *s = skiff_sched_new(c);
    if (!s)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for the duplicate of %s", skiff_comm_label(c));
    int rc = skiff_ctx_agree_all_sched(s, agreed, n);
    if (rc) {
        skiff_sched_release(s);
        free(s);
        return rc;
    }
    return skiff_sched_run(s, req);
}

/* The duplicate's processes, before it has a context id. */
static int make_groups(struct skiff_comm *c, struct skiff_comm **n)
{
    if (!c->remote)
        return skiff_comm_make_ctx(CTX_PENDING, c->group->world, c->size, c->errhandler, n);
    struct skiff_group *lg = skiff_group_from(c->group->world, c->size);
    struct skiff_group *rg = lg ? skiff_group_from(c->remote->world, c->peers) : NULL;
    if (!rg) {
        if (lg)
            skiff_group_free(lg);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for the groups of the duplicate of %s",
                         skiff_comm_label(c));
    }
    return skiff_comm_make_inter(CTX_PENDING, lg, rg, c->errhandler, n);
}

/* ... and of the same session as the original. */
static int make(struct skiff_comm *c, struct skiff_comm **n)
{
    int rc = make_groups(c, n);
    if (!rc && *n)
        (*n)->session = c->session;
    return rc;
}

static int idup(MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    static const struct skiff_info no_hints;
    struct skiff_comm *c = NULL, *n = NULL;
    struct skiff_info *given = NULL;
    struct skiff_request *r = NULL;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(newcomm, "newcomm")) ||
        (rc = skiff_check_ptr(request, "request")) ||
        (with_info && info != MPI_INFO_NULL && (rc = skiff_check_info_obj(info, &given))))
        return skiff_fail(comm, rc);
    const struct skiff_info *in = with_info ? (given ? given : &no_hints) : NULL;
    if ((rc = make(c, &n)))
        return skiff_fail(comm, rc);
    if ((rc = skiff_comm_dup_props(c, n, in)))
        return skiff_fail(comm, rc);
    *newcomm = n->handle;
    if ((rc = start(c, n, &r))) {
        skiff_comm_discard(n);
        *newcomm = MPI_COMM_NULL;
        return skiff_fail(comm, rc);
    }
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    SKIFF_ENTER(MPI_Comm_idup);
    SKIFF_REQUIRE_INIT();
    return idup(comm, 0, MPI_INFO_NULL, newcomm, request);
}
SKIFF_ALIAS(MPI_Comm_idup)

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    SKIFF_ENTER(MPI_Comm_idup_with_info);
    SKIFF_REQUIRE_INIT();
    return idup(comm, 1, info, newcomm, request);
}
SKIFF_ALIAS(MPI_Comm_idup_with_info)
