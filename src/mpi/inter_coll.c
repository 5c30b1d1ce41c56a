#include "mpi/inter_coll.h"

#include <stdlib.h>

#include "coll/inter.h"
#include "core/op.h"
#include "mpi/coll_stage.h"
#include "mpi/mpi_impl.h"

/* Every process of both groups runs a schedule for every call, the idle ones (MPI_PROC_NULL) an empty
 * one, so the communicator's collective tags stay in step. */

static int check_root(const struct skiff_comm *c, int root)
{
    if (SKIFF_LIKELY(root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->peers)))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ROOT, "invalid root %d (on intercommunicator %s: MPI_ROOT at the root, MPI_PROC_NULL "
                     "in the rest of its group, or the root's rank in the remote group of %d)", root,
                     skiff_comm_label(c), c->peers);
}

/* count elements of dt at buf; MPI_IN_PLACE has no meaning on an intercommunicator. */
static int check_buf(const void *buf, int count, MPI_Datatype dt, const char *name, const struct skiff_type **t)
{
    int rc = skiff_check_count(count);
    if (!rc)
        rc = skiff_check_dtype(dt, 1, t);
    if (!rc && SKIFF_UNLIKELY(buf == MPI_IN_PLACE))
        rc = skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which intercommunicator collectives do not take", name);
    return rc ? rc : skiff_check_named_buf(buf, (size_t)count, *t, name);
}

/* n counts and displacements (one per remote process) of dt at buf. */
static int check_vbuf(const void *buf, int n, const int *counts, const int *displs, MPI_Datatype dt,
                      const char *name, const char *counts_name, const char *displs_name, const struct skiff_type **t)
{
    size_t total = 0;
    int rc = skiff_check_counts(n, counts, counts_name, &total);
    if (!rc)
        rc = skiff_check_array(n, displs, displs_name);
    if (!rc)
        rc = check_buf(buf, 0, dt, name, t);
    return rc ? rc : skiff_check_named_buf(buf, total, *t, name);
}

static int get(MPI_Comm comm, struct skiff_comm **c)
{
    return skiff_check_comm(comm, c);
}

static int done(MPI_Comm comm, int rc)
{
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int skiff_mpi_inter_barrier(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    int rc = get(comm, &c);
    return done(comm, rc ? rc : skiff_inter_barrier(c, NULL));
}

int skiff_mpi_inter_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    struct skiff_stage st = {0};
    int rc = get(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root != MPI_PROC_NULL)
        rc = check_buf(buf, count, dt, "buffer", &t);
    if (!rc && root == MPI_ROOT)
        rc = skiff_stage_send(&st, buf, (size_t)count, t);
    else if (!rc && root != MPI_PROC_NULL)
        rc = skiff_stage_recv(&st, buf, (size_t)count, t, -1, 0);
    if (!rc)
        rc = skiff_inter_bcast(st.data, t ? skiff_type_packed_size(t, (size_t)count) : 0, root, c, NULL);
    if (t)
        skiff_stage_done(&st, !rc && root >= 0);
    return done(comm, rc);
}

/* A reduction's operands as the schedules take them: count elements of a basic type (a predefined op
 * on a contiguous derived type runs on the basic type it is made of), from the data's first byte. */
struct ired {
    size_t count;
    MPI_Datatype dt;
    ptrdiff_t shift;
    const struct skiff_type *t;
};

static int check_red(int count, MPI_Datatype dt, MPI_Op op, struct ired *r)
{
    const struct skiff_type *t = NULL;
    int rc = skiff_check_count(count);
    if (!rc)
        rc = skiff_check_dtype(dt, 1, &t);
    if (!rc)
        rc = skiff_op_check(op, dt);
    if (rc)
        return rc;
    if (SKIFF_UNLIKELY(!t->contiguous && !t->predefined))
        return skiff_err(MPI_ERR_UNSUPPORTED_OPERATION, "skiff reduces only contiguous datatypes, and this derived "
                         "one has %zu bytes of data in an extent of %td (a limitation of skiff, not an error of the "
                         "program)", t->size, t->extent);
    int basic = !t->predefined && !skiff_op_user(op);
    *r = (struct ired){(size_t)count * (basic ? t->nbasic : 1), basic ? t->basic : dt, t->true_lb, t};
    return MPI_SUCCESS;
}

static void *at(const void *buf, const struct ired *r)
{
    return buf ? (char *)buf + r->shift : NULL;
}

static int check_red_buf(const void *buf, int count, const struct ired *r, const char *name)
{
    if (SKIFF_UNLIKELY(buf == MPI_IN_PLACE))
        return skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which intercommunicator collectives do not take", name);
    return skiff_check_named_buf(buf, (size_t)count, r->t, name);
}

int skiff_mpi_inter_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                           MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct ired r = {0, dt, 0, NULL};
    int rc = get(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root != MPI_PROC_NULL)
        rc = check_red(count, dt, op, &r);
    if (!rc && root == MPI_ROOT)
        rc = check_red_buf(recvbuf, count, &r, "recvbuf");
    else if (!rc && root >= 0)
        rc = check_red_buf(sendbuf, count, &r, "sendbuf");
    if (!rc)
        rc = skiff_inter_reduce(at(sendbuf, &r), at(recvbuf, &r), r.count, r.dt, op, root, c, NULL);
    return done(comm, rc);
}

int skiff_mpi_inter_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct ired r;
    int rc = get(comm, &c);
    if (!rc)
        rc = check_red(count, dt, op, &r);
    if (!rc)
        rc = check_red_buf(sendbuf, count, &r, "sendbuf");
    if (!rc)
        rc = check_red_buf(recvbuf, count, &r, "recvbuf");
    if (!rc)
        rc = skiff_inter_allreduce(at(sendbuf, &r), at(recvbuf, &r), r.count, r.dt, op, c, NULL);
    return done(comm, rc);
}

int skiff_mpi_inter_reduce_scatter(const void *sendbuf, void *recvbuf, int recvcount, const int *recvcounts,
                                   MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct ired r;
    size_t total = 0, *counts = NULL;
    int rc = get(comm, &c);
    if (!rc)
        rc = recvcounts ? skiff_check_counts(c->size, recvcounts, "recvcounts", &total) : skiff_check_count(recvcount);
    if (!rc && !(counts = malloc(sizeof *counts * (size_t)c->size)))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size);
    if (!rc)
        rc = check_red(0, dt, op, &r);
    size_t scale = rc ? 0 : r.dt == dt ? 1 : r.t->nbasic; /* basic elements per element */
    total = 0;
    for (int i = 0; !rc && i < c->size; i++)
        total += counts[i] = (size_t)(recvcounts ? recvcounts[i] : recvcount);
    if (!rc)
        rc = check_red_buf(sendbuf, (int)total, &r, "sendbuf");
    if (!rc)
        rc = check_red_buf(recvbuf, (int)counts[c->rank], &r, "recvbuf");
    for (int i = 0; !rc && i < c->size; i++)
        counts[i] *= scale;
    if (!rc)
        rc = skiff_inter_reduce_scatter(at(sendbuf, &r), at(recvbuf, &r), counts, r.dt, op, c, NULL);
    free(counts);
    return done(comm, rc);
}

/* Staging of one side: count elements of t at buf (send: packed now; receive: unpacked at the end),
 * or per remote process counts[i] at displs[i] (v). */
struct iside {
    struct skiff_stage st;
    struct skiff_vstage v;
    int is_v, used;
};

static int stage(struct iside *s, const void *buf, size_t count, const int *counts, const int *displs, int n,
                 const struct skiff_type *t, int sending)
{
    s->used = 1;
    s->is_v = counts != NULL;
    if (s->is_v)
        return skiff_vstage_init(&s->v, buf, counts, displs, n, t, sending ? 1 : 0, -1);
    return sending ? skiff_stage_send(&s->st, buf, count, t) : skiff_stage_recv(&s->st, (void *)buf, count, t, -1, 0);
}

static void *sdata(const struct iside *s)
{
    return !s->used ? NULL : s->is_v ? s->v.data : s->st.data;
}

static void unstage(struct iside *s, int unpack)
{
    if (s->used && s->is_v)
        skiff_vstage_done(&s->v, unpack);
    else if (s->used)
        skiff_stage_done(&s->st, unpack);
}

int skiff_mpi_inter_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           const int *recvcounts, const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    struct iside in = {0}, out = {0};
    size_t bytes = 0;
    int rc = get(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root == MPI_ROOT) {
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, displs, recvtype, "recvbuf", "recvcounts",
                                     "displs", &t)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &t);
        if (!rc)
            rc = stage(&out, recvbuf, (size_t)recvcount * (size_t)c->peers, recvcounts, displs, c->peers, t, 0);
        bytes = t ? skiff_type_packed_size(t, (size_t)recvcount) : 0;
    } else if (!rc && root >= 0) {
        rc = check_buf(sendbuf, sendcount, sendtype, "sendbuf", &t);
        if (!rc)
            rc = stage(&in, sendbuf, (size_t)sendcount, NULL, NULL, 0, t, 1);
        bytes = t ? skiff_type_packed_size(t, (size_t)sendcount) : 0;
    }
    if (!rc)
        rc = skiff_inter_gather(sdata(&in), bytes, sdata(&out), out.is_v ? out.v.bc : NULL,
                                out.is_v ? out.v.bd : NULL, root, c, NULL);
    unstage(&in, 0);
    unstage(&out, !rc);
    return done(comm, rc);
}

int skiff_mpi_inter_scatter(const void *sendbuf, int sendcount, const int *sendcounts, const int *displs,
                            MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    struct iside in = {0}, out = {0};
    size_t bytes = 0;
    int rc = get(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root == MPI_ROOT) {
        rc = sendcounts ? check_vbuf(sendbuf, c->peers, sendcounts, displs, sendtype, "sendbuf", "sendcounts",
                                     "displs", &t)
                        : check_buf(sendbuf, sendcount, sendtype, "sendbuf", &t);
        if (!rc)
            rc = stage(&in, sendbuf, (size_t)sendcount * (size_t)c->peers, sendcounts, displs, c->peers, t, 1);
        bytes = t ? skiff_type_packed_size(t, (size_t)sendcount) : 0;
    } else if (!rc && root >= 0) {
        rc = check_buf(recvbuf, recvcount, recvtype, "recvbuf", &t);
        if (!rc)
            rc = stage(&out, recvbuf, (size_t)recvcount, NULL, NULL, 0, t, 0);
        bytes = t ? skiff_type_packed_size(t, (size_t)recvcount) : 0;
    }
    if (!rc)
        rc = skiff_inter_scatter(sdata(&in), in.is_v ? in.v.bc : NULL, in.is_v ? in.v.bd : NULL, sdata(&out), bytes,
                                 root, c, NULL);
    unstage(&in, 0);
    unstage(&out, !rc);
    return done(comm, rc);
}

int skiff_mpi_inter_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct iside in = {0}, out = {0};
    int rc = get(comm, &c);
    if (!rc)
        rc = check_buf(sendbuf, sendcount, sendtype, "sendbuf", &st);
    if (!rc)
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, displs, recvtype, "recvbuf", "recvcounts",
                                     "displs", &rt)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &rt);
    if (!rc)
        rc = stage(&in, sendbuf, (size_t)sendcount, NULL, NULL, 0, st, 1);
    if (!rc)
        rc = stage(&out, recvbuf, (size_t)recvcount * (size_t)c->peers, recvcounts, displs, c->peers, rt, 0);
    if (!rc)
        rc = skiff_inter_allgather(sdata(&in), skiff_type_packed_size(st, (size_t)sendcount), sdata(&out),
                                   skiff_type_packed_size(rt, (size_t)recvcount), out.is_v ? out.v.bc : NULL,
                                   out.is_v ? out.v.bd : NULL, c, NULL);
    unstage(&in, 0);
    unstage(&out, !rc);
    return done(comm, rc);
}

int skiff_mpi_inter_alltoall(const void *sendbuf, int sendcount, const int *sendcounts, const int *sdispls,
                             MPI_Datatype sendtype, void *recvbuf, int recvcount, const int *recvcounts,
                             const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct iside in = {0}, out = {0};
    int rc = get(comm, &c);
    if (!rc)
        rc = sendcounts ? check_vbuf(sendbuf, c->peers, sendcounts, sdispls, sendtype, "sendbuf", "sendcounts",
                                     "sdispls", &st)
                        : check_buf(sendbuf, sendcount, sendtype, "sendbuf", &st);
    if (!rc)
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, rdispls, recvtype, "recvbuf", "recvcounts",
                                     "rdispls", &rt)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &rt);
    size_t n = rc ? 0 : (size_t)c->peers;
    if (!rc)
        rc = stage(&in, sendbuf, (size_t)sendcount * n, sendcounts, sdispls, c->peers, st, 1);
    if (!rc)
        rc = stage(&out, recvbuf, (size_t)recvcount * n, recvcounts, rdispls, c->peers, rt, 0);
    if (!rc)
        rc = skiff_inter_alltoall(sdata(&in), skiff_type_packed_size(st, (size_t)sendcount),
                                  in.is_v ? in.v.bc : NULL, in.is_v ? in.v.bd : NULL, sdata(&out),
                                  skiff_type_packed_size(rt, (size_t)recvcount), out.is_v ? out.v.bc : NULL,
                                  out.is_v ? out.v.bd : NULL, c, NULL);
    unstage(&in, 0);
    unstage(&out, !rc);
    return done(comm, rc);
}

int skiff_mpi_inter_refuse(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    int rc = get(comm, &c);
    return done(comm, rc ? rc : skiff_check_intra(c));
}
