/* Partitioned point-to-point (MPI-4.0): MPI_Psend_init, MPI_Precv_init, MPI_Pready, MPI_Pready_range,
 * MPI_Pready_list, MPI_Parrived. Both requests are persistent: MPI_Start/Startall start them through the
 * request's start hook (mpi/persist.c, core/request.h), the completion calls treat them like any other
 * persistent request, nothing in Wait or Test knows about partitions.
 *
 * Built on the core's point-to-point messages, in a matching space of its own. Context ids stay below
 * 2^31 (core/ctxid.h), so the ids with the top bit set belong to no communicator: a communicator's
 * point-to-point id with that bit is where partitioned requests match (the "hello" below, tagged with
 * the user's tag), and its collective id with that bit carries their data. No user receive, not even
 * MPI_ANY_TAG, and no collective can take these messages, and partitioned requests never take theirs.
 *
 * Psend_init sends the receiver a hello (total bytes, partition count, first data tag); Precv_init posts
 * the receive for it at once, so inits match in init order by (comm, source, tag), as point-to-point
 * messages do. Each send partition is one message with its own tag (first data tag + partition), sent by
 * MPI_Pready itself: partitions leave as they become ready. The receiver, once it knows the sender's
 * partitions, posts one receive per send partition into the right place of its buffer, so the two sides
 * may cut the buffer differently; only the totals must agree. A receive partition has arrived when every
 * byte of it is in (MPI_Parrived). The sub-requests are allocated once and restarted each round. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"

#define PART_CTX_BIT 0x80000000u

/* What a receiver needs to know about the send it matched. */
struct hello {
    uint64_t bytes;
    int32_t parts;
    int32_t first_tag;
};

enum { F_READY = 1, F_DONE = 2 }; /* per partition: marked by Pready / its message gone or arrived */

struct part {
    void *ubuf;
    size_t count; /* elements per partition */
    const struct skiff_type *t;
    int parts;
    size_t pbytes, total; /* this side's bytes per partition, and in all */
    char *data;           /* where the bytes go out or come in: the user's buffer, or packed */
    void *packed;         /* a non-contiguous type's packed copy */
    uint8_t *flag;        /* per own partition */
    size_t *left;         /* receive: bytes still to come per own partition this round */
    struct skiff_request **sub; /* send: one per own partition; receive: one per send partition */
    int nsub, pending;          /* sub-operations not finished this round */
    /* receive side: the hello and what it said */
    struct skiff_request *hreq;
    struct hello hello;
    int matched, error;
};

/* Data tags: each Psend_init takes the next `partitions` tags, so tags of requests to one receiver never
 * coincide; they restart at 0 before passing INT_MAX (tags from 2^31 partitions ago are long done). */
static int next_tag;

static int take_tags(int parts)
{
    if (next_tag > INT_MAX - parts)
        next_tag = 0;
    int first = next_tag;
    next_tag += parts;
    return first;
}

static uint32_t hello_ctx(const struct skiff_comm *c)
{
    return c->ctx | PART_CTX_BIT;
}

static uint32_t data_ctx(const struct skiff_comm *c)
{
    return skiff_coll_ctx(c) | PART_CTX_BIT;
}

static void part_free(struct part *p)
{
    if (p->t)
        skiff_type_unref(p->t);
    free(p->packed);
    free(p->flag);
    free(p->left);
    free(p->sub);
    free(p);
}

/* A sub-request that may still be busy (a request freed while active at MPI_Finalize) goes to the
 * engine, which releases it when it ends; an idle one goes now. */
static void drop_sub(struct skiff_request *s)
{
    s->on_complete = NULL;
    if (s->state == SKIFF_RS_DONE || s->state == SKIFF_RS_IDLE)
        skiff_req_release(s);
    else
        s->freed = 1;
}

static void part_destroy(struct skiff_request *r)
{
    struct part *p = r->pdata;
    for (int i = 0; i < p->nsub; i++)
        if (p->sub[i])
            drop_sub(p->sub[i]);
    /* An unmatched hello receive stays posted (its send, if it ever comes, matched this request): it
     * takes the hello into nothing and goes away. */
    if (p->hreq && p->hreq->state == SKIFF_RS_POSTED) {
        p->hreq->on_complete = NULL;
        p->hreq->buf = NULL;
        p->hreq->bytes = 0;
        p->hreq->freed = 1;
    } else if (p->hreq) {
        skiff_req_release(p->hreq);
    }
    part_free(p);
    r->pdata = NULL;
    r->persist = NULL;
}

static void finish(struct skiff_request *r)
{
    r->state = SKIFF_RS_DONE;
}

/* One sub-operation of the round ended (its index i); the last one completes the request. */
static void sub_ended(struct skiff_request *r, struct part *p, int i, int err)
{
    p->flag[i] |= F_DONE;
    if (err && r->st_error == MPI_SUCCESS)
        r->st_error = err;
    if (--p->pending == 0)
        finish(r);
}

/* ---------------------------------------------------------------- send side */

static void send_sub_done(struct skiff_request *s)
{
    struct skiff_request *r = s->cookie;
    struct part *p = r->pdata;
    sub_ended(r, p, s->tag - p->hello.first_tag, s->st_error);
}

static int send_start(struct skiff_request *r)
{
    struct part *p = r->pdata;
    memset(p->flag, 0, (size_t)p->parts);
    p->pending = p->parts;
    r->st_error = MPI_SUCCESS;
    r->st_source = r->peer;
    r->st_tag = r->tag;
    r->st_bytes = p->total;
    r->state = SKIFF_RS_POSTED;
    if (r->peer == MPI_PROC_NULL || p->parts == 0)
        finish(r);
    return MPI_SUCCESS;
}

/* Partition i is ready: its message leaves now (or queues behind earlier ones to the same peer). */
static int send_partition(struct skiff_request *r, struct part *p, int i)
{
    p->flag[i] = F_READY;
    if (r->peer == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (p->packed)
        skiff_type_pack((const char *)p->ubuf + (ptrdiff_t)((size_t)i * p->count) * p->t->extent, p->count, p->t,
                        p->data + (size_t)i * p->pbytes);
    struct skiff_request *s = p->sub[i];
    int rc = skiff_send_restart(s, skiff_transport_for(r->world_peer), SKIFF_SEND_STANDARD);
    /* An eager message that left at once is complete without passing through on_complete. */
    if (!rc && s->state == SKIFF_RS_DONE && !(p->flag[i] & F_DONE))
        sub_ended(r, p, i, MPI_SUCCESS);
    return rc;
}

/* ---------------------------------------------------------------- receive side */

static void recv_sub_done(struct skiff_request *s);

/* Send partition j (bytes [j*sp, (j+1)*sp) of the whole) is in: the receive partitions it covers count
 * it, and each that is now complete has arrived. */
static void account(struct part *p, size_t off, size_t len)
{
    for (size_t i = off / p->pbytes; len && i < (size_t)p->parts; i++) {
        size_t end = (i + 1) * p->pbytes, take = end - off < len ? end - off : len;
        p->left[i] -= take;
        off += take;
        len -= take;
        if (p->left[i] == 0 && !(p->flag[i] & F_DONE)) {
            if (p->packed)
                skiff_type_unpack(p->data + i * p->pbytes, p->pbytes,
                                  (char *)p->ubuf + (ptrdiff_t)(i * p->count) * p->t->extent, p->count, p->t);
            p->flag[i] |= F_DONE;
        }
    }
}

static void recv_sub_done(struct skiff_request *s)
{
    struct skiff_request *r = s->cookie;
    struct part *p = r->pdata;
    size_t sp = (size_t)(p->hello.bytes / (uint64_t)p->hello.parts);
    int j = s->tag - p->hello.first_tag;
    if (p->pbytes)
        account(p, (size_t)j * sp, s->st_bytes);
    if (s->st_error && r->st_error == MPI_SUCCESS)
        r->st_error = s->st_error;
    if (--p->pending == 0)
        finish(r);
}

static void post_receives(struct part *p)
{
    for (int j = 0; j < p->nsub; j++)
        skiff_recv_restart(p->sub[j]);
}

/* The receive partitions that hold no bytes have arrived as soon as the round starts. */
static void reset_round(struct skiff_request *r, struct part *p)
{
    for (int i = 0; i < p->parts; i++) {
        p->left[i] = p->pbytes;
        p->flag[i] = p->pbytes ? 0 : F_DONE;
    }
    r->st_error = p->error;
    r->st_source = r->peer;
    r->st_tag = r->tag;
    r->st_bytes = p->total;
}

/* The matched send's partitions are known: one receive request per send partition, made once. */
static int make_receives(struct skiff_request *r, struct part *p)
{
    size_t sp = p->hello.parts ? (size_t)(p->hello.bytes / (uint64_t)p->hello.parts) : 0;
    if (!(p->sub = calloc((size_t)p->hello.parts + 1, sizeof *p->sub)))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %d partitions", p->hello.parts);
    for (int j = 0; j < p->hello.parts; j++) {
        struct skiff_request *s = skiff_req_alloc(SKIFF_REQ_RECV);
        if (!s)
            return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
        p->sub[p->nsub++] = s;
        s->comm = r->comm;
        s->peer = r->peer;
        s->tag = p->hello.first_tag + j;
        s->ctx = data_ctx(r->comm);
        s->buf = p->data + (size_t)j * sp;
        s->bytes = sp;
        s->state = SKIFF_RS_DONE;
        s->on_complete = recv_sub_done;
        s->cookie = r;
    }
    return MPI_SUCCESS;
}

/* The hello of the matching Psend_init is in: check the totals agree and, if a round is on, post the
 * data receives. */
static void hello_in(struct skiff_request *h)
{
    struct skiff_request *r = h->cookie;
    struct part *p = r->pdata;
    h->freed = 1; /* released by the engine as this returns */
    p->hreq = NULL;
    p->matched = 1;
    int sp_ok = p->hello.parts > 0 ? p->hello.bytes % (uint64_t)p->hello.parts == 0 : p->hello.bytes == 0;
    if (h->st_bytes != sizeof p->hello || p->hello.parts < 0 || !sp_ok || p->hello.bytes != p->total)
        p->error = skiff_err(MPI_ERR_TRUNCATE, "the partitioned send from rank %d, tag %d, has %llu bytes; the "
                             "partitioned receive it matched has %zu (the totals must be equal)", r->peer, r->tag,
                             (unsigned long long)p->hello.bytes, p->total);
    else
        p->error = make_receives(r, p);
    if (r->state != SKIFF_RS_POSTED)
        return;
    r->st_error = p->error;
    p->pending = p->nsub;
    if (p->error || p->pending == 0)
        finish(r);
    else
        post_receives(p);
}

static int recv_start(struct skiff_request *r)
{
    struct part *p = r->pdata;
    reset_round(r, p);
    r->state = SKIFF_RS_POSTED;
    if (r->peer == MPI_PROC_NULL) {
        r->st_source = MPI_PROC_NULL;
        r->st_tag = MPI_ANY_TAG;
        r->st_bytes = 0;
        memset(p->flag, F_DONE, (size_t)p->parts);
        finish(r);
    } else if (p->matched) {
        p->pending = p->nsub;
        if (p->error || p->pending == 0)
            finish(r);
        else
            post_receives(p);
    }
    return MPI_SUCCESS;
}

static const struct skiff_persist_ops send_ops = {"partitioned send", send_start, part_destroy},
                                      recv_ops = {"partitioned receive", recv_start, part_destroy};

/* ---------------------------------------------------------------- init */

static int check_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype dt, int peer, int tag,
                      MPI_Comm comm, MPI_Info info, int is_recv, const MPI_Request *request, struct skiff_comm **c,
                      const struct skiff_type **t)
{
    int rc;
    if ((rc = skiff_check_comm(comm, c)))
        return rc;
    if (partitions < 0)
        return skiff_err(MPI_ERR_ARG, "invalid partitions %d (must be >= 0)", partitions);
    if (count < 0 || count > INT_MAX)
        return skiff_err(MPI_ERR_COUNT, "invalid count %lld (must be 0..%d)", (long long)count, INT_MAX);
    if ((uint64_t)partitions * (uint64_t)count > (uint64_t)INT_MAX)
        return skiff_err(MPI_ERR_COUNT, "%d partitions of %lld elements are more than %d elements", partitions,
                         (long long)count, INT_MAX);
    if ((rc = skiff_check_p2p(buf, "buf", partitions * (int)count, dt, peer, tag, comm, is_recv, c, t)))
        return rc;
    if (is_recv && peer == MPI_ANY_SOURCE)
        return skiff_err(MPI_ERR_RANK, "source is MPI_ANY_SOURCE: a partitioned receive names its sender");
    if (is_recv && tag == MPI_ANY_TAG)
        return skiff_err(MPI_ERR_TAG, "tag is MPI_ANY_TAG: a partitioned receive names its tag");
    if ((rc = skiff_check_info(info)))
        return rc;
    return skiff_check_ptr(request, "request");
}

static struct part *part_new(void *buf, int partitions, size_t count, const struct skiff_type *t)
{
    struct part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->ubuf = buf;
    p->count = count;
    p->parts = partitions;
    p->pbytes = skiff_type_packed_size(t, count);
    p->total = p->pbytes * (size_t)partitions;
    int direct = t->contiguous || p->total == 0;
    p->packed = direct ? NULL : malloc(p->total);
    p->data = direct ? skiff_type_data(buf, t) : p->packed;
    p->flag = calloc((size_t)partitions + 1, 1);
    p->left = calloc((size_t)partitions + 1, sizeof *p->left);
    p->sub = calloc((size_t)partitions + 1, sizeof *p->sub);
    if (!p->flag || !p->left || !p->sub || (!direct && !p->packed)) {
        part_free(p);
        return NULL;
    }
    skiff_type_ref(t);
    p->t = t;
    return p;
}

static void free_hello(struct skiff_request *s)
{
    free(s->cookie);
    s->cookie = NULL;
}

/* The send's hello goes out at init, so sends match receives in init order. Its buffer is its own: a
 * deferred message still points at it after this returns. */
static int send_hello(struct skiff_request *r, const struct hello *h)
{
    struct hello *copy = malloc(sizeof *copy);
    struct skiff_request *s = NULL;
    if (!copy)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory");
    *copy = *h;
    int rc = skiff_send_start_then(copy, sizeof *copy, r->peer, r->tag, r->comm, hello_ctx(r->comm),
                                   SKIFF_SEND_STANDARD, 0, &(struct skiff_req_then){free_hello, copy, 1}, &s);
    if (rc)
        free(copy);
    return rc;
}

static int make_sends(struct skiff_request *r, struct part *p)
{
    for (int i = 0; i < p->parts; i++) {
        struct skiff_request *s = skiff_req_alloc(SKIFF_REQ_SEND);
        if (!s)
            return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
        p->sub[p->nsub++] = s;
        s->comm = r->comm;
        s->peer = r->peer;
        s->world_peer = r->world_peer;
        s->tag = p->hello.first_tag + i;
        s->ctx = data_ctx(r->comm);
        s->buf = p->data + (size_t)i * p->pbytes;
        s->bytes = p->pbytes;
        s->state = SKIFF_RS_DONE;
        s->on_complete = send_sub_done;
        s->cookie = r;
    }
    p->hello.bytes = p->total;
    p->hello.parts = p->parts;
    return send_hello(r, &p->hello);
}

static int make_recv_side(struct skiff_request *r, struct part *p)
{
    struct skiff_request *h = skiff_req_alloc(SKIFF_REQ_RECV);
    if (!h)
        return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
    free(p->sub); /* sized for the sender's partitions once its hello is in */
    p->sub = NULL;
    p->hreq = h;
    h->comm = r->comm;
    h->peer = r->peer;
    h->tag = r->tag;
    h->ctx = hello_ctx(r->comm);
    h->buf = &p->hello;
    h->bytes = sizeof p->hello;
    h->on_complete = hello_in;
    h->cookie = r;
    skiff_recv_restart(h); /* may take a hello already here, and call hello_in at once */
    return MPI_SUCCESS;
}

static int make(void *buf, int partitions, MPI_Count count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                MPI_Info info, int is_recv, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = check_init(buf, partitions, count, dt, peer, tag, comm, info, is_recv, request, &c, &t);
    if (rc)
        return skiff_fail(comm, rc);
    struct part *p = part_new(buf, partitions, (size_t)count, t);
    struct skiff_request *r = p ? skiff_req_alloc(SKIFF_REQ_COLL) : NULL;
    if (!r) {
        if (p)
            part_free(p);
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory for a partitioned request of %d partitions",
                                          partitions));
    }
    r->comm = c;
    r->peer = peer;
    r->world_peer = peer >= 0 ? skiff_comm_world_rank(c, peer) : -1;
    r->tag = tag;
    r->state = SKIFF_RS_IDLE;
    r->persist = is_recv ? &recv_ops : &send_ops;
    r->pdata = p;
    if (peer != MPI_PROC_NULL) {
        p->hello.first_tag = is_recv ? 0 : take_tags(partitions);
        rc = is_recv ? make_recv_side(r, p) : make_sends(r, p);
    }
    if (rc) {
        skiff_req_destroy(r);
        return skiff_fail(comm, rc);
    }
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER(MPI_Psend_init);
    SKIFF_REQUIRE_INIT();
    return make((void *)buf, partitions, count, datatype, dest, tag, comm, info, 0, request);
}
SKIFF_ALIAS(MPI_Psend_init)

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER(MPI_Precv_init);
    SKIFF_REQUIRE_INIT();
    return make(buf, partitions, count, datatype, source, tag, comm, info, 1, request);
}
SKIFF_ALIAS(MPI_Precv_init)

/* ---------------------------------------------------------------- Pready, Parrived */

/* The request behind h, a live partitioned request of the kind ops says; active unless inactive_ok. */
static int part_req(MPI_Request h, const struct skiff_persist_ops *ops, struct skiff_request **out)
{
    struct skiff_request *r = h == MPI_REQUEST_NULL ? NULL : skiff_req_of(h);
    unsigned long long bits = (unsigned long long)(uintptr_t)h;
    if (h == MPI_REQUEST_NULL)
        return skiff_err(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
    if (!r || r->freed)
        return skiff_err(MPI_ERR_REQUEST, "request %#llx is not a live request (already freed, or never created)",
                         bits);
    if (r->persist != ops)
        return skiff_err(MPI_ERR_REQUEST, "request %#llx is not a %s (made by %s)", bits, ops->what,
                         ops == &send_ops ? "MPI_Psend_init" : "MPI_Precv_init");
    *out = r;
    return MPI_SUCCESS;
}

static int check_partition(const struct part *p, int i, const char *name)
{
    if (i >= 0 && i < p->parts)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ARG, "%s %d is out of range (the request has %d partitions, 0..%d)", name, i, p->parts,
                     p->parts - 1);
}

/* A partition Pready may mark: in range, not yet marked this round, of an active request. */
static int check_ready(struct skiff_request *r, int i, const char *name)
{
    struct part *p = r->pdata;
    if (r->state == SKIFF_RS_IDLE)
        return skiff_err(MPI_ERR_REQUEST, "the partitioned send is not active: call MPI_Start before MPI_Pready");
    int rc = check_partition(p, i, name);
    if (!rc && (p->flag[i] & F_READY))
        rc = skiff_err(MPI_ERR_ARG, "partition %d is already marked ready in this round", i);
    return rc;
}

/* The checks every Pready call makes before marking anything. */
static int ready_req(MPI_Request request, struct skiff_request **r)
{
    int rc = part_req(request, &send_ops, r);
    return rc ? skiff_fail_world(rc) : MPI_SUCCESS;
}

int PMPI_Pready(int partition, MPI_Request request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Pready);
    SKIFF_REQUIRE_INIT();
    int rc = ready_req(request, &r);
    if (rc)
        return rc;
    if (!(rc = check_ready(r, partition, "partition")))
        rc = send_partition(r, r->pdata, partition);
    return rc ? skiff_err_handle(r->comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pready)

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Pready_range);
    SKIFF_REQUIRE_INIT();
    int rc = ready_req(request, &r);
    if (rc)
        return rc;
    if (partition_low > partition_high)
        rc = skiff_err(MPI_ERR_ARG, "partition_low %d is above partition_high %d", partition_low, partition_high);
    for (int i = partition_low; !rc && i <= partition_high; i++)
        rc = check_ready(r, i, "partition");
    for (int i = partition_low; !rc && i <= partition_high; i++)
        rc = send_partition(r, r->pdata, i);
    return rc ? skiff_err_handle(r->comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pready_range)

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Pready_list);
    SKIFF_REQUIRE_INIT();
    int rc = ready_req(request, &r);
    if (rc)
        return rc;
    struct part *p = r->pdata;
    if (length < 0)
        rc = skiff_err(MPI_ERR_ARG, "invalid length %d (must be >= 0)", length);
    else
        rc = skiff_check_array(length, array_of_partitions, "array_of_partitions");
    /* Checked (and repeats found, through the ready marks) before any partition leaves. */
    int marked = 0;
    for (; !rc && marked < length; marked++) {
        char name[48];
        snprintf(name, sizeof name, "array_of_partitions[%d] =", marked);
        if ((rc = check_ready(r, array_of_partitions[marked], name)))
            break;
        p->flag[array_of_partitions[marked]] |= F_READY;
    }
    for (int k = 0; rc && k < marked; k++)
        p->flag[array_of_partitions[k]] &= (uint8_t)~F_READY;
    for (int k = 0; !rc && k < length; k++)
        rc = send_partition(r, p, array_of_partitions[k]);
    return rc ? skiff_err_handle(r->comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pready_list)

/* MPI allows a null or inactive request here, with flag true. */
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Parrived);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(flag, "flag");
    if (!rc && request != MPI_REQUEST_NULL)
        rc = part_req(request, &recv_ops, &r);
    if (!rc && r)
        rc = check_partition(r->pdata, partition, "partition");
    if (rc)
        return r ? skiff_err_handle(r->comm, rc) : skiff_fail_world(rc);
    if (!r || r->state == SKIFF_RS_IDLE) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct part *p = r->pdata;
    if (!(p->flag[partition] & F_DONE))
        skiff_progress();
    *flag = (p->flag[partition] & F_DONE) != 0;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Parrived)

/* Not in MPI-5.0 (the base forms already take an MPI_Count), but declared by the Forum's ABI header: the
 * same calls under the _c names, so a program built against that header links and runs. */
int PMPI_Psend_init_c(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER(MPI_Psend_init_c);
    SKIFF_REQUIRE_INIT();
    return make((void *)buf, partitions, count, datatype, dest, tag, comm, info, 0, request);
}
SKIFF_ALIAS(MPI_Psend_init_c)

int PMPI_Precv_init_c(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    SKIFF_ENTER(MPI_Precv_init_c);
    SKIFF_REQUIRE_INIT();
    return make(buf, partitions, count, datatype, source, tag, comm, info, 1, request);
}
SKIFF_ALIAS(MPI_Precv_init_c)
