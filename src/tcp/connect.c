/* Setting up the rails: every rank listens on one port, publishes a card, connects to the ranks
 * below it and accepts the ranks above it. Connecting never waits for the peer's program (the
 * kernel completes the handshake from the listen backlog), so no order of ranks can deadlock:
 * first all connects and hellos, then all accepts, then the answers to our hellos.
 *
 * Every connection proves it belongs to the job with the job's secret in its hello; anything
 * else reaching the port is logged and dropped. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/core.h"
#include "tcp/tcp_int.h"
#include "tcp/wire.h"
#include "util/config.h"
#include "util/log.h"
#include "util/timer.h"

#define SETUP_SECONDS 60.0
#define HELLO_SECONDS 10

void skiff_tcp_tune(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (skiff_cfg.tcp_sockbuf) {
        int b = (int)skiff_cfg.tcp_sockbuf;
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &b, sizeof b);
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &b, sizeof b);
    }
}

int skiff_tcp_listen(struct skiff_tcp *t)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    /* Buffer sizes must be in place before the handshake, which fixes the window scale: accepted
     * sockets inherit them from here. Shrinking them after accept() left transfers in both directions
     * crawling on retransmission timers (42 s instead of 0.02 s for 4 MiB each way at 8 KiB). */
    if (fd >= 0)
        skiff_tcp_tune(fd);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, SOMAXCONN) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        skiff_error("tcp: cannot listen for peers: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    t->listen_fd = fd;
    t->port = ntohs(a.sin_port);
    return 0;
}

static int io_full(int fd, void *buf, size_t len, int writing)
{
    size_t off = 0;
    while (off < len) {
        ssize_t n = writing ? send(fd, (char *)buf + off, len - off, MSG_NOSIGNAL) : recv(fd, (char *)buf + off, len - off, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        off += (size_t)n;
    }
    return 0;
}

static void fill_hello(struct skiff_tcp_hello *h, int rail, int nrails)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, SKIFF_TCP_MAGIC, sizeof h->magic);
    h->version = SKIFF_TCP_VERSION;
    h->rail = (uint16_t)rail;
    h->rank = (uint32_t)skiff.rank;
    h->nrails = (uint32_t)nrails;
    h->jobid = skiff_boot.jobid;
    h->secret = skiff_boot.secret;
}

/* A connect that gives up after the setup time instead of the kernel's two minutes. */
static int dial(const struct skiff_rail *r, uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_in src = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(r->mine)};
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(r->theirs)};
    if (fd < 0)
        return -1;
    skiff_tcp_tune(fd);
    /* Binding the source address keeps each rail on its own network when routes overlap. */
    if (r->mine && bind(fd, (struct sockaddr *)&src, sizeof src) != 0)
        goto fail;
    if (connect(fd, (struct sockaddr *)&dst, sizeof dst) != 0 && errno != EINPROGRESS)
        goto fail;
    struct pollfd p = {fd, POLLOUT, 0};
    int err = 0;
    socklen_t el = sizeof err;
    if (poll(&p, 1, (int)(SETUP_SECONDS * 1000)) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) || err) {
        errno = err ? err : ETIMEDOUT;
        goto fail;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
fail:;
    int e = errno;
    close(fd);
    errno = e;
    return -1;
}

static int connect_out(struct skiff_tcp *t, int p, uint16_t port)
{
    struct skiff_tcp_peer *pe = &t->peer[p];
    for (int i = 0; i < pe->nrails; i++) {
        struct skiff_rail *r = &pe->rail[i];
        struct skiff_tcp_hello h;
        fill_hello(&h, i, pe->nrails);
        r->fd = dial(r, port);
        if (r->fd < 0 || io_full(r->fd, &h, sizeof h, 1)) {
            skiff_error("tcp: cannot connect rail %d to rank %d at %s:%u from %s: %s", i, p,
                        skiff_net_ntoa(r->theirs, 0), port, r->mine ? skiff_net_ntoa(r->mine, 1) : "any address",
                        strerror(errno));
            return -1;
        }
    }
    return 0;
}

static void timeouts(int fd, int seconds)
{
    struct timeval tv = {seconds, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

/* Reads and checks one incoming hello; returns the rail it opens, or NULL (connection dropped). */
static struct skiff_rail *admit(struct skiff_tcp *t, int fd, const struct sockaddr_in *from)
{
    struct skiff_tcp_hello h;
    const char *why = "no hello within the time limit";
    timeouts(fd, HELLO_SECONDS);
    if (io_full(fd, &h, sizeof h, 0) == 0 && skiff_tcp_hello_check(&h, skiff_boot.jobid, skiff_boot.secret, skiff.size, &why) == 0) {
        struct skiff_tcp_peer *pe = &t->peer[h.rank];
        if ((int)h.rank <= skiff.rank || !t->uses[h.rank])
            why = "rank that should not connect to this one";
        else if ((int)h.nrails != pe->nrails)
            why = "rail count differs from ours";
        else if (pe->rail[h.rail].fd >= 0)
            why = "rail already connected";
        else
            return pe->rail[h.rail].fd = fd, &pe->rail[h.rail];
    }
    skiff_error("tcp: dropped a connection from %s:%u: %s", skiff_net_ntoa(ntohl(from->sin_addr.s_addr), 0),
              ntohs(from->sin_port), why);
    close(fd);
    return NULL;
}

static int expected_incoming(const struct skiff_tcp *t)
{
    int n = 0;
    for (int p = skiff.rank + 1; p < skiff.size; p++)
        n += t->uses[p] ? t->peer[p].nrails : 0;
    return n;
}

static int accept_in(struct skiff_tcp *t)
{
    int want = expected_incoming(t);
    double give_up = skiff_now() + SETUP_SECONDS;
    while (want > 0) {
        struct pollfd p = {t->listen_fd, POLLIN, 0};
        int ms = (int)((give_up - skiff_now()) * 1000);
        if (ms <= 0 || poll(&p, 1, ms) == 0) {
            skiff_error("tcp: %d connections from higher ranks did not arrive within %.0f s", want, SETUP_SECONDS);
            return -1;
        }
        struct sockaddr_in from;
        socklen_t fl = sizeof from;
        int fd = accept4(t->listen_fd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        struct skiff_rail *r = admit(t, fd, &from);
        if (!r)
            continue;
        struct skiff_tcp_hello h;
        fill_hello(&h, r->index, t->peer[r->peer].nrails);
        skiff_tcp_tune(fd);
        if (io_full(fd, &h, sizeof h, 1)) {
            skiff_error("tcp: cannot answer rank %d on rail %d: %s", r->peer, r->index, strerror(errno));
            return -1;
        }
        want--;
    }
    return 0;
}

static int await_answers(struct skiff_tcp *t)
{
    for (int p = 0; p < skiff.rank; p++) {
        for (int i = 0; t->uses[p] && i < t->peer[p].nrails; i++) {
            struct skiff_rail *r = &t->peer[p].rail[i];
            struct skiff_tcp_hello h;
            const char *why = "no answer";
            timeouts(r->fd, (int)SETUP_SECONDS);
            if (io_full(r->fd, &h, sizeof h, 0) == 0 &&
                skiff_tcp_hello_check(&h, skiff_boot.jobid, skiff_boot.secret, skiff.size, &why) == 0 &&
                ((int)h.rank != p || h.rail != i ? (why = "answer from the wrong rank or rail", 0) : 1))
                continue;
            skiff_error("tcp: rank %d did not accept rail %d: %s", p, i, why);
            return -1;
        }
    }
    return 0;
}

int skiff_tcp_connect_all(struct skiff_tcp *t)
{
    for (int p = 0; p < skiff.rank; p++)
        if (t->uses[p] && connect_out(t, p, t->peer[p].port))
            return -1;
    return accept_in(t) || await_answers(t) ? -1 : 0;
}
