/* The call tracer's recorder: a buffer of fixed-size records (core/trace_format.h), filled by the
 * profiler's span (calls) and the core's hooks (messages), written to one file per rank at
 * MPI_Finalize. When the buffer fills, recording stops there for good: the call under way is marked
 * truncated, the file says so, and what was kept is still written. */
#include "core/trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/comm.h"
#include "core/core.h"
#include "core/transports.h"
#include "core/node.h"
#include "core/request.h"
#include "core/trace_format.h"
#include "core/profile_calls.h"
#include "util/config.h"
#include "util/log.h"

int skiff_trace_on; /* read and written with relaxed atomics: threads may record at once */

static struct {
    int enabled;                  /* SKIFF_TRACE=1, between MPI_Init and MPI_Finalize */
    int truncated;
    struct skiff_trace_rec *rec;
    size_t n, max;
    uint64_t start;               /* ns, CLOCK_MONOTONIC, at the end of MPI_Init */
    unsigned epoch;               /* this trace's number: a communicator announced in it holds it */
} tr;
/* The open CALL record of this thread's outermost call, or -1 (per thread: under MPI_THREAD_MULTIPLE
 * another thread's call may run while this one waits). */
static __thread long tr_cur __attribute__((tls_model("initial-exec"))) = -1;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now(void)
{
    return mono_ns() - tr.start;
}

static void set_on(int on)
{
    __atomic_store_n(&skiff_trace_on, on, __ATOMIC_RELAXED);
}

/* k free records, or NULL: then the buffer is full and recording ends here. Threads that record at once
 * each reserve their own records (a compare-and-swap, paid only while tracing), so the buffer never
 * holds a record nobody wrote: every one below tr.n was reserved whole. */
static struct skiff_trace_rec *take(size_t k)
{
    size_t n = __atomic_load_n(&tr.n, __ATOMIC_RELAXED);
    do {
        if (SKIFF_UNLIKELY(n + k > tr.max)) {
            if (!__atomic_exchange_n(&tr.truncated, 1, __ATOMIC_RELAXED) && tr_cur >= 0)
                tr.rec[tr_cur].flags |= SKIFF_TRF_TRUNCATED;
            set_on(0);
            return NULL;
        }
    } while (!__atomic_compare_exchange_n(&tr.n, &n, n + k, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    struct skiff_trace_rec *r = &tr.rec[n];
    memset(r, 0, k * sizeof *r);
    return r;
}

int skiff_trace_init(void)
{
    if (!skiff_cfg.trace)
        return 0;
    tr.max = skiff_cfg.trace_records;
    tr.rec = malloc(tr.max * sizeof *tr.rec); /* untouched pages cost nothing */
    if (!tr.rec) {
        skiff_error("trace: no memory for %zu records; not tracing", tr.max);
        return -1;
    }
    tr.n = 0;
    tr_cur = -1;
    tr.truncated = 0;
    tr.start = mono_ns();
    tr.enabled = 1;
    tr.epoch++;
    set_on(1);
    return 0;
}

void skiff_trace_pause(void)
{
    if (!tr.enabled)
        return;
    /* MPI_Pcontrol(0)'s own call ends here: its span will see recording off. */
    skiff_trace_call_end(SKIFF_PC_MPI_Pcontrol);
    set_on(0);
}

void skiff_trace_resume(void)
{
    if (tr.enabled && !tr.truncated)
        set_on(1);
}

void skiff_trace_call_begin(void)
{
    if (!skiff_tracing())
        return;
    struct skiff_trace_rec *r = take(1);
    if (!r) {
        tr_cur = -1;
        return;
    }
    r->kind = SKIFF_TR_CALL;
    r->peer = -1;
    r->t = now();
    tr_cur = r - tr.rec;
}

void skiff_trace_call_end(int call)
{
    if (tr_cur < 0)
        return;
    struct skiff_trace_rec *r = &tr.rec[tr_cur];
    r->call = (uint16_t)call;
    r->x = now();
    tr_cur = -1;
}

void skiff_trace_call_bytes(size_t bytes)
{
    if (tr_cur >= 0)
        tr.rec[tr_cur].bytes += bytes;
}

void skiff_trace_call_root(int root)
{
    if (tr_cur >= 0)
        tr.rec[tr_cur].peer = root;
}

/* Announces c (its context id, size and members' world ranks) the first time a record of this trace
 * names it. The mark is kept in the communicator, not in a table by context id that threads would have
 * to grow under each other: a new communicator comes from a pool that zeroes it, so it is unmarked and
 * announced even where it reuses an old context id (after a second MPI_Init). Two threads that name it
 * at once may both announce it; the same record twice changes nothing for the reader. */
static int announce(struct skiff_comm *c)
{
    if (__atomic_load_n(&c->trace_epoch, __ATOMIC_RELAXED) == tr.epoch)
        return 0;
    int n = c->peers;
    struct skiff_trace_rec *r = take(1 + ((size_t)n + 8) / 9);
    if (!r)
        return -1;
    __atomic_store_n(&c->trace_epoch, tr.epoch, __ATOMIC_RELAXED);
    r->kind = SKIFF_TR_COMM;
    r->comm = c->ctx;
    r->peer = n;
    r->tag = c->rank;
    r->t = now();
    for (int k = 0; k < n; k += 9) {
        struct skiff_trace_members *m = (struct skiff_trace_members *)&r[1 + k / 9];
        m->kind = SKIFF_TR_MEMBERS;
        m->n = (uint8_t)(n - k < 9 ? n - k : 9);
        for (int j = 0; j < m->n; j++)
            m->rank[j] = skiff_comm_world_rank(c, k + j);
    }
    return 0;
}

/* A message record inside the open call (messages outside any recorded call are not kept). */
static struct skiff_trace_rec *msg_rec(struct skiff_comm *c, int kind)
{
    if (tr_cur < 0 || (c && announce(c)))
        return NULL;
    struct skiff_trace_rec *r = take(1);
    if (r) {
        r->kind = (uint8_t)kind;
        r->t = now();
    }
    return r;
}

void skiff_trace_send(struct skiff_comm *c, uint32_t ctx, int world_peer, int tag, size_t bytes,
                      const struct skiff_request *req, int rndv, int sync)
{
    struct skiff_trace_rec *r = msg_rec(c, SKIFF_TR_SEND);
    if (!r)
        return;
    r->peer = world_peer;
    r->tag = tag;
    r->comm = ctx;
    r->bytes = bytes;
    r->x = req ? skiff_req_id(req) : 0;
    r->flags = (uint8_t)((rndv ? SKIFF_TRF_RNDV : 0) | (sync ? SKIFF_TRF_SYNC : 0));
}

void skiff_trace_recv(const struct skiff_request *q)
{
    struct skiff_trace_rec *r = msg_rec(q->comm, SKIFF_TR_RECV);
    if (!r)
        return;
    r->peer = q->peer == MPI_ANY_SOURCE ? -1 : skiff_comm_world_rank(q->comm, q->peer);
    r->tag = q->tag == MPI_ANY_TAG ? -1 : q->tag;
    r->comm = q->ctx;
    r->bytes = q->bytes;
    r->x = skiff_req_id(q);
}

void skiff_trace_done(const struct skiff_request *q)
{
    /* A request the program freed completes unseen: nothing waited for it. One released without having
     * completed (an inactive persistent request given to MPI_Request_free) carries no message. */
    if ((q->kind != SKIFF_REQ_SEND && q->kind != SKIFF_REQ_RECV && q->kind != SKIFF_REQ_COLL) || q->freed ||
        q->state != SKIFF_RS_DONE)
        return;
    struct skiff_trace_rec *r = msg_rec(NULL, SKIFF_TR_DONE);
    if (!r)
        return;
    r->x = skiff_req_id(q);
    r->comm = q->ctx;
    r->peer = -1;
    if (q->kind == SKIFF_REQ_RECV) {
        r->flags = SKIFF_TRF_RECV;
        r->peer = q->world_peer;
        r->tag = q->st_tag;
        r->bytes = q->st_bytes;
    }
}

void skiff_trace_coll(struct skiff_comm *c, int tag, const struct skiff_request *req)
{
    struct skiff_trace_rec *r = msg_rec(c, SKIFF_TR_COLL);
    if (!r)
        return;
    r->comm = c->ctx;
    r->tag = tag;
    r->peer = c->rank;
    r->bytes = (uint64_t)c->size;
    r->x = req ? skiff_req_id(req) : 0;
    r->flags = req ? SKIFF_TRF_NONBLOCKING : 0;
}

void skiff_trace_sync(struct skiff_comm *c, int what, size_t bytes)
{
    struct skiff_trace_rec *r = msg_rec(c, SKIFF_TR_SYNC);
    if (!r)
        return;
    r->comm = c->ctx;
    r->peer = what;
    r->tag = c->size;
    r->bytes = bytes;
}

static const char *const call_names[SKIFF_PC_COUNT] = {
#define SKIFF_TR_NAME(name) #name,
    SKIFF_PROFILE_CALLS(SKIFF_TR_NAME)
#undef SKIFF_TR_NAME
};

/* skiff's mpiexec names the job (16 hex digits); a one-rank job, or one started by another launcher,
 * by rank 0's pid, which the other ranks do not know: they use their own job id then. */
static void prefix_of(char *out, size_t len)
{
    if (skiff_cfg.trace_file)
        snprintf(out, len, "%s", skiff_cfg.trace_file);
    else if (skiff_boot.jobid == (uint64_t)getpid())
        snprintf(out, len, "skiff-trace.%d", (int)getpid());
    else
        snprintf(out, len, "skiff-trace.%016llx", (unsigned long long)skiff_boot.jobid);
}

void skiff_trace_finalize(void)
{
    if (!tr.enabled)
        return;
    long fin = tr_cur;
    skiff_trace_call_end(SKIFF_PC_MPI_Finalize); /* MPI_Finalize's own record: where the trace ends */
    if (fin >= 0)
        tr.rec[fin].x = tr.rec[fin].t;
    set_on(0);
    tr.enabled = 0;
    struct skiff_trace_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, SKIFF_TRACE_MAGIC, sizeof h.magic);
    h.rank = (uint32_t)skiff.rank;
    h.size = (uint32_t)skiff.size;
    h.node = (uint32_t)skiff_node_of(skiff.rank);
    h.nnodes = (uint32_t)skiff_job_nodes();
    h.flags = tr.truncated ? SKIFF_TRACE_HEAD_TRUNCATED : 0;
    h.ncalls = SKIFF_PC_COUNT;
    h.nrecs = tr.n;
    h.max_recs = tr.max;
    h.jobid = skiff_boot.jobid;
    h.wall_ns = now();
    h.start_ns = tr.start;
    /* The replay simulator models pairs within a node and between nodes by these two. */
    h.shm_eager = skiff_transports_eager(SKIFF_REACH_NODE, 0);
    h.tcp_eager = skiff_transports_eager(SKIFF_REACH_ALL, skiff_cfg.tcp_eager);
    gethostname(h.host, sizeof h.host - 1);
    char prefix[4096], path[4200];
    prefix_of(prefix, sizeof prefix);
    snprintf(path, sizeof path, "%s.%d", prefix, skiff.rank);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(tr.rec, sizeof *tr.rec, tr.n, f) == tr.n;
    for (int i = 0; ok && i < SKIFF_PC_COUNT; i++)
        ok = fwrite(call_names[i], strlen(call_names[i]) + 1, 1, f) == 1;
    if (f && fclose(f))
        ok = 0;
    if (!ok)
        skiff_error("trace: cannot write %s: %s", path, strerror(errno));
    else if (skiff.rank == 0)
        fprintf(stderr, "skiff trace: %s.0 ... %s.%d (%zu records on rank 0%s); skiff-replay %s reads them\n",
                prefix, prefix, skiff.size - 1, tr.n,
                tr.truncated ? ", TRUNCATED: the buffer filled; SKIFF_TRACE_RECORDS raises it" : "", prefix);
    else if (tr.truncated)
        skiff_warn("trace: TRUNCATED after %zu records", tr.n);
    free(tr.rec);
    tr.rec = NULL;
}
