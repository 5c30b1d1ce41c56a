/* --tcp / --tcp-server: plain TCP between two processes, no MPI: the floor under any MPI over TCP.
 * The client leads like rank 0; the server mirrors whatever the client asks (mode, sizes, buffers), so
 * it needs no options but its port. Blocking sockets with TCP_NODELAY; a broken connection ends the
 * program, as there is nothing sensible to measure after it. */
#define _POSIX_C_SOURCE 200809L /* getaddrinfo, MSG_NOSIGNAL */
#include "skiff_pipe.h"

#include "walltime.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { HELLO_WORDS = 6, CONNECT_TRIES = 100 };
static const uint64_t MAGIC = 0x534b504950453032ull; /* "SKPIPE02": the server reports its CPU time */

struct tcp_ctx {
    int fd, leader;
    enum pipe_mode mode;
    struct pipe_buf sbuf, rbuf;
};

static void die(const char *what, const char *why)
{
    fprintf(stderr, "skiff-pipe: tcp: %s: %s\n", what, why);
    exit(1);
}

static void read_all(int fd, void *p, size_t n)
{
    unsigned char *b = p;
    while (n > 0) {
        ssize_t got = recv(fd, b, n, MSG_WAITALL);
        if (got > 0) {
            b += got;
            n -= (size_t)got;
        } else if (got == 0) {
            die("receive", "the peer closed the connection");
        } else if (errno != EINTR) {
            die("receive", strerror(errno));
        }
    }
}

static void write_all(int fd, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t put = send(fd, b, n, MSG_NOSIGNAL);
        if (put >= 0) {
            b += put;
            n -= (size_t)put;
        } else if (errno != EINTR) {
            die("send", strerror(errno));
        }
    }
}

/* Words travel big-endian, so client and server may differ in byte order. */
static void put_words(int fd, const uint64_t *w, int n)
{
    unsigned char buf[8 * HELLO_WORDS];
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            buf[8 * i + b] = (unsigned char)(w[i] >> (56 - 8 * b));
    write_all(fd, buf, (size_t)n * 8);
}

static void get_words(int fd, uint64_t *w, int n)
{
    unsigned char buf[8 * HELLO_WORDS];
    read_all(fd, buf, (size_t)n * 8);
    for (int i = 0; i < n; i++) {
        w[i] = 0;
        for (int b = 0; b < 8; b++)
            w[i] = w[i] << 8 | buf[8 * i + b];
    }
}

static void tcp_agree(void *ctx, struct pipe_job *job)
{
    struct tcp_ctx *c = ctx;
    uint64_t w[2] = {(uint64_t)job->bytes, (uint64_t)job->reps};
    if (c->leader) {
        put_words(c->fd, w, 2);
        return;
    }
    get_words(c->fd, w, 2);
    job->bytes = (long long)w[0];
    job->reps = (long long)w[1]; /* two's complement round trip: -1 stays -1 */
}

/* The server says it is ready, the client starts the clock when it hears that. */
static double start(struct tcp_ctx *c)
{
    unsigned char ready = 1;
    if (c->leader)
        read_all(c->fd, &ready, 1);
    else
        write_all(c->fd, &ready, 1);
    return m_walltime();
}

/* After each run the server sends its CPU and wall time (three doubles' bit patterns as words). */
static void cpu_exchange(struct tcp_ctx *c, struct pipe_result *res)
{
    uint64_t w[3];
    double *v[3] = {&res->cpu[1].user, &res->cpu[1].sys, &res->cpu[1].wall};
    if (c->leader) {
        get_words(c->fd, w, 3);
        for (int i = 0; i < 3; i++)
            memcpy(v[i], &w[i], sizeof w[i]);
        return;
    }
    const double *mine[3] = {&res->cpu[0].user, &res->cpu[0].sys, &res->cpu[0].wall};
    for (int i = 0; i < 3; i++)
        memcpy(&w[i], mine[i], sizeof w[i]);
    put_words(c->fd, w, 3);
}

static struct pipe_result tcp_run(void *ctx, const struct pipe_job *job)
{
    struct tcp_ctx *c = ctx;
    size_t n = (size_t)job->bytes;
    unsigned char ack = 0;
    struct pipe_result res;
    memset(&res, 0, sizeof res);
    pipe_cpu_now(&res.cpu[0]);
    double t0 = start(c);
    for (long long i = 0; i < job->reps; i++) {
        if (c->leader)
            write_all(c->fd, pipe_buf_next(&c->sbuf, n), n);
        if (c->mode == PIPE_STREAM && c->leader)
            continue;
        read_all(c->fd, pipe_buf_next(&c->rbuf, n), n);
        if (!c->leader && c->mode == PIPE_PINGPONG)
            write_all(c->fd, pipe_buf_next(&c->sbuf, n), n);
    }
    if (c->mode == PIPE_STREAM && c->leader)
        read_all(c->fd, &ack, 1);
    else if (c->mode == PIPE_STREAM)
        write_all(c->fd, &ack, 1);
    res.seconds = res.mean_seconds = m_walltime() - t0;
    pipe_cpu_since(&res.cpu[0]);
    cpu_exchange(c, &res);
    return res;
}

static void nodelay(int fd)
{
    int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
        die("TCP_NODELAY", strerror(errno));
}

/* Tries every address of host:port; the server may still be starting, so refusals are retried for
 * about ten seconds. */
static int connect_to(const char *host, int port)
{
    char service[16];
    struct addrinfo hints, *list = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host, service, &hints, &list);
    if (rc != 0)
        die(host, gai_strerror(rc));
    for (int tries = 0; tries < CONNECT_TRIES; tries++) {
        for (struct addrinfo *a = list; a; a = a->ai_next) {
            int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
            if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
                freeaddrinfo(list);
                return fd;
            }
            if (fd >= 0)
                close(fd);
        }
        nanosleep(&(struct timespec){0, 100000000}, NULL);
    }
    freeaddrinfo(list);
    die(host, "cannot connect (is skiff-pipe --tcp-server running there?)");
    return -1;
}

/* Both ends allocate the same buffers: the client's options, sent in the hello. */
static void buffers(struct tcp_ctx *c, const uint64_t *hello)
{
    if (pipe_buf_init(&c->sbuf, hello[2], hello[4], hello[3], 1) != 0 ||
        pipe_buf_init(&c->rbuf, hello[2], hello[5], hello[3], 1) != 0)
        exit(1);
}

int pipe_tcp_client_main(const struct pipe_opts *o)
{
    struct tcp_ctx c;
    memset(&c, 0, sizeof c);
    c.leader = 1;
    c.mode = o->mode;
    c.fd = connect_to(o->host, o->port);
    nodelay(c.fd);
    uint64_t hello[HELLO_WORDS] = {MAGIC, (uint64_t)o->mode, o->end, o->nocache ? pipe_window(o) : 0,
                                   o->soffset, o->roffset};
    put_words(c.fd, hello, HELLO_WORDS);
    buffers(&c, hello);
    uint64_t ok;
    get_words(c.fd, &ok, 1); /* the server has its buffers */
    struct pipe_link l = {.ctx = &c, .leader = 1, .agree = tcp_agree, .run = tcp_run,
                          .legs = o->mode == PIPE_PINGPONG ? 2 : 1, .dirs = 1};
    char what[300];
    snprintf(what, sizeof what, "TCP to %.200s port %d", o->host, o->port);
    int rc = pipe_measure(&l, o, what);
    close(c.fd);
    pipe_buf_free(&c.sbuf);
    pipe_buf_free(&c.rbuf);
    return rc;
}

/* A socket listening on every address of one family; -1 if the family is missing or the bind fails. */
static int listen_family(int family, int port)
{
    int one = 1, zero = 0, rc, fd = socket(family, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (family == AF_INET6) {
        struct sockaddr_in6 a;
        memset(&a, 0, sizeof a);
        a.sin6_family = AF_INET6;
        a.sin6_addr = in6addr_any;
        a.sin6_port = htons((uint16_t)port);
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero); /* IPv4 clients too */
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    } else {
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        a.sin_port = htons((uint16_t)port);
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    }
    if (rc == 0 && listen(fd, 1) == 0)
        return fd;
    int err = errno;
    close(fd);
    errno = err;
    return -1;
}

/* IPv6 with IPv4 mapped where the kernel has IPv6, else IPv4 alone. */
static int listen_on(int port)
{
    int fd = listen_family(AF_INET6, port);
    if (fd < 0)
        fd = listen_family(AF_INET, port);
    if (fd < 0)
        die("listen", strerror(errno));
    return fd;
}

static int bound_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &len);
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

int pipe_tcp_server_main(const struct pipe_opts *o)
{
    int lfd = listen_on(o->port);
    fprintf(stderr, "skiff-pipe: tcp server listening on port %d\n", bound_port(lfd));
    struct tcp_ctx c;
    memset(&c, 0, sizeof c);
    c.fd = accept(lfd, NULL, NULL);
    if (c.fd < 0)
        die("accept", strerror(errno));
    close(lfd);
    nodelay(c.fd);
    uint64_t hello[HELLO_WORDS];
    get_words(c.fd, hello, HELLO_WORDS);
    if (hello[0] != MAGIC || hello[1] > PIPE_STREAM || hello[2] > (1u << 30) || hello[3] > (1ull << 32) ||
        hello[4] > (1u << 20) || hello[5] > (1u << 20))
        die("hello", "not a skiff-pipe --tcp client");
    c.mode = (enum pipe_mode)hello[1];
    buffers(&c, hello);
    put_words(c.fd, hello, 1);
    struct pipe_link l = {.ctx = &c, .leader = 0, .agree = tcp_agree, .run = tcp_run, .legs = 1, .dirs = 1};
    pipe_follow(&l);
    close(c.fd);
    pipe_buf_free(&c.sbuf);
    pipe_buf_free(&c.rbuf);
    return 0;
}
