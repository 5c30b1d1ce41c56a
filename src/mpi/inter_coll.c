#include "mpi/inter_coll.h"

#include <stdlib.h>

#include "coll/inter.h"
#include "core/op.h"
#include "mpi/coll_check.h"
#include "mpi/coll_plan.h"
#include "mpi/mpi_impl.h"
#include "mpi/red_stage.h"

/* Every process of both groups runs a schedule for every call, the idle ones (MPI_PROC_NULL) an empty
 * one, so the communicator's collective tags stay in step. The user's data is staged by steps of the
 * schedule itself (coll_plan.h), so a persistent call's every start packs what the buffers hold then. */

static int check_root(const struct skiff_comm *c, int root)
{
    if (SKIFF_LIKELY(root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->peers)))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ROOT, "invalid root %d (on intercommunicator %s: MPI_ROOT at the root, MPI_PROC_NULL "
                     "in the rest of its group, or the root's rank in the remote group of %d)", root,
                     skiff_comm_label(c), c->peers);
}

/* count elements of dt at buf; MPI_IN_PLACE has no meaning on an intercommunicator. */
static int check_buf(const void *buf, MPI_Count count, MPI_Datatype dt, const char *name, const struct skiff_type **t)
{
    int rc = skiff_check_count(count);
    if (!rc)
        rc = skiff_check_dtype(dt, 1, t);
    if (!rc && SKIFF_UNLIKELY(buf == MPI_IN_PLACE))
        rc = skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which intercommunicator collectives do not take", name);
    return rc ? rc : skiff_check_named_buf(buf, (size_t)count, *t, name);
}

/* n counts and displacements (one per remote process) of dt at buf. */
static int check_vbuf(const void *buf, int n, const struct skiff_cnts *counts, const struct skiff_dsps *displs,
                      MPI_Datatype dt, const char *name, const char *counts_name, const char *displs_name,
                      const struct skiff_type **t)
{
    size_t total = 0;
    int rc = skiff_check_cnts(n, *counts, counts_name, &total);
    if (!rc)
        rc = skiff_check_array(n, skiff_dsps_ptr(*displs), displs_name);
    if (!rc)
        rc = check_buf(buf, 0, dt, name, t);
    return rc ? rc : skiff_check_named_buf(buf, total, *t, name);
}

/* The call's schedule once its checks passed (rc 0); NULL (rc set) otherwise. */
static struct skiff_sched *begin(struct skiff_comm *c, int *rc)
{
    return *rc ? NULL : skiff_plan_new_any(c, rc);
}

/* The call's end: the blocking form runs the schedule to completion, the nonblocking one behind a new
 * request, the persistent one keeps it for MPI_Start. */
static int end(MPI_Comm comm, int rc, struct skiff_sched *s, enum skiff_coll_form form, MPI_Request *request)
{
    if (form == SKIFF_PERSISTENT)
        return skiff_persist_make(comm, rc, s, request);
    if (form == SKIFF_NONBLOCKING)
        return skiff_nb_start(comm, rc, s, request);
    return skiff_blocking_run(comm, rc, s);
}

int skiff_mpi_inter_barrier(MPI_Comm comm, enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    int rc = skiff_check_comm(comm, &c);
    struct skiff_sched *s = begin(c, &rc);
    if (s)
        skiff_build_inter_barrier(s);
    return end(comm, rc, s, form, request);
}

int skiff_mpi_inter_bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm,
                          enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root != MPI_PROC_NULL)
        rc = check_buf(buf, count, dt, "buffer", &t);
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        struct skiff_pk *u = NULL;
        char *data = root == MPI_ROOT ? skiff_plan_in(s, buf, (size_t)count, t, 0)
                     : root == MPI_PROC_NULL ? NULL : skiff_plan_out(s, buf, (size_t)count, t, &u);
        skiff_sched_round(s);
        skiff_build_inter_bcast(s, data, t ? skiff_packed(t, count) : 0, root);
        skiff_plan_out_done(s, u);
    }
    return end(comm, rc, s, form, request);
}

static int check_red_buf(const void *buf, size_t count, const struct skiff_red *r, const char *name)
{
    if (SKIFF_UNLIKELY(buf == MPI_IN_PLACE))
        return skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which intercommunicator collectives do not take", name);
    return skiff_check_named_buf(buf, count, r->t, name);
}

/* A predefined op on a non-contiguous datatype runs on staged copies of the data (mpi/red_stage.h):
 * *sendbuf and *recvbuf are replaced by them. in, out: the elements this process gives and gets. Then
 * the buffers are shifted to their first byte of data. */
static struct skiff_red_pk *red_plan(struct skiff_sched *s, struct skiff_red *red, const void **sendbuf,
                                     void **recvbuf, size_t in, size_t out)
{
    struct skiff_red_pk *u = NULL;
    if (red->t && skiff_red_staged(red))
        skiff_red_plan(s, red, sendbuf, recvbuf, in, out, 0, &u);
    *sendbuf = skiff_shifted(*sendbuf, red);
    *recvbuf = (void *)skiff_shifted(*recvbuf, red);
    return u;
}

int skiff_mpi_inter_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                           MPI_Comm comm, enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red = {0, dt, 0, NULL, 1};
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root != MPI_PROC_NULL)
        rc = skiff_ck_reduction(count, dt, op, &red);
    if (!rc && root == MPI_ROOT)
        rc = check_red_buf(recvbuf, (size_t)count, &red, "recvbuf");
    else if (!rc && root >= 0)
        rc = check_red_buf(sendbuf, (size_t)count, &red, "sendbuf");
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        size_t in = root >= 0 ? (size_t)count : 0, out = root == MPI_ROOT ? (size_t)count : 0;
        struct skiff_red_pk *u = red_plan(s, &red, &sendbuf, &recvbuf, in, out);
        skiff_build_inter_reduce(s, sendbuf, recvbuf, red.count, red.dt, op, root);
        skiff_red_plan_done(s, u);
    }
    return end(comm, rc, s, form, request);
}

int skiff_mpi_inter_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm, enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_ck_reduction(count, dt, op, &red);
    if (!rc)
        rc = check_red_buf(sendbuf, (size_t)count, &red, "sendbuf");
    if (!rc)
        rc = check_red_buf(recvbuf, (size_t)count, &red, "recvbuf");
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        struct skiff_red_pk *u = red_plan(s, &red, &sendbuf, &recvbuf, (size_t)count, (size_t)count);
        skiff_build_inter_allreduce(s, sendbuf, recvbuf, red.count, red.dt, op);
        skiff_red_plan_done(s, u);
    }
    return end(comm, rc, s, form, request);
}

int skiff_mpi_inter_reduce_scatter(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                   const MPI_Count *recvcounts, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                   enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    size_t total = 0, *counts = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = recvcounts ? skiff_check_lcounts(c->size, recvcounts, "recvcounts", &total)
                        : skiff_check_count(recvcount);
    if (!rc && !(counts = malloc(sizeof *counts * (size_t)c->size)))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size);
    if (!rc)
        rc = skiff_ck_reduction(0, dt, op, &red);
    total = 0;
    for (int i = 0; !rc && i < c->size; i++)
        total += counts[i] = (size_t)(recvcounts ? recvcounts[i] : recvcount);
    if (!rc)
        rc = check_red_buf(sendbuf, total, &red, "sendbuf");
    if (!rc)
        rc = check_red_buf(recvbuf, counts[c->rank], &red, "recvbuf");
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        struct skiff_red_pk *u = red_plan(s, &red, &sendbuf, &recvbuf, total, counts[c->rank]);
        for (int i = 0; i < c->size; i++)
            counts[i] *= red.scale; /* basic elements, as the schedule reduces them */
        skiff_build_inter_reduce_scatter(s, sendbuf, recvbuf, counts, red.dt, op);
        skiff_red_plan_done(s, u);
    }
    free(counts); /* the schedule took the sizes it needs */
    return end(comm, rc, s, form, request);
}

/* Room for what a process receives from every remote process: counts[i] at displs[i] (v), or count
 * each, packed. *data, *bc, *bd: what the builders take. */
struct iplan {
    char *data;
    const size_t *bc, *bd;
    struct skiff_pk *u;
    struct skiff_vplan v;
};

static void plan_all(struct skiff_sched *s, struct iplan *p, const void *buf, size_t count,
                     const struct skiff_cnts *counts, const struct skiff_dsps *displs, const struct skiff_type *t,
                     int sending)
{
    if (counts) {
        skiff_plan_v(s, &p->v, buf, *counts, *displs, t, sending, -1);
        *p = (struct iplan){p->v.data, p->v.bc, p->v.bd, NULL, p->v};
    } else {
        size_t n = count * (size_t)s->comm->peers;
        p->data = sending ? skiff_plan_in(s, buf, n, t, 0) : skiff_plan_out(s, (void *)buf, n, t, &p->u);
    }
}

static void plan_all_done(struct skiff_sched *s, const struct iplan *p)
{
    skiff_plan_v_done(s, &p->v);
    skiff_plan_out_done(s, p->u);
}

int skiff_mpi_inter_gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, const struct skiff_cnts *recvcounts, const struct skiff_dsps *displs,
                           MPI_Datatype recvtype, int root, MPI_Comm comm, enum skiff_coll_form form,
                           MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root == MPI_ROOT)
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, displs, recvtype, "recvbuf", "recvcounts",
                                     "displs", &t)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &t);
    else if (!rc && root >= 0)
        rc = check_buf(sendbuf, sendcount, sendtype, "sendbuf", &t);
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        struct iplan all = {0};
        char *in = NULL;
        if (root == MPI_ROOT)
            plan_all(s, &all, recvbuf, (size_t)recvcount, recvcounts, displs, t, 0);
        else if (root >= 0)
            in = skiff_plan_in(s, sendbuf, (size_t)sendcount, t, 0);
        skiff_sched_round(s);
        size_t bytes = !t ? 0 : skiff_packed(t, root == MPI_ROOT ? recvcount : sendcount);
        skiff_build_inter_gather(s, in, bytes, all.data, all.bc, all.bd, root);
        plan_all_done(s, &all);
    }
    return end(comm, rc, s, form, request);
}

int skiff_mpi_inter_scatter(const void *sendbuf, MPI_Count sendcount, const struct skiff_cnts *sendcounts,
                            const struct skiff_dsps *displs, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                            enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root == MPI_ROOT)
        rc = sendcounts ? check_vbuf(sendbuf, c->peers, sendcounts, displs, sendtype, "sendbuf", "sendcounts",
                                     "displs", &t)
                        : check_buf(sendbuf, sendcount, sendtype, "sendbuf", &t);
    else if (!rc && root >= 0)
        rc = check_buf(recvbuf, recvcount, recvtype, "recvbuf", &t);
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        struct iplan all = {0};
        struct skiff_pk *u = NULL;
        char *out = NULL;
        if (root == MPI_ROOT)
            plan_all(s, &all, sendbuf, (size_t)sendcount, sendcounts, displs, t, 1);
        else if (root >= 0)
            out = skiff_plan_out(s, recvbuf, (size_t)recvcount, t, &u);
        skiff_sched_round(s);
        size_t bytes = !t ? 0 : skiff_packed(t, root == MPI_ROOT ? sendcount : recvcount);
        skiff_build_inter_scatter(s, all.data, all.bc, all.bd, out, bytes, root);
        skiff_plan_out_done(s, u);
    }
    return end(comm, rc, s, form, request);
}

int skiff_mpi_inter_allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, const struct skiff_cnts *recvcounts,
                              const struct skiff_dsps *displs, MPI_Datatype recvtype, MPI_Comm comm,
                              enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_buf(sendbuf, sendcount, sendtype, "sendbuf", &st);
    if (!rc)
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, displs, recvtype, "recvbuf", "recvcounts",
                                     "displs", &rt)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &rt);
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        struct iplan all = {0};
        char *in = skiff_plan_in(s, sendbuf, (size_t)sendcount, st, 0);
        plan_all(s, &all, recvbuf, (size_t)recvcount, recvcounts, displs, rt, 0);
        skiff_sched_round(s);
        skiff_build_inter_allgather(s, in, skiff_packed(st, sendcount), all.data, skiff_packed(rt, recvcount), all.bc,
                                    all.bd);
        plan_all_done(s, &all);
    }
    return end(comm, rc, s, form, request);
}

int skiff_mpi_inter_alltoall(const void *sendbuf, MPI_Count sendcount, const struct skiff_cnts *sendcounts,
                             const struct skiff_dsps *sdispls, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, const struct skiff_cnts *recvcounts,
                             const struct skiff_dsps *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                             enum skiff_coll_form form, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = sendcounts ? check_vbuf(sendbuf, c->peers, sendcounts, sdispls, sendtype, "sendbuf", "sendcounts",
                                     "sdispls", &st)
                        : check_buf(sendbuf, sendcount, sendtype, "sendbuf", &st);
    if (!rc)
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, rdispls, recvtype, "recvbuf", "recvcounts",
                                     "rdispls", &rt)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &rt);
    struct skiff_sched *s = begin(c, &rc);
    if (s) {
        struct iplan out = {0}, in = {0};
        plan_all(s, &out, sendbuf, (size_t)sendcount, sendcounts, sdispls, st, 1);
        plan_all(s, &in, recvbuf, (size_t)recvcount, recvcounts, rdispls, rt, 0);
        skiff_sched_round(s);
        skiff_build_inter_alltoall(s, out.data, skiff_packed(st, sendcount), out.bc, out.bd, in.data,
                                   skiff_packed(rt, recvcount), in.bc, in.bd);
        plan_all_done(s, &in);
    }
    return end(comm, rc, s, form, request);
}

int skiff_mpi_inter_refuse(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    int rc = skiff_check_comm(comm, &c);
    return rc ? skiff_fail(comm, rc) : skiff_fail(comm, skiff_check_intra(c));
}
