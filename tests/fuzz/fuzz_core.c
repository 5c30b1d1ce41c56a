/* libFuzzer target for the core's message decoder (skiff_core_incoming): the skiff_hdr and payload
 * that every transport hands up, whatever a peer wrote into a shared-memory cell or a tcp frame.
 *
 * The library is compiled in whole; rank 0 of a 2-rank world talks to a fake rank 1 whose transport
 * swallows what we send. The input is a script: post receives (exact or wildcard, small or larger
 * than the eager limit), start sends, deliver headers "from rank 1" (types, lengths, offsets and
 * request ids either raw or aimed at our live requests), cancel, probe, progress. ASan watches every
 * copy into the receive buffers. A protocol error is the library's correct answer to a bad header:
 * skiff_abort_job is wrapped to jump back here, and the script ends as the job would. Each input
 * starts from fresh request, matching and pending-send state. Leak detection is off (-detect_leaks=0):
 * after a protocol error the job ends, so what it held then is not a leak; leaks on the normal paths
 * are the ASan suite's and valgrind's to find. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/core.h"
#include "core/match.h"
#include "core/pt2pt.h"
#include "core/request.h"
#include "util/config.h"

#define MAX_REQS 16
#define MAX_MSG (70 * 1024) /* beyond max_eager and one piece */
#define PIECE 16384

static jmp_buf on_abort;
static int full; /* the fake transport refuses sends (the core must defer them) */

_Noreturn void __wrap_skiff_abort_job(int code, const char *why);
_Noreturn void __wrap_skiff_abort_job(int code, const char *why)
{
    (void)code, (void)why;
    longjmp(on_abort, 1);
}

void __wrap_skiff_log_write(int level, const char *fmt, ...);
void __wrap_skiff_log_write(int level, const char *fmt, ...)
{
    (void)level, (void)fmt; /* every bad header would print a line */
}

static int fake_send(int peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    (void)peer, (void)h, (void)payload, (void)len;
    return full ? -11 /* -EAGAIN */ : 0;
}

static int fake_progress(void)
{
    return 0;
}

static const struct skiff_transport fake = {
    .name = "fuzz", .send = fake_send, .progress = fake_progress, .max_eager = 4096, .max_piece = PIECE};
static const struct skiff_transport *peers[2] = {NULL, &fake};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    skiff_config_load();
    skiff.rank = 0;
    skiff.size = 2;
    skiff.peer_tr = peers;
    skiff_comm_init_predefined(0, 2);
    if (skiff_pt2pt_init() != 0)
        abort();
    skiff.initialized = 1;
    return 0;
}

struct script {
    const uint8_t *p;
    size_t n;
};

static uint64_t take(struct script *s, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && s->n; i++, s->p++, s->n--)
        v |= (uint64_t)*s->p << (8 * i);
    return v;
}

static struct {
    struct skiff_request *req[MAX_REQS];
    void *buf[MAX_REQS];
    int n;
} live;

static const unsigned char source[MAX_MSG];

static void post_recv(struct script *s)
{
    if (live.n == MAX_REQS)
        return;
    size_t bytes = take(s, 2) % MAX_MSG;
    int how = (int)take(s, 1);
    int src = how & 1 ? 1 : how & 2 ? MPI_ANY_SOURCE : 0;
    int tag = how & 4 ? MPI_ANY_TAG : (how >> 3) & 3;
    uint32_t ctx = skiff_comm_world.ctx + (how >> 7); /* collectives use ctx + 1 */
    void *buf = malloc(bytes ? bytes : 1);
    struct skiff_request *r = NULL;
    if (!buf)
        return;
    live.buf[live.n] = buf; /* before the call: matching a stashed message may end the script */
    if (skiff_recv_start(buf, bytes, src, tag, &skiff_comm_world, ctx, &r) == MPI_SUCCESS) {
        live.req[live.n++] = r;
    } else {
        free(buf);
        live.buf[live.n] = NULL;
    }
}

static void start_send(struct script *s)
{
    if (live.n == MAX_REQS)
        return;
    size_t bytes = take(s, 2) % MAX_MSG;
    int how = (int)take(s, 1);
    struct skiff_request *r = NULL;
    if (skiff_send_start(source, bytes, 1, how & 3, &skiff_comm_world, skiff_comm_world.ctx,
                         how & 4 ? SKIFF_SEND_SYNC : SKIFF_SEND_STANDARD, 0, &r) == MPI_SUCCESS &&
        r) {
        live.req[live.n] = r;
        live.buf[live.n++] = NULL;
    }
}

/* A request id: raw from the input, or one of ours (live or already completed). */
static uint64_t request_id(struct script *s)
{
    uint8_t pick = (uint8_t)take(s, 1);
    if (pick < 64 || live.n == 0)
        return take(s, 8);
    return skiff_req_id(live.req[pick % live.n]);
}

static void deliver(struct script *s)
{
    static unsigned char payload[MAX_MSG];
    uint8_t shape = (uint8_t)take(s, 1);
    struct skiff_hdr h = {.version = SKIFF_PROTO_VERSION};
    h.type = shape & 0x80 ? (uint8_t)take(s, 1) : (uint8_t)(1 + shape % 6);
    h.flags = (uint8_t)(shape >> 3 & 1);
    h.src = shape & 0x40 ? (int32_t)take(s, 4) : 1;
    h.tag = (int32_t)(take(s, 1) & 3);
    h.ctx = skiff_comm_world.ctx + (shape >> 4 & 1);
    h.len = shape & 0x20 ? take(s, 8) : take(s, 3) % MAX_MSG;
    h.sreq = request_id(s);
    h.rreq = request_id(s);
    h.aux = shape & 4 ? take(s, 8) : take(s, 2) * 64;
    size_t plen = h.type == SKIFF_MSG_EAGER || h.type == SKIFF_MSG_DATA ? (size_t)(h.len % MAX_MSG) : 0;
    if (shape & 2) /* a payload that disagrees with the header */
        plen = take(s, 2) % MAX_MSG;
    size_t have = plen < s->n ? plen : s->n;
    memcpy(payload, s->p, have);
    s->p += have, s->n -= have;
    skiff_core_incoming(1, &h, payload, plen);
}

static void cancel_one(struct script *s)
{
    if (live.n) {
        struct skiff_request *r = live.req[take(s, 1) % live.n];
        if (r->kind == SKIFF_REQ_RECV && r->state == SKIFF_RS_POSTED)
            skiff_cancel_recv(r);
    }
}

static void probe(struct script *s)
{
    MPI_Status st;
    (void)take(s, 1);
    skiff_probe_once(MPI_ANY_SOURCE, MPI_ANY_TAG, &skiff_comm_world, &st);
}

static void run(struct script *s)
{
    while (s->n) {
        switch (take(s, 1) % 7) {
        case 0: post_recv(s); break;
        case 1: start_send(s); break;
        case 2: case 3: deliver(s); break;
        case 4: skiff_pt2pt_progress(); break;
        case 5: cancel_one(s); break;
        default: full = !full; probe(s); break;
        }
    }
}

/* Drops everything the script built: the next input starts from scratch. */
static void reset(void)
{
    skiff_pt2pt_finalize();
    skiff_match_finalize();
    skiff_req_finalize();
    if (skiff_pt2pt_init() != 0) /* the deferred-send queues exist from init on, as in MPI_Init */
        abort();
    for (int i = 0; i <= live.n && i < MAX_REQS; i++)
        free(live.buf[i]);
    memset(&live, 0, sizeof live);
    full = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct script s = {data, size};
    if (setjmp(on_abort) == 0)
        run(&s);
    reset();
    return 0;
}
