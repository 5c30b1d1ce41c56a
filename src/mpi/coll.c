/* The collective calls: argument checks, MPI_IN_PLACE, counts in bytes; then src/coll does the work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/op.h"
#include "core/progress.h"
#include "mpi/coll_stage.h"
#include "mpi/inter_coll.h"
#include "mpi/mpi_impl.h"

/* Checks a (count, datatype) pair of a collective. */
static int check_block(int count, MPI_Datatype dt, const struct skiff_type **t)
{
    int rc = skiff_check_count(count);
    return rc ? rc : skiff_check_dtype(dt, 1, t);
}

/* One side of a transfer: count, datatype, and the buffer of count elements. */
static int check_side(const void *buf, int count, MPI_Datatype dt, const char *name, const struct skiff_type **t)
{
    int rc = check_block(count, dt, t);
    return rc ? rc : skiff_check_named_buf(buf, (size_t)count, *t, name);
}

static int check_root(const struct skiff_comm *c, int root)
{
    if (SKIFF_LIKELY(root >= 0 && root < c->size))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ROOT, "invalid root %d (communicator %s has %d ranks)", root, skiff_comm_label(c),
                     c->size);
}

/* MPI forbids aliasing an output buffer with another argument; the same address for both buffers is
 * the usual slip for MPI_IN_PLACE, and is all that is tested: partly overlapping buffers are rarer, and
 * with non-contiguous datatypes may legally interleave. NULL is MPI_BOTTOM, where the datatypes say
 * where data goes. names: "sendbuf and recvbuf"; fix: what to do instead. */
static int check_alias(const void *a, const void *b, int nonempty, const char *names, const char *fix)
{
    if (SKIFF_LIKELY(a != b || !a || !nonempty))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_BUFFER, "%s are the same address %p: %s", names, a, fix);
}

#define SEND_RECV "sendbuf and recvbuf"
#define FIX_SENDBUF "pass MPI_IN_PLACE as sendbuf instead"
#define FIX_RECVBUF "pass MPI_IN_PLACE as recvbuf instead"

/* What a rooted call (gather, scatter, reduce) knows once its common checks pass. */
struct rooted {
    struct skiff_comm *c;
    int is_root;
    int in_place; /* the root gave MPI_IN_PLACE for its own block */
};

/* The checks every rooted call starts with. own: the buffer of this rank's block (sendbuf; recvbuf
 * for scatter), which only the root may give as MPI_IN_PLACE; all: the root's buffer for every
 * rank's blocks, which never may be. */
static int check_rooted(MPI_Comm comm, int root, const void *own, const void *all, int scatter, struct rooted *x)
{
    const char *own_name = scatter ? "recvbuf" : "sendbuf", *all_name = scatter ? "sendbuf" : "recvbuf";
    int rc = skiff_check_comm(comm, &x->c);
    if (!rc)
        rc = check_root(x->c, root);
    if (rc)
        return rc;
    x->is_root = x->c->rank == root;
    x->in_place = own == MPI_IN_PLACE;
    if (SKIFF_UNLIKELY(x->in_place && !x->is_root))
        return skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which only the root (rank %d) may give; this is rank %d",
                         own_name, root, x->c->rank);
    if (SKIFF_UNLIKELY(x->is_root && all == MPI_IN_PLACE))
        return skiff_err(MPI_ERR_BUFFER, "%s cannot be MPI_IN_PLACE; at the root pass MPI_IN_PLACE as %s", all_name,
                         own_name);
    return MPI_SUCCESS;
}

/* What a reduction runs on: count elements of dt, starting at the data of the buffers. A user op
 * takes the user's datatype as it is; a predefined op on a derived type runs on its basic type, of
 * which an element of the user's type holds scale. */
struct red {
    size_t count;
    MPI_Datatype dt;
    ptrdiff_t shift; /* from the user's buffer to the first byte of data */
    const struct skiff_type *t; /* the user's datatype */
    size_t scale;
};

static int check_reduction(int count, MPI_Datatype dt, MPI_Op op, struct red *red)
{
    const struct skiff_type *t = NULL;
    int rc = check_block(count, dt, &t);
    if (!rc)
        rc = skiff_op_check(op, dt);
    if (rc)
        return rc;
    if (SKIFF_UNLIKELY(!t->contiguous && !t->predefined))
        return skiff_err(MPI_ERR_UNSUPPORTED_OPERATION, "skiff reduces only contiguous datatypes, and this derived "
                         "one has %zu bytes of data in an extent of %td (a limitation of skiff, not an error of the "
                         "program)", t->size, t->extent);
    int basic = !t->predefined && !skiff_op_user(op);
    size_t scale = basic ? t->nbasic : 1;
    *red = (struct red){(size_t)count * scale, basic ? t->basic : dt, t->true_lb, t, scale};
    return MPI_SUCCESS;
}

/* The buffers of a reduction every rank receives from: recvbuf holds out elements, sendbuf in (or is
 * MPI_IN_PLACE: its data is in recvbuf). */
static int check_red_bufs(const void *sendbuf, const void *recvbuf, size_t in, size_t out, const struct red *red)
{
    int rc = skiff_check_not_in_place(recvbuf, "recvbuf");
    if (!rc && sendbuf == MPI_IN_PLACE)
        return skiff_check_named_buf(recvbuf, in > out ? in : out, red->t, "recvbuf");
    if (!rc)
        rc = skiff_check_named_buf(sendbuf, in, red->t, "sendbuf");
    if (!rc)
        rc = skiff_check_named_buf(recvbuf, out, red->t, "recvbuf");
    return rc ? rc : check_alias(sendbuf, recvbuf, in && out, SEND_RECV, FIX_SENDBUF);
}

static const void *shifted(const void *buf, const struct red *red)
{
    return buf == MPI_IN_PLACE || buf == NULL ? buf : (const char *)buf + red->shift;
}

/* The checks of allreduce and scan, where every rank gives and receives count elements. */
static int check_each_reduces(const void *sendbuf, const void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm, struct skiff_comm **c, struct red *red)
{
    int rc;
    if ((rc = skiff_check_comm(comm, c)) || (rc = check_reduction(count, dt, op, red)))
        return rc;
    return check_red_bufs(sendbuf, recvbuf, (size_t)count, (size_t)count, red);
}

/* Where a rank's contribution starts: with MPI_IN_PLACE, in recvbuf. */
static const void *red_input(const void *sendbuf, const void *recvbuf, const struct red *red)
{
    return shifted(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, red);
}

/* Which side of a v-variant gives each rank's count in an array (its entry is named in messages). */
enum vcounts { V_NONE, V_SEND, V_RECV };

/* A block as sent must match the block the receiver expects for it: sendcount (or sendcounts[i]) and
 * sendtype against recvcount (or recvcounts[i]) and recvtype. */
static int check_match(size_t sent, size_t expected, enum vcounts v, int i)
{
    if (SKIFF_LIKELY(sent == expected))
        return MPI_SUCCESS;
    char s[32] = "sendcount", r[32] = "recvcount";
    if (v != V_NONE)
        snprintf(v == V_SEND ? s : r, sizeof s, "%s[%d]", v == V_SEND ? "sendcounts" : "recvcounts", i);
    return skiff_err(MPI_ERR_TRUNCATE, "%s and sendtype give %zu bytes, %s and recvtype %zu bytes (the type "
                                       "signatures must match)", s, sent, r, expected);
}

static size_t packed(const struct skiff_type *t, int count)
{
    return skiff_type_packed_size(t, (size_t)count);
}

/* One side of a transfer as the user gave it; the checks set t. */
struct side {
    const void *buf;
    int count;
    MPI_Datatype dt;
    const struct skiff_type *t;
};

/* The same for a side with per-rank counts and displacements; the checks set t and total. */
struct vside {
    const void *buf;
    const int *counts, *displs;
    MPI_Datatype dt;
    const struct skiff_type *t;
    size_t total;
};

static int check_vside(struct vside *v, int n, const char *buf_name, const char *counts_name,
                       const char *displs_name)
{
    int rc = skiff_check_counts(n, v->counts, counts_name, &v->total);
    if (!rc)
        rc = skiff_check_array(n, v->displs, displs_name);
    if (!rc)
        rc = skiff_check_dtype(v->dt, 1, &v->t);
    return rc ? rc : skiff_check_named_buf(v->buf, v->total, v->t, buf_name);
}

/* The root's side of a gather or scatter: count elements for every rank, or with v (the v-variants)
 * v->counts[i] at v->displs[i]. *mine: the count of the root's own block. */
static int check_root_blocks(struct side *all, struct vside *v, const struct skiff_comm *c, int scatter, int *mine)
{
    const char *name = scatter ? "sendbuf" : "recvbuf";
    int rc;
    if (v) {
        rc = check_vside(v, c->size, name, scatter ? "sendcounts" : "recvcounts", "displs");
        all->t = v->t;
        *mine = rc ? 0 : v->counts[c->rank];
        return rc;
    }
    *mine = all->count;
    rc = check_block(all->count, all->dt, &all->t);
    return rc ? rc : skiff_check_named_buf(all->buf, (size_t)all->count * (size_t)c->size, all->t, name);
}

/* The checks of gather and scatter, which mirror each other: own is this rank's block (gather: sent;
 * scatter: received), all (or v) the root's blocks for every rank. */
static int check_rooted_blocks(struct side *own, struct side *all, struct vside *v, int root, MPI_Comm comm,
                               int scatter, struct rooted *x)
{
    int mine = 0, rc = check_rooted(comm, root, own->buf, all->buf, scatter, x);
    if (!rc && !x->in_place)
        rc = check_side(own->buf, own->count, own->dt, scatter ? "recvbuf" : "sendbuf", &own->t);
    if (rc || !x->is_root)
        return rc;
    rc = check_root_blocks(all, v, x->c, scatter, &mine);
    if (rc || x->in_place)
        return rc;
    rc = check_alias(own->buf, all->buf, own->count > 0 && mine > 0, SEND_RECV, scatter ? FIX_RECVBUF : FIX_SENDBUF);
    if (rc)
        return rc;
    size_t own_bytes = packed(own->t, own->count), root_bytes = packed(all->t, mine);
    enum vcounts vc = !v ? V_NONE : scatter ? V_SEND : V_RECV;
    return scatter ? check_match(root_bytes, own_bytes, vc, x->c->rank)
                   : check_match(own_bytes, root_bytes, vc, x->c->rank);
}

/* The checks of allgather and alltoall: every rank receives (never in place) and sends (unless
 * sendbuf is MPI_IN_PLACE) blocks of the same signature. */
static int check_all_blocks(struct side *s, struct side *r, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = skiff_check_comm(comm, c);
    if (!rc)
        rc = skiff_check_not_in_place(r->buf, "recvbuf");
    if (!rc)
        rc = check_side(r->buf, r->count, r->dt, "recvbuf", &r->t);
    if (rc || s->buf == MPI_IN_PLACE)
        return rc;
    rc = check_side(s->buf, s->count, s->dt, "sendbuf", &s->t);
    if (!rc)
        rc = check_alias(s->buf, r->buf, s->count > 0 && r->count > 0, SEND_RECV, FIX_SENDBUF);
    return rc ? rc : check_match(packed(s->t, s->count), packed(r->t, r->count), V_NONE, 0);
}

/* The request pointer of a nonblocking call: checked before anything starts, so an error leaks nothing. */
static int check_request(MPI_Comm comm, const MPI_Request *request)
{
    int rc = skiff_check_ptr(request, "request");
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

/* The profiler's message size for a call with two sides: this rank's block on side a, or on side b
 * when buffer a is MPI_IN_PLACE (the standard then ignores a's count and type). */
static size_t prof_block(const void *a, int acount, MPI_Datatype atype, int bcount, MPI_Datatype btype)
{
    return a == MPI_IN_PLACE ? skiff_prof_bytes(bcount, btype) : skiff_prof_bytes(acount, atype);
}

/* ------------------------------------------------------------------------------------------------ */

int PMPI_Barrier(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Barrier);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_barrier(comm);
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_coll_barrier(c, NULL);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Barrier)

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Ibarrier);
    SKIFF_REQUIRE_INIT();
    int rc = check_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_coll_barrier(c, &r);
    if (rc)
        return skiff_fail(comm, rc);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Ibarrier)

/* A nonblocking broadcast of a non-contiguous type unpacks when it completes. */
static void unpack_on_complete(struct skiff_request *r)
{
    struct skiff_stage *st = r->cookie;
    skiff_stage_done(st, 1);
    free(st);
    r->cookie = NULL;
}

static void free_on_complete(struct skiff_request *r)
{
    struct skiff_stage *st = r->cookie;
    skiff_stage_done(st, 0);
    free(st);
    r->cookie = NULL;
}

static int bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_root(c, root)) ||
        (rc = skiff_check_not_in_place(buf, "buffer")) || (rc = check_side(buf, count, dt, "buffer", &t)))
        return skiff_fail(comm, rc);
    struct skiff_stage *st = malloc(sizeof *st);
    if (!st)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory"));
    rc = c->rank == root ? skiff_stage_send(st, buf, (size_t)count, t)
                         : skiff_stage_recv(st, buf, (size_t)count, t, -1, 0);
    if (!rc)
        rc = skiff_coll_bcast(st->data, packed(t, count), root, c, r);
    int unpack = c->rank != root;
    if (!rc && r && st->tmp && (*r)->state != SKIFF_RS_DONE) {
        /* The packed copy must outlive the call: the request finishes with it. */
        (*r)->cookie = st;
        (*r)->on_complete = unpack ? unpack_on_complete : free_on_complete;
        return MPI_SUCCESS;
    }
    skiff_stage_done(st, unpack && !rc);
    free(st);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Bcast);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_bcast(buffer, count, datatype, root, comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return bcast(buffer, count, datatype, root, comm, NULL);
}
SKIFF_ALIAS(MPI_Bcast)

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Ibcast);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = check_request(comm, request);
    if (!rc)
        rc = bcast(buffer, count, datatype, root, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}
SKIFF_ALIAS(MPI_Ibcast)

static int reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                  struct skiff_request **r)
{
    struct rooted x = {0};
    struct red red;
    int rc = check_rooted(comm, root, sendbuf, recvbuf, 0, &x);
    if (!rc)
        rc = check_reduction(count, dt, op, &red);
    if (!rc)
        rc = x.is_root ? check_red_bufs(sendbuf, recvbuf, (size_t)count, (size_t)count, &red)
                       : skiff_check_named_buf(sendbuf, (size_t)count, red.t, "sendbuf");
    if (rc)
        return skiff_fail(comm, rc);
    if (x.in_place)
        sendbuf = recvbuf;
    rc = skiff_coll_reduce(shifted(sendbuf, &red), (void *)shifted(recvbuf, &red), red.count, red.dt, op, root, x.c,
                           r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Reduce);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}
SKIFF_ALIAS(MPI_Reduce)

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Ireduce);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = check_request(comm, request);
    if (!rc)
        rc = reduce(sendbuf, recvbuf, count, datatype, op, root, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}
SKIFF_ALIAS(MPI_Ireduce)

static int allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                     struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    struct red red;
    int rc = check_each_reduces(sendbuf, recvbuf, count, dt, op, comm, &c, &red);
    if (rc)
        return skiff_fail(comm, rc);
    rc = skiff_coll_allreduce(red_input(sendbuf, recvbuf, &red), (void *)shifted(recvbuf, &red), red.count, red.dt,
                              op, c, r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Allreduce);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}
SKIFF_ALIAS(MPI_Allreduce)

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Iallreduce);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = check_request(comm, request);
    if (!rc)
        rc = allreduce(sendbuf, recvbuf, count, datatype, op, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}
SKIFF_ALIAS(MPI_Iallreduce)

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct rooted x = {0};
    struct side own = {sendbuf, sendcount, sendtype, NULL}, all = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER(MPI_Gather);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm);
    SKIFF_PROFILE_MSG(prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = check_rooted_blocks(&own, &all, NULL, root, comm, 0, &x);
    if (!rc && !x.in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, own.t);
    if (!rc && x.is_root)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * (size_t)x.c->size, all.t, x.in_place ? root : -1,
                              (size_t)recvcount);
    if (!rc)
        rc = skiff_coll_gather(x.in_place ? NULL : in.data,
                               x.is_root ? packed(all.t, recvcount) : packed(own.t, sendcount), out.data, root, x.c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Gather)

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct rooted x = {0};
    struct side own = {sendbuf, sendcount, sendtype, NULL}, all = {recvbuf, 0, recvtype, NULL};
    struct vside v = {recvbuf, recvcounts, displs, recvtype, NULL, 0};
    struct skiff_stage in = {0};
    struct skiff_vstage out = {0};
    SKIFF_ENTER(MPI_Gatherv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root,
                                      comm);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(recvcounts, recvtype, comm)
                                                : skiff_prof_bytes(sendcount, sendtype));
    int rc = check_rooted_blocks(&own, &all, &v, root, comm, 0, &x);
    if (!rc && x.is_root)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, displs, x.c->size, all.t, x.in_place ? 2 : 0, root);
    if (!rc && !x.in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, own.t);
    if (!rc)
        rc = skiff_coll_gatherv(x.in_place ? NULL : in.data, x.in_place ? 0 : packed(own.t, sendcount), out.data,
                                out.bc, out.bd, root, x.c);
    skiff_stage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Gatherv)

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct rooted x = {0};
    struct side own = {recvbuf, recvcount, recvtype, NULL}, all = {sendbuf, sendcount, sendtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER(MPI_Scatter);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm);
    SKIFF_PROFILE_MSG(prof_block(recvbuf, recvcount, recvtype, sendcount, sendtype));
    int rc = check_rooted_blocks(&own, &all, NULL, root, comm, 1, &x);
    if (!rc && x.is_root)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount * (size_t)x.c->size, all.t);
    if (!rc && !x.in_place)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount, own.t, -1, 0);
    if (!rc)
        rc = skiff_coll_scatter(in.data, x.is_root ? packed(all.t, sendcount) : packed(own.t, recvcount),
                                x.in_place ? NULL : out.data, root, x.c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Scatter)

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct rooted x = {0};
    struct side own = {recvbuf, recvcount, recvtype, NULL}, all = {sendbuf, 0, sendtype, NULL};
    struct vside v = {sendbuf, sendcounts, displs, sendtype, NULL, 0};
    struct skiff_vstage in = {0};
    struct skiff_stage out = {0};
    SKIFF_ENTER(MPI_Scatterv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_scatter(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm);
    SKIFF_PROFILE_MSG(recvbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(sendcounts, sendtype, comm)
                                                : skiff_prof_bytes(recvcount, recvtype));
    int rc = check_rooted_blocks(&own, &all, &v, root, comm, 1, &x);
    if (!rc && x.is_root)
        rc = skiff_vstage_init(&in, sendbuf, sendcounts, displs, x.c->size, all.t, 1, -1);
    if (!rc && !x.in_place)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount, own.t, -1, 0);
    if (!rc)
        rc = skiff_coll_scatterv(in.data, in.bc, in.bd, x.in_place ? NULL : out.data,
                                 x.in_place ? 0 : packed(own.t, recvcount), root, x.c);
    skiff_vstage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Scatterv)

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct side s = {sendbuf, sendcount, sendtype, NULL}, r = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER(MPI_Allgather);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm);
    SKIFF_PROFILE_MSG(prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = check_all_blocks(&s, &r, comm, &c);
    if (!rc && !in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, s.t);
    if (!rc)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * (size_t)c->size, r.t, in_place ? c->rank : -1,
                              (size_t)recvcount);
    if (!rc)
        rc = skiff_coll_allgather(in_place ? NULL : in.data, packed(r.t, recvcount), out.data, c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Allgather)

/* The receive side of allgatherv and alltoallv: every rank's count at its displacement, never in place. */
static int check_vrecv(struct vside *r, const char *displs_name, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = skiff_check_comm(comm, c);
    if (!rc)
        rc = skiff_check_not_in_place(r->buf, "recvbuf");
    return rc ? rc : check_vside(r, (*c)->size, "recvbuf", "recvcounts", displs_name);
}

static int check_allgatherv(struct side *s, struct vside *r, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = check_vrecv(r, "displs", comm, c);
    if (rc || s->buf == MPI_IN_PLACE)
        return rc;
    rc = check_side(s->buf, s->count, s->dt, "sendbuf", &s->t);
    if (!rc)
        rc = check_alias(s->buf, r->buf, s->count > 0 && r->total > 0, SEND_RECV, FIX_SENDBUF);
    int me = (*c)->rank;
    return rc ? rc : check_match(packed(s->t, s->count), packed(r->t, r->counts[me]), V_RECV, me);
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct side s = {sendbuf, sendcount, sendtype, NULL};
    struct vside r = {recvbuf, recvcounts, displs, recvtype, NULL, 0};
    struct skiff_stage in = {0};
    struct skiff_vstage out = {0};
    SKIFF_ENTER(MPI_Allgatherv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(recvcounts, recvtype, comm)
                                                : skiff_prof_bytes(sendcount, sendtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = check_allgatherv(&s, &r, comm, &c);
    if (!rc)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, displs, c->size, r.t, in_place ? 2 : 0, c->rank);
    if (!rc && !in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, s.t);
    if (!rc)
        rc = skiff_coll_allgatherv(in_place ? NULL : in.data, out.bc[c->rank], out.data, out.bc, out.bd, c);
    skiff_stage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Allgatherv)

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct side s = {sendbuf, sendcount, sendtype, NULL}, r = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    void *copy = NULL;
    SKIFF_ENTER(MPI_Alltoall);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                                        recvtype, comm);
    SKIFF_PROFILE_MSG(prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = check_all_blocks(&s, &r, comm, &c);
    if (rc)
        return skiff_fail(comm, rc);
    size_t n = (size_t)c->size, all = packed(r.t, recvcount) * n;
    rc = in_place ? skiff_stage_send(&in, recvbuf, (size_t)recvcount * n, r.t)
                  : skiff_stage_send(&in, sendbuf, (size_t)sendcount * n, s.t);
    if (!rc && in_place && !in.tmp) { /* every block is both sent and overwritten: send from a copy */
        if (!(copy = malloc(all + 1)))
            rc = skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for an in-place alltoall", all);
        else
            in.data = memcpy(copy, in.data, all);
    }
    if (!rc)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * n, r.t, -1, 0);
    if (!rc)
        rc = skiff_coll_alltoall(in.data, packed(r.t, recvcount), out.data, c);
    free(copy);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alltoall)

/* Block signatures are not compared: each pair's counts live on two different ranks. */
static int check_alltoallv(struct vside *s, struct vside *r, MPI_Comm comm, struct skiff_comm **c)
{
    int rc = check_vrecv(r, "rdispls", comm, c);
    if (rc || s->buf == MPI_IN_PLACE)
        return rc;
    rc = check_vside(s, (*c)->size, "sendbuf", "sendcounts", "sdispls");
    return rc ? rc : check_alias(s->buf, r->buf, s->total > 0 && r->total > 0, SEND_RECV, FIX_SENDBUF);
}

/* In place and contiguous: every block is both sent and overwritten, so send from a copy of the span. */
static int copy_span(struct skiff_vstage *in, int n, void **copy)
{
    size_t end = 0;
    for (int i = 0; i < n; i++)
        end = in->bd[i] + in->bc[i] > end ? in->bd[i] + in->bc[i] : end;
    if (!(*copy = malloc(end + 1)))
        return skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for an in-place alltoallv", end);
    in->data = memcpy(*copy, in->data, end);
    return MPI_SUCCESS;
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct vside s = {sendbuf, sendcounts, sdispls, sendtype, NULL, 0};
    struct vside r = {recvbuf, recvcounts, rdispls, recvtype, NULL, 0};
    struct skiff_vstage in = {0}, out = {0};
    void *copy = NULL;
    SKIFF_ENTER(MPI_Alltoallv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_alltoall(sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts, rdispls,
                                        recvtype, comm);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_vbytes(recvcounts, recvtype, comm)
                                                : skiff_prof_vbytes(sendcounts, sendtype, comm));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = check_alltoallv(&s, &r, comm, &c);
    if (rc)
        return skiff_fail(comm, rc);
    rc = in_place ? skiff_vstage_init(&in, recvbuf, recvcounts, rdispls, c->size, r.t, 1, -1)
                  : skiff_vstage_init(&in, sendbuf, sendcounts, sdispls, c->size, s.t, 1, -1);
    if (!rc)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, rdispls, c->size, r.t, 0, -1);
    if (!rc && in_place && !in.tmp)
        rc = copy_span(&in, c->size, &copy);
    if (!rc)
        rc = skiff_coll_alltoallv(in.data, in.bc, in.bd, out.data, out.bc, out.bd, c);
    free(copy);
    skiff_vstage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alltoallv)

/* counts: each rank's count (MPI_Reduce_scatter), or NULL for `block` elements each (the _block
 * variant). */
static int check_reduce_scatter(const void *sendbuf, const void *recvbuf, const int counts[], int block,
                                MPI_Datatype dt, MPI_Op op, const struct skiff_comm *c, struct red *red)
{
    size_t total = (size_t)block * (size_t)c->size;
    int rc = counts ? skiff_check_counts(c->size, counts, "recvcounts", &total) : skiff_check_count(block);
    if (!rc)
        rc = check_reduction(0, dt, op, red);
    if (rc)
        return rc;
    size_t mine = counts ? (size_t)counts[c->rank] : (size_t)block;
    return check_red_bufs(sendbuf, recvbuf, total, mine, red);
}

static int reduce_scatter(const void *sendbuf, void *recvbuf, const int counts[], int block, MPI_Datatype dt,
                          MPI_Op op, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct red red;
    size_t *sc = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_reduce_scatter(sendbuf, recvbuf, counts, block, dt, op, c, &red);
    if (!rc && (sc = malloc((size_t)c->size * sizeof *sc)) == NULL)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size);
    for (int i = 0; !rc && i < c->size; i++)
        sc[i] = (size_t)(counts ? counts[i] : block) * red.scale;
    if (!rc)
        rc = skiff_coll_reduce_scatter(sendbuf == MPI_IN_PLACE ? NULL : shifted(sendbuf, &red),
                                       (void *)shifted(recvbuf, &red), sc, red.dt, op, c);
    free(sc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Reduce_scatter);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, 0, recvcounts, datatype, op, comm);
    SKIFF_PROFILE_MSG(skiff_prof_vbytes(recvcounts, datatype, comm));
    int rc = skiff_check_ptr(recvcounts, "recvcounts");
    return rc ? skiff_fail(comm, rc) : reduce_scatter(sendbuf, recvbuf, recvcounts, 0, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter)

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Reduce_scatter_block);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, recvcount, NULL, datatype, op, comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(recvcount, datatype));
    return reduce_scatter(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter_block)

static int scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int excl)
{
    struct skiff_comm *c = NULL;
    struct red red;
    int rc = check_each_reduces(sendbuf, recvbuf, count, dt, op, comm, &c, &red);
    if (rc)
        return skiff_fail(comm, rc);
    rc = skiff_coll_scan(red_input(sendbuf, recvbuf, &red), (void *)shifted(recvbuf, &red), red.count, red.dt, op,
                         excl, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Scan);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_refuse(comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 0);
}
SKIFF_ALIAS(MPI_Scan)

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Exscan);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_refuse(comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 1);
}
SKIFF_ALIAS(MPI_Exscan)

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    struct red red;
    SKIFF_ENTER(MPI_Reduce_local);
    SKIFF_REQUIRE_INIT();
    int rc = check_reduction(count, datatype, op, &red);
    if (!rc)
        rc = skiff_check_not_in_place(inbuf, "inbuf");
    if (!rc)
        rc = skiff_check_not_in_place(inoutbuf, "inoutbuf");
    if (!rc)
        rc = skiff_check_named_buf(inbuf, (size_t)count, red.t, "inbuf");
    if (!rc)
        rc = skiff_check_named_buf(inoutbuf, (size_t)count, red.t, "inoutbuf");
    if (!rc)
        rc = check_alias(inbuf, inoutbuf, count > 0, "inbuf and inoutbuf", "MPI_Reduce_local has no in-place form");
    if (rc)
        return skiff_fail_world(rc);
    skiff_op_apply(op, shifted(inbuf, &red), (void *)shifted(inoutbuf, &red), red.count, red.dt);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Reduce_local)
