#include "tcp/tcp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/sockios.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/core.h"
#include "core/error.h"
#include "tcp/tcp_int.h"
#include "tcp/wire.h"
#include "util/config.h"
#include "util/host.h"
#include "util/log.h"
#include "util/wake.h"

/* A rail stops taking new messages when this much waits in user space; the core keeps the rest
 * in order and retries. Enough to keep a fast link busy between two progress calls. */
#define OUT_LIMIT(t) (2 * (t)->max_plen + 65536)
#define READ_AHEAD 65536
#define MAX_EVENTS 64

struct skiff_tcp skiff_tcp_state = {.epfd = -1, .listen_fd = -1, .wake_fd = -1};
#define T (&skiff_tcp_state)

static struct skiff_transport tcp_ops;

/* ---- output ----------------------------------------------------------------------------------- */

static size_t backlog(const struct skiff_rail *r)
{
    return r->out_len - r->out_head;
}

static void arm_out(struct skiff_rail *r, int on)
{
    if (r->polling_out == on)
        return;
    struct epoll_event ev = {.events = EPOLLIN | (on ? EPOLLOUT : 0), .data.ptr = r};
    epoll_ctl(T->epfd, EPOLL_CTL_MOD, r->fd, &ev);
    r->polling_out = on;
}

static _Noreturn void peer_lost(const struct skiff_rail *r, const char *how)
{
    char why[200];
    snprintf(why, sizeof why, "tcp: rank %d (%s) %s: it died or was killed", r->peer, skiff_net_ntoa(r->theirs, 0), how);
    skiff_abort_job_peer_lost(why);
}

static void queue_bytes(struct skiff_rail *r, const void *p, size_t n)
{
    if (r->out_len + n > r->out_cap) {
        if (r->out_head) { /* slide the unsent part down before growing */
            memmove(r->out, r->out + r->out_head, backlog(r));
            r->out_len -= r->out_head;
            r->out_head = 0;
        }
        if (r->out_len + n > r->out_cap) {
            size_t cap = r->out_cap ? r->out_cap : 65536;
            while (cap < r->out_len + n)
                cap *= 2;
            unsigned char *o = realloc(r->out, cap);
            if (!o)
                skiff_abort_job(MPI_ERR_NO_MEM, "tcp: out of memory for the send queue");
            r->out = o;
            r->out_cap = cap;
        }
    }
    memcpy(r->out + r->out_len, p, n);
    r->out_len += n;
}

static void flush(struct skiff_rail *r)
{
    while (backlog(r)) {
        ssize_t n = send(r->fd, r->out + r->out_head, backlog(r), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n < 0)
            peer_lost(r, "reset its connection");
        r->out_head += (size_t)n;
    }
    if (!backlog(r))
        r->out_head = r->out_len = 0;
    arm_out(r, backlog(r) != 0);
}

/* Writes head and payload straight to the socket when nothing waits before them; keeps the rest. */
static void put_frame(struct skiff_rail *r, const struct skiff_tcp_head *f, const void *payload, size_t len)
{
    size_t total = sizeof *f + len, done = 0;
    r->sent += total;
    if (!backlog(r)) {
        struct iovec iov[2] = {{(void *)f, sizeof *f}, {(void *)payload, len}};
        struct msghdr m = {.msg_iov = iov, .msg_iovlen = len ? 2 : 1};
        ssize_t n;
        do
            n = sendmsg(r->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
        while (n < 0 && errno == EINTR);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            peer_lost(r, "reset its connection");
        done = n > 0 ? (size_t)n : 0;
        if (done == total)
            return;
    }
    if (done < sizeof *f)
        queue_bytes(r, (const char *)f + done, sizeof *f - done);
    size_t pdone = done > sizeof *f ? done - sizeof *f : 0;
    if (len > pdone)
        queue_bytes(r, (const char *)payload + pdone, len - pdone);
    arm_out(r, 1);
}

/* Bytes this rail still has to move: ours plus what the kernel has not sent yet. The rail that
 * drains fastest has the least, so pieces follow each rail's real bandwidth. */
static size_t pending_bytes(const struct skiff_rail *r)
{
    int q = 0;
    if (ioctl(r->fd, SIOCOUTQ, &q) != 0)
        q = 0;
    return backlog(r) + (size_t)q;
}

static struct skiff_rail *pick_rail(struct skiff_tcp_peer *pe, const struct skiff_hdr *h)
{
    if (h->type != SKIFF_MSG_DATA || pe->nrails == 1)
        return &pe->rail[0];
    struct skiff_rail *best = NULL;
    size_t least = 0;
    for (int i = 0; i < pe->nrails; i++) {
        size_t b = pending_bytes(&pe->rail[i]);
        if (!best || b < least) {
            best = &pe->rail[i];
            least = b;
        }
    }
    return best;
}

static int tcp_send(int peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    struct skiff_tcp_peer *pe = &T->peer[peer];
    struct skiff_rail *r = pick_rail(pe, h);
    if (backlog(r) > OUT_LIMIT(T)) {
        flush(r);
        if (backlog(r) > OUT_LIMIT(T))
            return -EAGAIN;
    }
    struct skiff_tcp_head f = {.plen = (uint32_t)len, .check = SKIFF_TCP_CHECK ^ (uint32_t)len, .h = *h};
    put_frame(r, &f, payload, len);
    return 0;
}

/* ---- input ------------------------------------------------------------------------------------ */

static void bad_stream(const struct skiff_rail *r, const char *why)
{
    char msg[200];
    snprintf(msg, sizeof msg, "tcp: rank %d sent a corrupt stream on rail %d (%s)", r->peer, r->index, why);
    skiff_abort_job(MPI_ERR_INTERN, msg);
}

/* Hands every whole frame in the buffer to the core, then keeps the partial one at the front. */
static int deliver(struct skiff_rail *r)
{
    size_t off = 0, used;
    int n = 0;
    struct skiff_tcp_head f;
    const unsigned char *payload;
    const char *why = NULL;
    for (;;) {
        enum skiff_tcp_parse k = skiff_tcp_parse(r->in + off, r->in_len - off, T->max_plen, &f, &payload, &used, &why);
        if (k == SKIFF_TCP_BAD)
            bad_stream(r, why);
        if (k == SKIFF_TCP_NEED_MORE)
            break;
        off += used;
        n++;
        if (f.h.type == SKIFF_TCP_BYE)
            r->bye = 1;
        else
            skiff_core_incoming(r->peer, &f.h, payload, f.plen);
    }
    if (off) {
        memmove(r->in, r->in + off, r->in_len - off);
        r->in_len -= off;
    }
    return n;
}

static int fill(struct skiff_rail *r)
{
    if (!r->in) {
        r->in_cap = sizeof(struct skiff_tcp_head) + T->max_plen + READ_AHEAD;
        if (!(r->in = malloc(r->in_cap)))
            skiff_abort_job(MPI_ERR_NO_MEM, "tcp: out of memory for a receive buffer");
    }
    ssize_t n;
    do
        n = recv(r->fd, r->in + r->in_len, r->in_cap - r->in_len, MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
    if (n <= 0) {
        if (!r->bye)
            peer_lost(r, n == 0 ? "closed its connection without finalizing" : "reset its connection");
        r->eof = 1;
        epoll_ctl(T->epfd, EPOLL_CTL_DEL, r->fd, NULL);
        return 0;
    }
    r->in_len += (size_t)n;
    T->recv_bytes += (unsigned long long)n;
    return deliver(r);
}

/* Marks the wake descriptor in epoll; watched descriptors of other transports carry NULL. */
static char wake_mark;


static int tcp_progress(void)
{
    struct epoll_event ev[MAX_EVENTS];
    int k = epoll_wait(T->epfd, ev, MAX_EVENTS, 0), n = 0;
    for (int i = 0; i < k; i++) {
        struct skiff_rail *r = ev[i].data.ptr;
        if (!r) /* a watched descriptor (the shared-memory doorbell): its owner drains it */
            continue;
        if ((void *)r == &wake_mark) {
            /* Progress alone drains it: it runs under the library lock, so a wake rung for the thread
             * sleeping here cannot be drained by another thread's sleep (the progress thread sleeps
             * without the lock) before it was seen; one rung before the sleep's ready check was also
             * seen by that check. */
            skiff_wake_drain(T->wake_fd, "tcp");
            continue;
        }
        if (ev[i].events & EPOLLOUT)
            flush(r);
        if (ev[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
            n += fill(r);
    }
    return n;
}

static void tcp_sleep(double seconds, int (*ready)(void *arg), void *arg)
{
    if (ready && ready(arg))
        return;
    struct epoll_event ev[1];
    /* Level-triggered: whatever this wait sees stays pending for the next progress call. */
    epoll_wait(T->epfd, ev, 1, (int)(seconds * 1000));
}

/* Ends the sleep of another thread of this process in tcp_sleep (or the next one: the descriptor stays
 * readable until progress drains it). */
static void tcp_wake(void)
{
    skiff_wake_ring(T->wake_fd, "tcp");
}

static int watch_wake(void)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &wake_mark};
    T->wake_fd = skiff_wake_open();
    return T->wake_fd < 0 ? -1 : epoll_ctl(T->epfd, EPOLL_CTL_ADD, T->wake_fd, &ev);
}

/* ---- setup and teardown ----------------------------------------------------------------------- */

void skiff_tcp_describe_host(char *out, size_t len)
{
    struct skiff_net_addr a[SKIFF_TCP_MAX_ADDRS];
    int n = skiff_net_local(skiff_cfg.tcp_nets, a, SKIFF_TCP_MAX_ADDRS);
    size_t off = 0;
    snprintf(out, len, "%s", n < 0 ? "none usable (see the message above)" : "");
    for (int i = 0; i < n && off < len; i++)
        off += (size_t)snprintf(out + off, len - off, "%s%s/%d(%s)", i ? "," : "", skiff_net_ntoa(a[i].ip, 0), a[i].prefix,
                                a[i].ifname);
}

void skiff_tcp_describe(char *out, size_t len)
{
    char nets[256];
    skiff_tcp_describe_host(nets, sizeof nets);
    snprintf(out, len, "networks: %s", nets);
}

static int publish(void)
{
    char text[SKIFF_JOB_CARD];
    int n = skiff_net_local(skiff_cfg.tcp_nets, T->card.addr, SKIFF_TCP_MAX_ADDRS);
    if (n < 0 || skiff_tcp_listen(T))
        return -1;
    T->card.naddrs = n;
    T->card.port = T->port;
    T->card.host = skiff_host_hash();
    if (skiff_net_card_encode(&T->card, text, sizeof text)) {
        skiff_error("tcp: too many addresses for one card; narrow them with SKIFF_TCP_NETS");
        return -1;
    }
    return skiff_boot_cards_exchange(text);
}

static int plan_peer(int p)
{
    char text[SKIFF_JOB_CARD];
    struct skiff_net_card c;
    struct skiff_net_rail rail[SKIFF_TCP_MAX_RAILS];
    if (skiff_boot_card(p, text, sizeof text) || skiff_net_card_decode(text, &c)) {
        skiff_error("tcp: rank %d published an unreadable address card '%s'", p, text);
        return -1;
    }
    int same = skiff_boot.map.node[p] == skiff_boot.node;
    int n = skiff_net_pair(&T->card, &c, same, rail, SKIFF_TCP_MAX_RAILS);
    if (n == 0) {
        skiff_error("tcp: no network reaches rank %d (its addresses: %s)", p, text);
        return -1;
    }
    struct skiff_tcp_peer *pe = &T->peer[p];
    pe->rail = calloc((size_t)n, sizeof *pe->rail);
    if (!pe->rail)
        return -1;
    pe->nrails = n;
    pe->port = c.port;
    T->same_machine += !same && c.host == T->card.host;
    for (int i = 0; i < n; i++) {
        pe->rail[i] = (struct skiff_rail){.fd = -1, .peer = p, .index = i, .mine = rail[i].mine, .theirs = rail[i].theirs};
        skiff_log(SKIFF_LOG_DEBUG, "tcp: rail %d to rank %d: %s -> %s:%u", i, p,
                  rail[i].mine ? skiff_net_ntoa(rail[i].mine, 0) : "any", skiff_net_ntoa(rail[i].theirs, 1), c.port);
    }
    return 0;
}

static int watch_rails(void)
{
    for (int p = 0; p < skiff.size; p++) {
        for (int i = 0; i < T->peer[p].nrails; i++) {
            struct skiff_rail *r = &T->peer[p].rail[i];
            struct epoll_event ev = {.events = EPOLLIN, .data.ptr = r};
            struct timeval none = {0, 0};
            setsockopt(r->fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
            setsockopt(r->fd, SOL_SOCKET, SO_SNDTIMEO, &none, sizeof none);
            if (epoll_ctl(T->epfd, EPOLL_CTL_ADD, r->fd, &ev) != 0)
                return -1;
            T->open_rails++;
        }
    }
    return 0;
}

static void tcp_finalize(void);

/* The other transports' wake descriptors sleep in our epoll; tcp_progress skips them (data.ptr NULL). */
static int tcp_watch(int fd)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    return epoll_ctl(T->epfd, EPOLL_CTL_ADD, fd, &ev);
}

static int tcp_same_machine(void)
{
    return T->same_machine;
}

const struct skiff_transport *skiff_tcp_init(const unsigned char *uses)
{
    T->uses = uses;
    T->recv_bytes = 0;
    T->max_plen = skiff_cfg.tcp_eager > skiff_cfg.tcp_piece ? skiff_cfg.tcp_eager : skiff_cfg.tcp_piece;
    T->peer = calloc((size_t)skiff.size, sizeof *T->peer);
    T->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (!T->peer || T->epfd < 0 || watch_wake() || publish())
        goto fail;
    for (int p = 0; p < skiff.size; p++)
        if (uses[p] && plan_peer(p))
            goto fail;
    if (skiff_tcp_connect_all(T) || watch_rails())
        goto fail;
    /* Every peer is connected: nobody else may come in. */
    close(T->listen_fd);
    T->listen_fd = -1;
    tcp_ops.max_eager = skiff_cfg.tcp_eager;
    tcp_ops.max_piece = skiff_cfg.tcp_piece;
    return &tcp_ops;
fail:
    tcp_finalize();
    return NULL;
}

/* Goodbye on every rail, then wait for each peer's goodbye and EOF before closing: closing with
 * unread bytes would reset the connection and could destroy the peer's last messages. */
static void say_goodbye(void)
{
    struct skiff_tcp_head bye = {.plen = 0, .check = SKIFF_TCP_CHECK, .h = {.type = SKIFF_TCP_BYE, .version = SKIFF_PROTO_VERSION}};
    for (int p = 0; p < skiff.size; p++)
        for (int i = 0; i < T->peer[p].nrails; i++)
            put_frame(&T->peer[p].rail[i], &bye, NULL, 0);
    int open;
    do {
        open = 0;
        for (int p = 0; p < skiff.size; p++) {
            for (int i = 0; i < T->peer[p].nrails; i++) {
                struct skiff_rail *r = &T->peer[p].rail[i];
                if (backlog(r))
                    flush(r);
                if (!backlog(r) && !r->shut) {
                    shutdown(r->fd, SHUT_WR);
                    r->shut = 1;
                }
                open += !r->eof;
            }
        }
        if (open) {
            tcp_progress();
            tcp_sleep(0.01, NULL, NULL);
        }
    } while (open);
}

static unsigned long long sent_bytes(void)
{
    unsigned long long sum = 0;
    for (int p = 0; T->peer && p < skiff.size; p++)
        for (int i = 0; i < T->peer[p].nrails; i++)
            sum += T->peer[p].rail[i].sent;
    return sum;
}

static unsigned long long recv_bytes(void)
{
    return T->peer ? T->recv_bytes : 0;
}

const struct skiff_transport_counter skiff_tcp_counters[] = {
    {"skiff_tcp_sent_bytes", "bytes handed to tcp connections (every rail, frame heads included)", sent_bytes},
    {"skiff_tcp_recv_bytes", "bytes read from tcp connections (every rail, frame heads included)", recv_bytes},
    {NULL, NULL, NULL},
};

static void tcp_finalize(void)
{
    if (T->peer && T->open_rails)
        say_goodbye();
    for (int p = 0; T->peer && p < skiff.size; p++) {
        for (int i = 0; i < T->peer[p].nrails; i++) {
            struct skiff_rail *r = &T->peer[p].rail[i];
            if (r->fd >= 0)
                close(r->fd);
            free(r->in);
            free(r->out);
        }
        free(T->peer[p].rail);
    }
    free(T->peer);
    if (T->listen_fd >= 0)
        close(T->listen_fd);
    if (T->epfd >= 0)
        close(T->epfd);
    if (T->wake_fd >= 0)
        close(T->wake_fd);
    memset(T, 0, sizeof *T);
    T->epfd = T->listen_fd = T->wake_fd = -1;
}

/* A peer says goodbye on every rail once it has finalized; one rail's goodbye is enough to know. */
static int tcp_peer_finalized(int peer)
{
    for (int i = 0; i < T->peer[peer].nrails; i++)
        if (T->peer[peer].rail[i].bye)
            return 1;
    return 0;
}

static struct skiff_transport tcp_ops = {
    .name = "tcp",
    .send = tcp_send,
    .progress = tcp_progress,
    .finalize = tcp_finalize,
    .peer_finalized = tcp_peer_finalized,
    .same_machine = tcp_same_machine,
    .sleep = tcp_sleep,
    .watch = tcp_watch,
    .wake = tcp_wake,
};
