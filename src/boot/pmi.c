#include "boot/pmi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/config.h"
#include "util/log.h"

#define LINE_MAX_PMI 1024

static struct {
    int fd;
    char kvs[256];
} pmi = {.fd = -1};

int skiff_pmi_active(void)
{
    return pmi.fd >= 0;
}

static int send_line(const char *line)
{
    size_t len = strlen(line), off = 0;
    while (off < len) {
        ssize_t n = write(pmi.fd, line + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            skiff_error("writing to the PMI server (PMI_FD=%d) failed: %s", pmi.fd, strerror(errno));
            return -1;
        }
        off += (size_t)n;
    }
    return 0;
}

/* One reply line, without its newline. Byte by byte: the server may already have sent the next. */
static int read_line(char *buf, size_t len)
{
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t r = read(pmi.fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            skiff_error("the PMI server (PMI_FD=%d) closed the connection", pmi.fd);
            return -1;
        }
        if (c == '\n')
            break;
        if (n + 1 < len)
            buf[n++] = c;
    }
    buf[n] = '\0';
    return 0;
}

/* The value of key in a reply line, or NULL. */
static const char *field(const char *line, const char *key, char *out, size_t len)
{
    size_t klen = strlen(key);
    for (const char *p = line; p && *p;) {
        while (*p == ' ')
            p++;
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            const char *v = p + klen + 1, *end = strchr(v, ' ');
            size_t n = end ? (size_t)(end - v) : strlen(v);
            if (n >= len)
                n = len - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return out;
        }
        p = strchr(p, ' ');
    }
    return NULL;
}

/* Sends a command and reads the reply whose cmd is `expect`; checks rc when the reply has one. */
static int call(const char *cmd, const char *expect, char *reply, size_t len)
{
    char what[64], rc[16];
    if (send_line(cmd) || read_line(reply, len))
        return -1;
    if (!field(reply, "cmd", what, sizeof what) || strcmp(what, expect) != 0) {
        skiff_error("PMI server answered '%s' to '%.*s'", reply, (int)strcspn(cmd, ""), cmd);
        return -1;
    }
    if (field(reply, "rc", rc, sizeof rc) && strcmp(rc, "0") != 0) {
        skiff_error("PMI '%.*s' failed: %s", (int)strcspn(cmd, ""), cmd, reply);
        return -1;
    }
    return 0;
}

int skiff_pmi_init(int fd)
{
    char reply[LINE_MAX_PMI];
    pmi.fd = fd;
    if (call("cmd=init pmi_version=1 pmi_subversion=1\n", "response_to_init", reply, sizeof reply) ||
        call("cmd=get_my_kvsname\n", "my_kvsname", reply, sizeof reply) ||
        !field(reply, "kvsname", pmi.kvs, sizeof pmi.kvs)) {
        pmi.fd = -1;
        return -1;
    }
    return 0;
}

int skiff_pmi_put(const char *key, const char *value)
{
    char cmd[LINE_MAX_PMI], reply[LINE_MAX_PMI];
    snprintf(cmd, sizeof cmd, "cmd=put kvsname=%s key=%s value=%s\n", pmi.kvs, key, value);
    return call(cmd, "put_result", reply, sizeof reply);
}

int skiff_pmi_barrier(void)
{
    char reply[LINE_MAX_PMI];
    return call("cmd=barrier_in\n", "barrier_out", reply, sizeof reply);
}

int skiff_pmi_get(const char *key, char *value, size_t len)
{
    char cmd[LINE_MAX_PMI], reply[LINE_MAX_PMI];
    snprintf(cmd, sizeof cmd, "cmd=get kvsname=%s key=%s\n", pmi.kvs, key);
    if (call(cmd, "get_result", reply, sizeof reply))
        return -1;
    return field(reply, "value", value, len) ? 0 : -1;
}

static int env_int(const char *name, int *out)
{
    const char *v = skiff_config_launch_var(name);
    char *end;
    if (!v)
        return -1;
    long x = strtol(v, &end, 10);
    if (*end || x < 0 || x > (1 << 20)) {
        skiff_error("%s=%s is not a valid value", name, v);
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* PMI_PORT is "host:port" of a PMI server reachable over TCP. */
static int dial(const char *hostport)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host) {
        skiff_error("PMI_PORT=%s is not host:port", hostport);
        return -1;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res, *ai;
    int rc = getaddrinfo(host, colon + 1, &hints, &res), fd = -1;
    if (rc) {
        skiff_error("PMI_PORT=%s: %s", hostport, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        skiff_error("cannot reach the PMI server at PMI_PORT=%s: %s", hostport, strerror(errno));
    return fd;
}

/* Over PMI_PORT the server learns who we are from PMI_ID and answers with our rank and size. */
static int initack(int id, int *rank, int *size)
{
    char cmd[64], reply[LINE_MAX_PMI], v[32];
    snprintf(cmd, sizeof cmd, "cmd=initack pmiid=%d\n", id);
    if (call(cmd, "initack", reply, sizeof reply))
        return -1;
    for (int i = 0; i < 3; i++) {
        if (read_line(reply, sizeof reply))
            return -1;
        if (field(reply, "size", v, sizeof v))
            *size = atoi(v);
        else if (field(reply, "rank", v, sizeof v))
            *rank = atoi(v);
    }
    return 0;
}

/* Connects through PMI_FD, or PMI_PORT (+ PMI_ID), and says hello. rank and size start at -1 and
 * come from the server (PMI_PORT) or from PMI_RANK/PMI_SIZE. */
static int pmi1_init(int *rank, int *size)
{
    const char *port = skiff_config_launch_var("PMI_PORT");
    int fd, id;
    if (env_int("PMI_FD", &fd) == 0)
        port = NULL;
    else if (!port || (fd = dial(port)) < 0)
        return -1;
    pmi.fd = fd;
    if (port && env_int("PMI_ID", &id) == 0 && initack(id, rank, size))
        goto fail;
    if (*rank < 0 && env_int("PMI_RANK", rank))
        goto fail;
    if (*size < 0 && env_int("PMI_SIZE", size))
        goto fail;
    if (*size < 1 || *size > SKIFF_PMI_MAX_RANKS || *rank >= *size) {
        skiff_error("the PMI launcher gave rank %d of %d ranks", *rank, *size);
        goto fail;
    }
    if (skiff_pmi_init(fd) == 0)
        return 0;
fail:
    skiff_error("cannot start under the PMI launcher (%s=%s)", port ? "PMI_PORT" : "PMI_FD",
                port ? port : skiff_config_launch_var("PMI_FD"));
    pmi.fd = -1;
    return -1;
}

static void pmi1_finalize(void)
{
    char reply[LINE_MAX_PMI];
    if (pmi.fd < 0)
        return;
    call("cmd=finalize\n", "finalize_ack", reply, sizeof reply);
    close(pmi.fd);
    pmi.fd = -1;
}

static int pmi1_gone(void)
{
    if (pmi.fd < 0)
        return 0;
    struct pollfd p = {pmi.fd, POLLIN, 0};
    char c;
    /* The server never speaks unasked: anything readable now is its end of the connection. */
    if (poll(&p, 1, 0) != 1)
        return 0;
    return (p.revents & (POLLHUP | POLLERR)) || recv(pmi.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

static int pmi1_get(int owner, const char *key, char *value, size_t len)
{
    (void)owner; /* one space for the whole job */
    return skiff_pmi_get(key, value, len);
}

/* PMI_process_mapping as Hydra and Slurm write it; absent (skiff's mpiexec with one node, older
 * servers) means every rank on one node. */
static int pmi1_nodemap(struct skiff_nodemap *m, int size)
{
    char map[LINE_MAX_PMI];
    if (skiff_pmi_get("PMI_process_mapping", map, sizeof map) == 0 && strcmp(map, "") != 0)
        return skiff_nodemap_parse(m, size, map);
    return skiff_nodemap_single(m, size);
}

/* The launcher learns of an abort from the rank's exit code, as MPICH's own ranks tell Hydra. */
static void pmi1_abort(int code, const char *why)
{
    (void)code;
    (void)why;
}

/* PMI-1 reports no deaths: the node's segment (boot.c) and TCP's closed connections do. */
static int pmi1_dead_rank(int *aborted)
{
    *aborted = 0;
    return -1;
}

const struct skiff_pmi_client skiff_pmi1 = {
    .name = "PMI-1",
    .init = pmi1_init,
    .put = skiff_pmi_put,
    .fence = skiff_pmi_barrier,
    .get = pmi1_get,
    .nodemap = pmi1_nodemap,
    .abort = pmi1_abort,
    .finalize = pmi1_finalize,
    .gone = pmi1_gone,
    .dead_rank = pmi1_dead_rank,
};
