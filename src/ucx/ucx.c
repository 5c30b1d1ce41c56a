#include "ucx/ucx.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

#include "boot/boot.h"
#include "core/core.h"
#include "core/error.h"
#include "core/pt2pt.h"
#include "ucx/card.h"
#include "ucx/rma.h"
#include "util/config.h"
#include "util/host.h"
#include "util/log.h"
#include "util/timer.h"
#include "util/wake.h"

/* Active message ids: skiff's messages, and the goodbye a finalizing rank sends every peer last. */
#define AM_MSG 0
#define AM_BYE 1
#define MAGIC 0x58435553u /* "SUCX" */
/* Copies of payloads UCX has not finished with stop growing here; send then answers -EAGAIN and the
 * core keeps the rest in order until progress has completed some. */
#define INFLIGHT_LIMIT (64u << 20)
#define SETUP_SECONDS 60.0

/* What travels as the active message's header: the sender's rank and the job's secret (UCX does
 * not say who sent an active message, and anything that learns a worker address may send to it),
 * then the core's header verbatim. */
struct ucx_head {
    uint32_t magic;
    int32_t rank;
    uint64_t secret;
    struct skiff_hdr h;
};
_Static_assert(sizeof(struct ucx_head) == 64, "head is 64 bytes");

/* A payload copied because UCX still needed it when send had to return (rendezvous, full queues). */
struct outgoing {
    struct ucx_head w; /* UCX reads the header until completion too */
    int peer;
    size_t len;
    unsigned char data[];
};

/* A large DATA piece UCX sends straight from the caller's buffer. Up to ZC_DEPTH pieces per peer are in
 * flight: send takes a piece that is not its message's last at once (detached: the core moves on to the
 * next piece, and the buffer stays the sender's until the send completes), and answers -EAGAIN for the
 * last piece until it and every earlier piece of its message are done, then 0 once: the core completes
 * the send, and so lets the buffer be reused, only then. */
#define ZC_DEPTH 4
struct zc_send {
    struct zc_send *next;
    struct ucx_head w; /* identifies the piece: the core retries the last one with the same header */
    const void *payload;
    int peer;
    int done;          /* UCX has finished with the buffer */
    int detached;      /* not the last piece: nobody retries it; freed once done */
};

/* A message that could not go to the core at once: it waits behind an unfinished rendezvous, so
 * the core still sees each peer's messages in the order they were sent. */
struct arrival {
    struct arrival *next;
    int peer;
    int waiting;   /* its rendezvous data is still coming */
    struct skiff_hdr h;
    void *data;
    size_t len;
    void *release; /* UCX's descriptor, held with UCS_INPROGRESS; else data is ours to free */
    size_t cap;    /* data is a reusable rendezvous buffer of this many bytes (0: not one) */
    int placed;    /* data is the piece's place in a receive's buffer (skiff_core_data_target) */
};

static struct {
    ucp_context_h ctx;
    ucp_worker_h worker;
    int efd, epfd;
    int wake_fd;                /* an eventfd in epfd: another thread of this process ends a sleep (ucx_wake) */
    ucp_ep_h *ep;               /* per job rank; NULL for ranks not reached over ucx */
    unsigned char *bye;         /* per job rank: its goodbye has arrived */
    const unsigned char *uses;
    struct arrival *qhead, *qtail;
    struct zc_send *zc;         /* zero-copy pieces in flight or finished but not yet retried */
    int delivered;              /* messages handed to the core during this progress call */
    size_t inflight_bytes;
    unsigned inflight;
    int same_machine;
    int warned;                 /* a message without the secret was logged */
    unsigned long long sent_bytes, recv_bytes; /* MPI_T: skiff_ucx_counters */
} U = {.efd = -1, .epfd = -1, .wake_fd = -1};

static struct skiff_transport ucx_ops;

/* ---- failures ------------------------------------------------------------------------------- */

static _Noreturn void peer_lost(int peer, ucs_status_t st)
{
    char why[200];
    snprintf(why, sizeof why, "ucx: rank %d is unreachable (%s): it died or was killed", peer, ucs_status_string(st));
    skiff_abort_job_peer_lost(why);
}

/* Errors from a peer that said goodbye are its endpoint closing, not a failure. */
static void ep_failed(void *arg, ucp_ep_h ep, ucs_status_t st)
{
    (void)ep;
    int peer = (int)(intptr_t)arg;
    if (!U.bye[peer])
        peer_lost(peer, st);
}

/* ---- output ----------------------------------------------------------------------------------- */

static void send_done(void *req, ucs_status_t st, void *user)
{
    struct outgoing *o = user;
    U.inflight_bytes -= o->len;
    U.inflight--;
    if (st != UCS_OK && !U.bye[o->peer])
        peer_lost(o->peer, st);
    free(o);
    ucp_request_free(req);
}

/* Sends from a copy that lives until UCX completes the send. */
static int post_copy(int peer, unsigned id, const struct ucx_head *w, const void *payload, size_t len)
{
    struct outgoing *o = malloc(sizeof *o + len);
    if (!o)
        skiff_abort_job(MPI_ERR_NO_MEM, "ucx: out of memory for the send queue");
    o->w = *w;
    o->peer = peer;
    o->len = len;
    if (len)
        memcpy(o->data, payload, len);
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                             .cb.send = send_done, .user_data = o};
    ucs_status_ptr_t s = ucp_am_send_nbx(U.ep[peer], id, &o->w, sizeof o->w, o->data, len, &p);
    U.sent_bytes += sizeof o->w + len;
    if (s == NULL) {
        free(o);
        return 0;
    }
    if (UCS_PTR_IS_ERR(s))
        peer_lost(peer, UCS_PTR_STATUS(s));
    U.inflight_bytes += len;
    U.inflight++;
    return 0;
}

static void zc_done(void *req, ucs_status_t st, void *user)
{
    struct zc_send *z = user;
    if (st != UCS_OK && !U.bye[z->peer])
        peer_lost(z->peer, st);
    z->done = 1;
    U.inflight--;
    ucp_request_free(req);
}

/* The last piece's send completes only after the pieces sent before it from the same message's buffer. */
static int earlier_pieces_busy(int peer, uint64_t rreq)
{
    for (const struct zc_send *z = U.zc; z; z = z->next)
        if (z->detached && !z->done && z->peer == peer && z->w.h.rreq == rreq)
            return 1;
    return 0;
}

/* A retried last piece: -EAGAIN until done, then 0 once. Also frees detached pieces that are done and
 * counts the peer's pieces still in flight. NULL z: the piece was never posted. */
static struct zc_send *find_piece(int peer, const struct ucx_head *w, const void *payload, int *busy)
{
    struct zc_send *found = NULL;
    *busy = 0;
    for (struct zc_send **pz = &U.zc; *pz;) {
        struct zc_send *z = *pz;
        if (z->detached && z->done) {
            *pz = z->next;
            free(z);
            continue;
        }
        if (!z->detached && z->peer == peer && z->payload == payload && memcmp(&z->w.h, &w->h, sizeof w->h) == 0)
            found = z;
        *busy += z->peer == peer && !z->done;
        pz = &z->next;
    }
    return found;
}

static void unlink_piece(struct zc_send *gone)
{
    for (struct zc_send **pz = &U.zc; *pz; pz = &(*pz)->next)
        if (*pz == gone) {
            *pz = gone->next;
            free(gone);
            return;
        }
}

static int send_piece(int peer, const struct ucx_head *w, const void *payload, size_t len)
{
    int busy;
    struct zc_send *z = find_piece(peer, w, payload, &busy);
    if (z) {
        if (!z->done || earlier_pieces_busy(peer, w->h.rreq))
            return -EAGAIN;
        unlink_piece(z);
        return 0;
    }
    if (busy >= ZC_DEPTH)
        return -EAGAIN;
    int last = (w->h.flags & SKIFF_MSG_F_LAST) != 0;
    if (!(z = calloc(1, sizeof *z)))
        skiff_abort_job(MPI_ERR_NO_MEM, "ucx: out of memory for the send queue");
    *z = (struct zc_send){.w = *w, .payload = payload, .peer = peer, .detached = !last};
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                             .cb.send = zc_done, .user_data = z};
    ucs_status_ptr_t s = ucp_am_send_nbx(U.ep[peer], AM_MSG, &z->w, sizeof z->w, payload, len, &p);
    if (UCS_PTR_IS_ERR(s))
        peer_lost(peer, UCS_PTR_STATUS(s));
    U.sent_bytes += sizeof z->w + len;
    if (s == NULL)
        z->done = 1;
    else
        U.inflight++;
    z->next = U.zc;
    U.zc = z;
    if (!last)
        return 0;
    return z->done && !earlier_pieces_busy(peer, w->h.rreq) ? (unlink_piece(z), 0) : -EAGAIN;
}

/* Tries to send straight from the caller's buffer, which works when UCX can finish at once (a
 * short or copied eager message on a connected endpoint); otherwise sends from a copy, since the
 * core may reuse the payload as soon as this returns 0. */
static int ucx_send(int peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    if (U.inflight_bytes > INFLIGHT_LIMIT)
        return -EAGAIN;
    struct ucx_head w = {.magic = MAGIC, .rank = skiff.rank, .secret = skiff_boot.secret, .h = *h};
    if (h->type == SKIFF_MSG_DATA && len > ucx_ops.max_eager)
        return send_piece(peer, &w, payload, len);
    /* A short last piece too completes the send: not before UCX is done with the pieces before it. */
    if (h->type == SKIFF_MSG_DATA && (h->flags & SKIFF_MSG_F_LAST) && U.zc && earlier_pieces_busy(peer, h->rreq))
        return -EAGAIN;
    if (len <= ucx_ops.max_eager) {
        ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL | UCP_OP_ATTR_FIELD_FLAGS,
                                 .flags = UCP_AM_SEND_FLAG_EAGER};
        ucs_status_ptr_t s = ucp_am_send_nbx(U.ep[peer], AM_MSG, &w, sizeof w, payload, len, &p);
        if (s == NULL) {
            U.sent_bytes += sizeof w + len;
            return 0;
        }
        if (UCS_PTR_STATUS(s) != UCS_ERR_NO_RESOURCE)
            peer_lost(peer, UCS_PTR_STATUS(s));
    }
    return post_copy(peer, AM_MSG, &w, payload, len);
}

/* ---- input ------------------------------------------------------------------------------------ */

static void enqueue(struct arrival *a)
{
    if (U.qtail)
        U.qtail->next = a;
    else
        U.qhead = a;
    U.qtail = a;
}

static void recv_done(void *req, ucs_status_t st, size_t len, void *user)
{
    (void)len;
    struct arrival *a = user;
    if (st != UCS_OK)
        peer_lost(a->peer, st);
    a->waiting = 0;
    ucp_request_free(req);
}

/* Rendezvous payloads land in buffers kept for reuse: a fresh one per piece would cost page faults on
 * every large message. A few of the size of a piece are enough; the rest are freed. */
#define SPARE_BUFFERS 4

static struct {
    void *p[SPARE_BUFFERS];
    size_t cap[SPARE_BUFFERS];
} spare;

static void *buffer_get(size_t len, size_t *cap)
{
    for (int i = 0; i < SPARE_BUFFERS; i++) {
        if (spare.p[i] && spare.cap[i] >= len) {
            void *b = spare.p[i];
            *cap = spare.cap[i];
            spare.p[i] = NULL;
            return b;
        }
    }
    *cap = len ? len : 1;
    return malloc(*cap);
}

static void buffer_put(void *b, size_t cap)
{
    for (int i = 0; i < SPARE_BUFFERS; i++) {
        if (!spare.p[i]) {
            spare.p[i] = b;
            spare.cap[i] = cap;
            return;
        }
    }
    free(b);
}

/* Hands the queue's ready front to the core; stops at a rendezvous still in flight. */
static int drain(void)
{
    int n = 0;
    while (U.qhead && !U.qhead->waiting) {
        struct arrival *a = U.qhead;
        if (!(U.qhead = a->next))
            U.qtail = NULL;
        skiff_core_incoming(a->peer, &a->h, a->data, a->len);
        if (a->release)
            ucp_am_data_release(U.worker, a->release);
        else if (a->cap)
            buffer_put(a->data, a->cap);
        else if (!a->placed)
            free(a->data);
        free(a);
        n++;
    }
    return n;
}

static int trusted(const void *header, size_t hlen, struct ucx_head *w)
{
    if (hlen == sizeof *w) {
        memcpy(w, header, sizeof *w);
        if (w->magic == MAGIC && w->secret == skiff_boot.secret && w->rank >= 0 && w->rank < skiff.size &&
            U.uses[w->rank])
            return 1;
    }
    if (!U.warned++)
        skiff_error("ucx: dropped a message of %zu header bytes without this job's secret (further ones are dropped "
                    "silently)", hlen);
    return 0;
}

/* Runs inside ucp_worker_progress. An eager message with nothing queued before it goes to the core at
 * once (the core may send from there: UCX allows sends from a callback); the rest waits in order. */
static ucs_status_t on_message(void *arg, const void *header, size_t hlen, void *data, size_t len,
                               const ucp_am_recv_param_t *param)
{
    (void)arg;
    struct ucx_head w;
    if (!trusted(header, hlen, &w))
        return UCS_OK;
    U.recv_bytes += hlen + len;
    int rndv = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
    if (!rndv && !U.qhead) {
        skiff_core_incoming(w.rank, &w.h, data, len);
        U.delivered++;
        return UCS_OK;
    }
    struct arrival *a = calloc(1, sizeof *a);
    if (a && rndv)
        a->placed = (a->data = skiff_core_data_target(w.rank, &w.h, len)) != NULL;
    if (a && !a->data)
        a->data = rndv ? buffer_get(len, &a->cap)
                       : param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA ? data : malloc(len ? len : 1);
    if (!a || !a->data)
        skiff_abort_job(MPI_ERR_NO_MEM, "ucx: out of memory for an arriving message");
    a->peer = w.rank;
    a->h = w.h;
    a->len = len;
    enqueue(a);
    if (rndv) {
        /* UCX's rendezvous moves the data (zero copy where the wire allows) straight into the receive's
         * buffer when the core names the place, else into ours, which the core then copies. */
        ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                                 .cb.recv_am = recv_done, .user_data = a};
        ucs_status_ptr_t s = ucp_am_recv_data_nbx(U.worker, data, a->data, len, &p);
        if (UCS_PTR_IS_ERR(s))
            peer_lost(w.rank, UCS_PTR_STATUS(s));
        a->waiting = s != NULL;
        return UCS_INPROGRESS;
    }
    if (a->data == data) {
        a->release = data;
        return UCS_INPROGRESS;
    }
    memcpy(a->data, data, len);
    return UCS_OK;
}

static ucs_status_t on_bye(void *arg, const void *header, size_t hlen, void *data, size_t len,
                           const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)param;
    struct ucx_head w;
    if (trusted(header, hlen, &w)) {
        U.bye[w.rank] = 1;
        U.recv_bytes += hlen + len;
    }
    return UCS_OK;
}

/* Counts UCX's own steps too (a rendezvous fragment, a connection's answer): the core keeps polling
 * rather than sleeping while a transfer moves. */
static int ucx_progress(void)
{
    U.delivered = 0;
    int n = ucp_worker_progress(U.worker) != 0;
    n += U.delivered;
    return U.qhead ? n + drain() : n;
}

/* The progress thread's sleep (core/async.c): armed under the library lock, slept without it. Only the
 * epoll_wait runs unlocked, and it touches nothing of UCX's: an application thread may progress the
 * worker meanwhile. If that thread takes the event the worker was armed for, the descriptor has been
 * signalled already (the doze ends early and the next pass re-arms) or the event is handled, which is
 * all the doze was for. 1: something is pending (BUSY from ucp_worker_arm), do not sleep. Arming drains
 * the wake descriptor, which is safe because only a lock holder arms: a wake rung before the drain was
 * for a reason the sleeper's ready check sees, one rung after it ends the epoll_wait. */
static int ucx_arm(uint32_t *token)
{
    *token = 0;
    if ((U.qhead && !U.qhead->waiting) || ucp_worker_arm(U.worker) == UCS_ERR_BUSY)
        return 1;
    skiff_wake_drain(U.wake_fd, "ucx");
    return 0;
}

/* Nothing to withdraw: UCX's arming lasts until the descriptor is signalled. */
static void ucx_disarm(void)
{
}

static void ucx_doze(uint32_t token, double seconds)
{
    (void)token;
    struct epoll_event ev[1];
    epoll_wait(U.epfd, ev, 1, (int)(seconds * 1000));
}

/* A waiting call's sleep, holding the lock: on the worker's event descriptor and the watched ones. */
static void ucx_sleep(double seconds, int (*ready)(void *arg), void *arg)
{
    uint32_t token;
    if (!ucx_arm(&token) && !(ready && ready(arg)))
        ucx_doze(token, seconds);
}

/* Ends another thread's sleep in ucx_sleep or ucx_doze (or the next one). */
static void ucx_wake(void)
{
    skiff_wake_ring(U.wake_fd, "ucx");
}

/* ---- setup and teardown ----------------------------------------------------------------------- */

void skiff_ucx_describe(char *out, size_t len)
{
    unsigned major, minor, release;
    ucp_get_version(&major, &minor, &release);
    snprintf(out, len, "UCX %u.%u.%u (wires chosen by UCX_TLS, default all)", major, minor, release);
}

static int ucx_watch(int fd)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    return epoll_ctl(U.epfd, EPOLL_CTL_ADD, fd, &ev);
}

static int ucx_same_machine(void)
{
    return U.same_machine;
}

static int open_worker(void)
{
    ucp_config_t *cfg;
    ucp_params_t p = {.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED,
                      .features = UCP_FEATURE_AM | UCP_FEATURE_WAKEUP | skiff_ucx_rma_features(),
                      .mt_workers_shared = 0};
    ucs_status_t st = ucp_config_read(NULL, NULL, &cfg);
    if (st == UCS_OK) {
        st = ucp_init(&p, cfg, &U.ctx);
        ucp_config_release(cfg);
    }
    /* The core serializes every call into the transport (one thread at a time holds its lock). */
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE, .thread_mode = UCS_THREAD_MODE_SINGLE};
    if (st == UCS_OK)
        st = ucp_worker_create(U.ctx, &wp, &U.worker);
    if (st == UCS_OK)
        st = ucp_worker_get_efd(U.worker, &U.efd);
    if (st != UCS_OK) {
        skiff_error("ucx: cannot open a UCP worker: %s (check UCX_TLS and UCX_NET_DEVICES)", ucs_status_string(st));
        return -1;
    }
    U.epfd = epoll_create1(EPOLL_CLOEXEC);
    U.wake_fd = skiff_wake_open();
    if (U.epfd < 0 || U.wake_fd < 0 || ucx_watch(U.efd) != 0 || ucx_watch(U.wake_fd) != 0) {
        skiff_error("ucx: cannot set up the sleep's epoll: %s", strerror(errno));
        return -1;
    }
    ucp_am_handler_param_t hp = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                                               UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
                                 .id = AM_MSG, .cb = on_message, .flags = UCP_AM_FLAG_WHOLE_MSG | UCP_AM_FLAG_PERSISTENT_DATA};
    st = ucp_worker_set_am_recv_handler(U.worker, &hp);
    hp.id = AM_BYE;
    hp.cb = on_bye;
    if (st == UCS_OK)
        st = ucp_worker_set_am_recv_handler(U.worker, &hp);
    if (st != UCS_OK) {
        skiff_error("ucx: cannot register the active message handlers: %s", ucs_status_string(st));
        return -1;
    }
    return 0;
}

static int connect_peer(int p)
{
    unsigned char addr[SKIFF_UCX_MAX_ADDR];
    size_t alen;
    uint32_t host;
    char text[SKIFF_JOB_CARD];
    if (skiff_boot_card(p, text, sizeof text) || skiff_ucx_card_decode(text, &host, addr, sizeof addr, &alen)) {
        skiff_error("ucx: rank %d published an unreadable address card '%.60s...'", p, text);
        return -1;
    }
    int same_node = skiff_boot.map.node[p] == skiff_boot.node;
    U.same_machine += !same_node && host == skiff_host_hash();
    /* Peer failure reports restrict UCX to wires that can give them, which its shared-memory ones
     * cannot: within a node a death is seen as on the shm transport instead (the launcher, and the
     * rank-state checks of an idle wait), so that UCX may pick shared memory there. */
    ucp_ep_params_t ep = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                                        UCP_EP_PARAM_FIELD_ERR_HANDLER,
                          .address = (const ucp_address_t *)addr,
                          .err_mode = same_node ? UCP_ERR_HANDLING_MODE_NONE : UCP_ERR_HANDLING_MODE_PEER,
                          .err_handler = {.cb = ep_failed, .arg = (void *)(intptr_t)p}};
    ucs_status_t st = ucp_ep_create(U.worker, &ep, &U.ep[p]);
    if (st == UCS_ERR_UNREACHABLE && !same_node) {
        skiff_log(SKIFF_LOG_INFO, "ucx: rank %d is reachable only without peer failure reports", p);
        ep.err_mode = UCP_ERR_HANDLING_MODE_NONE;
        st = ucp_ep_create(U.worker, &ep, &U.ep[p]);
    }
    if (st != UCS_OK) {
        skiff_error("ucx: cannot open an endpoint to rank %d: %s", p, ucs_status_string(st));
        return -1;
    }
    return 0;
}

static int publish(void)
{
    ucp_worker_attr_t a = {.field_mask = UCP_WORKER_ATTR_FIELD_ADDRESS | UCP_WORKER_ATTR_FIELD_ADDRESS_FLAGS};
    char text[SKIFF_JOB_CARD];
    if (ucp_worker_query(U.worker, &a) != UCS_OK)
        return -1;
    int bad = skiff_ucx_card_encode(skiff_host_hash(), a.address, a.address_length, text, sizeof text);
    if (bad)
        skiff_error("ucx: this rank's worker address (%zu bytes) does not fit its %d-byte address card; narrow it "
                    "with UCX_TLS or UCX_NET_DEVICES", a.address_length, SKIFF_JOB_CARD);
    ucp_worker_release_address(U.worker, a.address);
    return bad ? -1 : skiff_boot_cards_exchange(text);
}

static void flush_done(void *req, ucs_status_t st, void *user)
{
    (void)req;
    *(ucs_status_t *)user = st;
}

/* UCX connects an endpoint on its first use, and only while both sides progress: a message sent
 * just before its sender computes for a while (or sleeps) would wait with it. So every endpoint is
 * connected here, while every rank progresses, as the tcp transport connects all its rails. */
static int wire_up(void)
{
    ucs_status_t *st = calloc((size_t)skiff.size, sizeof *st);
    void **req = calloc((size_t)skiff.size, sizeof *req);
    int pending = 0, bad = -1;
    for (int p = 0; st && req && p < skiff.size; p++) {
        if (!U.ep[p])
            continue;
        ucp_request_param_t fp = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                                  .cb.send = flush_done, .user_data = &st[p]};
        st[p] = UCS_INPROGRESS;
        req[p] = ucp_ep_flush_nbx(U.ep[p], &fp);
        if (req[p] == NULL)
            st[p] = UCS_OK;
        else if (UCS_PTR_IS_ERR(req[p]))
            st[p] = UCS_PTR_STATUS(req[p]), req[p] = NULL;
        else
            pending++;
    }
    double give_up = skiff_now() + SETUP_SECONDS;
    while (st && req && pending && skiff_now() < give_up) {
        if (!ucp_worker_progress(U.worker))
            ucx_sleep(0.01, NULL, NULL);
        pending = 0;
        for (int p = 0; p < skiff.size; p++)
            pending += U.ep[p] && st[p] == UCS_INPROGRESS;
    }
    for (int p = 0; st && req && p < skiff.size; p++) {
        if (U.ep[p] && st[p] != UCS_OK && bad < 0)
            bad = p;
        if (req[p])
            ucp_request_free(req[p]);
    }
    if (st && req && bad >= 0)
        skiff_error("ucx: cannot connect to rank %d: %s", bad,
                    st[bad] == UCS_INPROGRESS ? "no answer within the setup time" : ucs_status_string(st[bad]));
    int ok = st && req && bad < 0 && !pending;
    free(st);
    free(req);
    return ok ? 0 : -1;
}

static void ucx_finalize(void);

const struct skiff_transport *skiff_ucx_init(const unsigned char *uses)
{
    U.uses = uses;
    U.ep = calloc((size_t)skiff.size, sizeof *U.ep);
    U.bye = calloc((size_t)skiff.size, 1);
    if (!U.ep || !U.bye || open_worker() || publish())
        goto fail;
    for (int p = 0; p < skiff.size; p++)
        if (uses[p] && connect_peer(p))
            goto fail;
    if (wire_up())
        goto fail;
    ucx_ops.max_eager = skiff_cfg.ucx_eager;
    ucx_ops.max_piece = skiff_cfg.ucx_piece;
    skiff_ucx_rma_offer(&ucx_ops, U.ctx, U.worker, U.ep);
    return &ucx_ops;
fail:
    ucx_finalize();
    return NULL;
}

/* Goodbye to every peer after everything else we sent (one endpoint keeps order), then wait until
 * every send has completed, every peer has said goodbye and every arrival went to the core: only then
 * may endpoints close without losing a message in either direction. */
static void say_goodbye(void)
{
    struct ucx_head w = {.magic = MAGIC, .rank = skiff.rank, .secret = skiff_boot.secret,
                         .h = {.version = SKIFF_PROTO_VERSION}};
    for (int p = 0; p < skiff.size; p++)
        if (U.ep[p])
            post_copy(p, AM_BYE, &w, NULL, 0);
    for (;;) {
        int open = U.inflight > 0 || U.qhead != NULL;
        for (int p = 0; p < skiff.size; p++)
            open += U.ep[p] && !U.bye[p];
        if (!open)
            break;
        if (!ucx_progress())
            ucx_sleep(0.01, NULL, NULL);
    }
}

static void ucx_finalize(void)
{
    int eps = 0;
    for (int p = 0; U.ep && p < skiff.size; p++)
        eps += U.ep[p] != NULL;
    if (eps && U.worker)
        say_goodbye();
    for (int p = 0; U.ep && p < skiff.size; p++) {
        if (!U.ep[p])
            continue;
        /* Everything both ways has arrived: no need to wait for the peer's confirmation. */
        ucp_request_param_t cp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE};
        ucs_status_ptr_t s = ucp_ep_close_nbx(U.ep[p], &cp);
        while (s && !UCS_PTR_IS_ERR(s) && ucp_request_check_status(s) == UCS_INPROGRESS)
            ucp_worker_progress(U.worker);
        if (s && !UCS_PTR_IS_ERR(s))
            ucp_request_free(s);
    }
    if (U.worker)
        ucp_worker_destroy(U.worker);
    if (U.ctx)
        ucp_cleanup(U.ctx);
    if (U.epfd >= 0)
        close(U.epfd);
    if (U.wake_fd >= 0)
        close(U.wake_fd);
    for (int i = 0; i < SPARE_BUFFERS; i++) {
        free(spare.p[i]);
        spare.p[i] = NULL;
    }
    while (U.zc) {
        struct zc_send *z = U.zc;
        U.zc = z->next;
        free(z);
    }
    free(U.ep);
    free(U.bye);
    memset(&U, 0, sizeof U);
    U.efd = U.epfd = U.wake_fd = -1;
}

unsigned long long skiff_ucx_sent_bytes(void)
{
    return U.sent_bytes;
}

unsigned long long skiff_ucx_recv_bytes(void)
{
    return U.recv_bytes;
}

/* A peer says goodbye once it has finalized: it reads nothing more from us. */
static int ucx_peer_finalized(int peer)
{
    return U.bye[peer];
}

static struct skiff_transport ucx_ops = {
    .name = "ucx",
    .send = ucx_send,
    .progress = ucx_progress,
    .finalize = ucx_finalize,
    .peer_finalized = ucx_peer_finalized,
    .same_machine = ucx_same_machine,
    .sleep = ucx_sleep,
    .watch = ucx_watch,
    .arm = ucx_arm,
    .disarm = ucx_disarm,
    .doze = ucx_doze,
    .wake = ucx_wake,
};
