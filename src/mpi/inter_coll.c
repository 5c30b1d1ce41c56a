#include "mpi/inter_coll.h"

#include <stdlib.h>

#include "coll/inter.h"
#include "core/op.h"
#include "mpi/coll_stage.h"
#include "mpi/mpi_impl.h"
#include "mpi/red_stage.h"

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

/* The communicator, and for a nonblocking call (request not NULL) the place for its request. */
static int get(MPI_Comm comm, struct skiff_comm **c, MPI_Request *request, struct skiff_request ***r,
               struct skiff_request **slot)
{
    *r = request ? slot : NULL;
    return skiff_check_comm(comm, c);
}

static int done(MPI_Comm comm, int rc, MPI_Request *request, struct skiff_request *r)
{
    if (rc)
        return skiff_fail(comm, rc);
    if (request)
        *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

int skiff_mpi_inter_barrier(MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct skiff_request *slot = NULL, **r;
    int rc = get(comm, &c, request, &r, &slot);
    if (!rc)
        rc = skiff_inter_barrier(c, r);
    return done(comm, rc, request, slot);
}

/* Staging of one side: count elements of t at buf (send: packed now; receive: unpacked at the end),
 * or per remote process counts[i] at displs[i] (v). */
struct iside {
    struct skiff_stage st;
    struct skiff_vstage v;
    const struct skiff_type *t; /* held: the user may free it before a nonblocking call completes */
    int is_v, used;
};

/* Both sides of a call: on the heap, since a nonblocking call's packed copies outlive it. */
struct staged {
    struct iside in, out;
};

static int stage(struct iside *s, const void *buf, size_t count, const struct skiff_cnts *counts,
                 const struct skiff_dsps *displs, int n, const struct skiff_type *t, int sending)
{
    s->used = 1;
    s->is_v = counts != NULL;
    s->t = t;
    skiff_type_ref(t);
    if (s->is_v)
        return skiff_vstage_init(&s->v, buf, *counts, *displs, n, t, sending ? 1 : 0, -1);
    return sending ? skiff_stage_send(&s->st, buf, count, t) : skiff_stage_recv(&s->st, (void *)buf, count, t, -1, 0);
}

static void *sdata(const struct iside *s)
{
    return !s->used ? NULL : s->is_v ? s->v.data : s->st.data;
}

static const size_t *scounts(const struct iside *s)
{
    return s->used && s->is_v ? s->v.bc : NULL;
}

static const size_t *sdispls(const struct iside *s)
{
    return s->used && s->is_v ? s->v.bd : NULL;
}

static void unstage(struct iside *s, int unpack)
{
    if (s->used && s->is_v)
        skiff_vstage_done(&s->v, unpack);
    else if (s->used)
        skiff_stage_done(&s->st, unpack);
    if (s->used)
        skiff_type_unref(s->t);
}

static void unstage_both(struct staged *x, int ok)
{
    unstage(&x->in, 0);
    unstage(&x->out, ok);
    free(x);
}

static void unstage_on_complete(struct skiff_request *r)
{
    unstage_both(r->cookie, !r->st_error);
    r->cookie = NULL;
}

static int new_staged(struct staged **x)
{
    *x = calloc(1, sizeof **x);
    return *x ? MPI_SUCCESS : skiff_err(MPI_ERR_NO_MEM, "out of memory");
}

/* After the schedule started: the received data is unpacked and the copies freed now (blocking, or
 * already complete), else when the request completes. */
static int finish(MPI_Comm comm, int rc, struct staged *x, MPI_Request *request, struct skiff_request *r)
{
    if (!x)
        return done(comm, rc, request, r);
    if (!rc && r && r->state != SKIFF_RS_DONE) {
        r->cookie = x;
        r->on_complete = unstage_on_complete;
    } else {
        unstage_both(x, !rc);
    }
    return done(comm, rc, request, r);
}

int skiff_mpi_inter_bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    struct skiff_request *slot = NULL, **r;
    struct staged *x = NULL;
    int rc = get(comm, &c, request, &r, &slot);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root != MPI_PROC_NULL)
        rc = check_buf(buf, count, dt, "buffer", &t);
    if (!rc)
        rc = new_staged(&x);
    if (!rc && root != MPI_PROC_NULL)
        rc = stage(root == MPI_ROOT ? &x->in : &x->out, buf, (size_t)count, NULL, NULL, 0, t, root == MPI_ROOT);
    if (!rc)
        rc = skiff_inter_bcast(root == MPI_ROOT ? sdata(&x->in) : sdata(&x->out),
                               t ? skiff_type_packed_size(t, (size_t)count) : 0, root, c, r);
    return finish(comm, rc, x, request, slot);
}

/* A reduction's operands as the schedules take them: count elements of a basic type (a predefined op
 * on a contiguous derived type runs on the basic type it is made of), from the data's first byte. */
struct ired {
    size_t count;
    MPI_Datatype dt;
    ptrdiff_t shift;
    const struct skiff_type *t;
};

static int check_red(MPI_Count count, MPI_Datatype dt, MPI_Op op, struct ired *r)
{
    const struct skiff_type *t = NULL;
    int rc = skiff_check_count(count);
    if (!rc)
        rc = skiff_check_dtype(dt, 1, &t);
    if (!rc)
        rc = skiff_op_check(op, dt);
    if (rc)
        return rc;
    if (SKIFF_UNLIKELY(!t->contiguous && !t->predefined && skiff_op_user(op))) /* see skiff_ck_reduction */
        return skiff_err(MPI_ERR_UNSUPPORTED_OPERATION, "skiff applies a user-defined op only to contiguous "
                         "datatypes, and this derived one has %zu bytes of data in an extent of %td (a limitation "
                         "of skiff, not an error of the program)", t->size, t->extent);
    int basic = !t->predefined && !skiff_op_user(op);
    *r = (struct ired){(size_t)count * (basic ? t->nbasic : 1), basic ? t->basic : dt, t->true_lb, t};
    return MPI_SUCCESS;
}

static void *at(const void *buf, const struct ired *r)
{
    return buf ? (char *)buf + r->shift : NULL;
}

/* A predefined op on a non-contiguous datatype runs on staged copies of the data (mpi/red_stage.h):
 * *sendbuf and *recvbuf are replaced by them, and *st holds them until red_done. in, out: the elements
 * this process gives and gets. */
static int red_stage(struct ired *r, MPI_Datatype dt, const void **sendbuf, void **recvbuf, size_t in, size_t out,
                     struct skiff_red_stage **st)
{
    *st = NULL;
    if (!r->t || r->t->contiguous || r->t->predefined)
        return MPI_SUCCESS;
    struct skiff_red red = {r->count, r->dt, r->shift, r->t, r->dt == dt ? 1 : r->t->nbasic};
    if (!(*st = malloc(sizeof **st)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory");
    int rc = skiff_red_stage(&red, sendbuf, recvbuf, in, out, 0, *st);
    if (rc) {
        free(*st);
        *st = NULL;
        return rc;
    }
    r->shift = 0;
    return MPI_SUCCESS;
}

static void red_unstage(struct skiff_red_stage *st, int ok)
{
    skiff_red_unstage(st, ok);
    free(st);
}

static void red_unstage_on_complete(struct skiff_request *q)
{
    red_unstage(q->cookie, !q->st_error);
    q->cookie = NULL;
}

/* As finish, for the staged copies of a reduction. */
static int red_done(MPI_Comm comm, int rc, struct skiff_red_stage *st, MPI_Request *request, struct skiff_request *q)
{
    if (st && !rc && q && q->state != SKIFF_RS_DONE) {
        q->cookie = st;
        q->on_complete = red_unstage_on_complete;
    } else if (st) {
        red_unstage(st, !rc);
    }
    return done(comm, rc, request, q);
}

static int check_red_buf(const void *buf, MPI_Count count, const struct ired *r, const char *name)
{
    if (SKIFF_UNLIKELY(buf == MPI_IN_PLACE))
        return skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which intercommunicator collectives do not take", name);
    return skiff_check_named_buf(buf, (size_t)count, r->t, name);
}

int skiff_mpi_inter_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                           MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct ired r = {0, dt, 0, NULL};
    struct skiff_request *slot = NULL, **q;
    int rc = get(comm, &c, request, &q, &slot);
    if (!rc)
        rc = check_root(c, root);
    if (!rc && root != MPI_PROC_NULL)
        rc = check_red(count, dt, op, &r);
    struct skiff_red_stage *st = NULL;
    if (!rc && root == MPI_ROOT)
        rc = check_red_buf(recvbuf, count, &r, "recvbuf");
    else if (!rc && root >= 0)
        rc = check_red_buf(sendbuf, count, &r, "sendbuf");
    if (!rc && root != MPI_PROC_NULL)
        rc = red_stage(&r, dt, &sendbuf, &recvbuf, root == MPI_ROOT ? 0 : (size_t)count,
                       root == MPI_ROOT ? (size_t)count : 0, &st);
    if (!rc)
        rc = skiff_inter_reduce(at(sendbuf, &r), at(recvbuf, &r), r.count, r.dt, op, root, c, q);
    return red_done(comm, rc, st, request, slot);
}

int skiff_mpi_inter_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct ired r;
    struct skiff_request *slot = NULL, **q;
    int rc = get(comm, &c, request, &q, &slot);
    if (!rc)
        rc = check_red(count, dt, op, &r);
    if (!rc)
        rc = check_red_buf(sendbuf, count, &r, "sendbuf");
    if (!rc)
        rc = check_red_buf(recvbuf, count, &r, "recvbuf");
    struct skiff_red_stage *st = NULL;
    if (!rc)
        rc = red_stage(&r, dt, &sendbuf, &recvbuf, (size_t)count, (size_t)count, &st);
    if (!rc)
        rc = skiff_inter_allreduce(at(sendbuf, &r), at(recvbuf, &r), r.count, r.dt, op, c, q);
    return red_done(comm, rc, st, request, slot);
}

int skiff_mpi_inter_reduce_scatter(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                   const MPI_Count *recvcounts, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                   MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct ired r;
    size_t total = 0, *counts = NULL;
    struct skiff_request *slot = NULL, **q;
    int rc = get(comm, &c, request, &q, &slot);
    if (!rc)
        rc = recvcounts ? skiff_check_lcounts(c->size, recvcounts, "recvcounts", &total)
                        : skiff_check_count(recvcount);
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
    struct skiff_red_stage *st = NULL;
    if (!rc)
        rc = red_stage(&r, dt, &sendbuf, &recvbuf, total, counts[c->rank], &st);
    for (int i = 0; !rc && i < c->size; i++)
        counts[i] *= scale;
    if (!rc)
        rc = skiff_inter_reduce_scatter(at(sendbuf, &r), at(recvbuf, &r), counts, r.dt, op, c, q);
    free(counts); /* the schedule took the sizes it needs */
    return red_done(comm, rc, st, request, slot);
}

int skiff_mpi_inter_gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, const struct skiff_cnts *recvcounts, const struct skiff_dsps *displs,
                           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    struct skiff_request *slot = NULL, **r;
    struct staged *x = NULL;
    size_t bytes = 0;
    int rc = get(comm, &c, request, &r, &slot);
    if (!rc)
        rc = check_root(c, root);
    if (!rc)
        rc = new_staged(&x);
    if (!rc && root == MPI_ROOT) {
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, displs, recvtype, "recvbuf", "recvcounts",
                                     "displs", &t)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &t);
        if (!rc)
            rc = stage(&x->out, recvbuf, (size_t)recvcount * (size_t)c->peers, recvcounts, displs, c->peers, t, 0);
        bytes = t ? skiff_type_packed_size(t, (size_t)recvcount) : 0;
    } else if (!rc && root >= 0) {
        rc = check_buf(sendbuf, sendcount, sendtype, "sendbuf", &t);
        if (!rc)
            rc = stage(&x->in, sendbuf, (size_t)sendcount, NULL, NULL, 0, t, 1);
        bytes = t ? skiff_type_packed_size(t, (size_t)sendcount) : 0;
    }
    if (!rc)
        rc = skiff_inter_gather(sdata(&x->in), bytes, sdata(&x->out), scounts(&x->out), sdispls(&x->out), root, c, r);
    return finish(comm, rc, x, request, slot);
}

int skiff_mpi_inter_scatter(const void *sendbuf, MPI_Count sendcount, const struct skiff_cnts *sendcounts,
                            const struct skiff_dsps *displs, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    struct skiff_request *slot = NULL, **r;
    struct staged *x = NULL;
    size_t bytes = 0;
    int rc = get(comm, &c, request, &r, &slot);
    if (!rc)
        rc = check_root(c, root);
    if (!rc)
        rc = new_staged(&x);
    if (!rc && root == MPI_ROOT) {
        rc = sendcounts ? check_vbuf(sendbuf, c->peers, sendcounts, displs, sendtype, "sendbuf", "sendcounts",
                                     "displs", &t)
                        : check_buf(sendbuf, sendcount, sendtype, "sendbuf", &t);
        if (!rc)
            rc = stage(&x->in, sendbuf, (size_t)sendcount * (size_t)c->peers, sendcounts, displs, c->peers, t, 1);
        bytes = t ? skiff_type_packed_size(t, (size_t)sendcount) : 0;
    } else if (!rc && root >= 0) {
        rc = check_buf(recvbuf, recvcount, recvtype, "recvbuf", &t);
        if (!rc)
            rc = stage(&x->out, recvbuf, (size_t)recvcount, NULL, NULL, 0, t, 0);
        bytes = t ? skiff_type_packed_size(t, (size_t)recvcount) : 0;
    }
    if (!rc)
        rc = skiff_inter_scatter(sdata(&x->in), scounts(&x->in), sdispls(&x->in), sdata(&x->out), bytes, root, c, r);
    return finish(comm, rc, x, request, slot);
}

int skiff_mpi_inter_allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, const struct skiff_cnts *recvcounts,
                              const struct skiff_dsps *displs, MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_request *slot = NULL, **r;
    struct staged *x = NULL;
    int rc = get(comm, &c, request, &r, &slot);
    if (!rc)
        rc = check_buf(sendbuf, sendcount, sendtype, "sendbuf", &st);
    if (!rc)
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, displs, recvtype, "recvbuf", "recvcounts",
                                     "displs", &rt)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &rt);
    if (!rc)
        rc = new_staged(&x);
    if (!rc)
        rc = stage(&x->in, sendbuf, (size_t)sendcount, NULL, NULL, 0, st, 1);
    if (!rc)
        rc = stage(&x->out, recvbuf, (size_t)recvcount * (size_t)c->peers, recvcounts, displs, c->peers, rt, 0);
    if (!rc)
        rc = skiff_inter_allgather(sdata(&x->in), skiff_type_packed_size(st, (size_t)sendcount), sdata(&x->out),
                                   skiff_type_packed_size(rt, (size_t)recvcount), scounts(&x->out),
                                   sdispls(&x->out), c, r);
    return finish(comm, rc, x, request, slot);
}

int skiff_mpi_inter_alltoall(const void *sendbuf, MPI_Count sendcount, const struct skiff_cnts *sendcounts,
                             const struct skiff_dsps *sdispls_, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, const struct skiff_cnts *recvcounts,
                             const struct skiff_dsps *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_request *slot = NULL, **r;
    struct staged *x = NULL;
    int rc = get(comm, &c, request, &r, &slot);
    if (!rc)
        rc = sendcounts ? check_vbuf(sendbuf, c->peers, sendcounts, sdispls_, sendtype, "sendbuf", "sendcounts",
                                     "sdispls", &st)
                        : check_buf(sendbuf, sendcount, sendtype, "sendbuf", &st);
    if (!rc)
        rc = recvcounts ? check_vbuf(recvbuf, c->peers, recvcounts, rdispls, recvtype, "recvbuf", "recvcounts",
                                     "rdispls", &rt)
                        : check_buf(recvbuf, recvcount, recvtype, "recvbuf", &rt);
    size_t n = rc ? 0 : (size_t)c->peers;
    if (!rc)
        rc = new_staged(&x);
    if (!rc)
        rc = stage(&x->in, sendbuf, (size_t)sendcount * n, sendcounts, sdispls_, c->peers, st, 1);
    if (!rc)
        rc = stage(&x->out, recvbuf, (size_t)recvcount * n, recvcounts, rdispls, c->peers, rt, 0);
    if (!rc)
        rc = skiff_inter_alltoall(sdata(&x->in), skiff_type_packed_size(st, (size_t)sendcount), scounts(&x->in),
                                  sdispls(&x->in), sdata(&x->out), skiff_type_packed_size(rt, (size_t)recvcount),
                                  scounts(&x->out), sdispls(&x->out), c, r);
    return finish(comm, rc, x, request, slot);
}

int skiff_mpi_inter_refuse(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    int rc = skiff_check_comm(comm, &c);
    return rc ? skiff_fail(comm, rc) : skiff_fail(comm, skiff_check_intra(c));
}
