/* mpiexec's PMI-1 server (PMI mode): the wire protocol that MPICH's Hydra speaks, on one socketpair
 * per rank (PMI_FD) or on TCP connections that name their rank with initack (PMI_PORT).
 *
 * Lines are "key=value" pairs separated by spaces, parsed as pairs, never by position. Everything
 * is non-blocking and driven by mpiexec's one poll() loop: a connection keeps the part of a line
 * not yet complete and the replies the rank has not read yet. The key-value space is global and a
 * put is visible at once, which is more than PMI promises (visible after the next barrier). */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mpiexec.h"

#define LINE_MAX_PMI  1024        /* bytes in a line, newline included */
#define KEYLEN_MAX    64          /* what get_maxes promises, terminating NUL included */
#define VALLEN_MAX    1024
#define KVSNAME_MAX   256
#define OUT_MAX       (1u << 20)  /* replies a rank may leave unread before it is dropped */
#define PENDING_MAX   64          /* TCP connections not yet identified by initack */
#define ARGS_MAX      16
#define REPLY_VALUE_MAX (LINE_MAX_PMI - 32) /* a value that still fits a get_result line */

struct conn {
    int fd;             /* -1: free slot */
    int rank;           /* -1 until identified (PMI_FD: from the start; PMI_PORT: by initack) */
    size_t inlen;
    char in[LINE_MAX_PMI];
    char *out;          /* replies not yet written */
    size_t outlen, outcap;
};

struct pmi_rank {
    uint32_t state;     /* enum skiff_rank_state, as the job segment would say */
    int abort_code;
    bool in_barrier;
    bool claimed;       /* a connection identified as this rank: later claims are refused */
    int conn;           /* its connection, or -1 */
};

struct pmi_server {
    int listen_fd;
    int port;
    struct conn *conns;
    int nconns;         /* slots: one per rank plus PENDING_MAX */
    struct pmi_rank *ranks;
    int in_barrier;
    bool warned_full;
    struct kvs *kvs;
    char kvsname[32];
};

/* One parsed line: its pairs, pointing into the line. */
struct msg {
    int n;
    const char *key[ARGS_MAX], *val[ARGS_MAX];
};

static const char *arg(const struct msg *m, const char *key)
{
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->key[i], key))
            return m->val[i];
    return NULL;
}

/* Splits "a=1 b=2" in place; a word without '=' is a key with an empty value. */
static bool parse(char *line, struct msg *m)
{
    m->n = 0;
    for (char *save, *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
        if (m->n == ARGS_MAX)
            return false;
        char *eq = strchr(t, '=');
        if (eq)
            *eq = '\0';
        m->key[m->n] = t;
        m->val[m->n++] = eq ? eq + 1 : "";
    }
    return true;
}

/* ---- connections ------------------------------------------------------------------------------ */

/* "rank 3 on host h1", or a stand-in for a connection that has not said who it is. */
static const char *who(const struct job *job, const struct conn *c, char *buf, size_t len)
{
    if (c->rank < 0)
        snprintf(buf, len, "an unidentified PMI connection");
    else
        snprintf(buf, len, "rank %d on host %s", c->rank, rank_host(job, c->rank));
    return buf;
}

static void conn_close(struct pmi_server *s, struct conn *c)
{
    if (c->fd < 0)
        return;
    close(c->fd);
    if (c->rank >= 0 && s->ranks[c->rank].conn == (int)(c - s->conns))
        s->ranks[c->rank].conn = -1;
    free(c->out);
    *c = (struct conn){ .fd = -1, .rank = -1 };
}

/* Writes what the socket takes now; the rest waits for POLLOUT. A reader that went away is closed. */
static void conn_flush(struct pmi_server *s, struct conn *c)
{
    while (c->fd >= 0 && c->outlen > 0) {
        ssize_t n = send(c->fd, c->out, c->outlen, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            conn_close(s, c);
            return;
        }
        memmove(c->out, c->out + n, c->outlen - (size_t)n);
        c->outlen -= (size_t)n;
    }
}

static void reply(struct job *job, struct conn *c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reply(struct job *job, struct conn *c, const char *fmt, ...)
{
    char line[LINE_MAX_PMI + 64], w[96];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || c->fd < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (c->outlen + len > OUT_MAX) {
        say(2, "mpiexec: %s does not read its PMI replies; closing its PMI connection\n", who(job, c, w, sizeof w));
        conn_close(job->pmi, c);
        return;
    }
    if (c->outlen + len > c->outcap) {
        size_t cap = 2 * (c->outlen + len);
        char *p = realloc(c->out, cap);
        if (!p) {
            conn_close(job->pmi, c);
            return;
        }
        c->out = p;
        c->outcap = cap;
    }
    memcpy(c->out + c->outlen, line, len);
    c->outlen += len;
    if (job->opt.pmi_trace)
        say(2, "mpiexec: pmi %s -> %.*s", who(job, c, w, sizeof w), (int)len, line);
    conn_flush(job->pmi, c);
}

static struct conn *free_slot(struct pmi_server *s)
{
    for (int i = 0; i < s->nconns; i++)
        if (s->conns[i].fd < 0)
            return &s->conns[i];
    return NULL;
}

static void bind_rank(struct pmi_server *s, struct conn *c, int r)
{
    c->rank = r;
    s->ranks[r].claimed = true;
    s->ranks[r].conn = (int)(c - s->conns);
}

/* ---- commands --------------------------------------------------------------------------------- */

static void release_barrier(struct job *job)
{
    struct pmi_server *s = job->pmi;
    for (int r = 0; r < job->opt.nranks; r++) {
        if (!s->ranks[r].in_barrier)
            continue;
        s->ranks[r].in_barrier = false;
        if (s->ranks[r].conn >= 0)
            reply(job, &s->conns[s->ranks[r].conn], "cmd=barrier_out\n");
    }
    s->in_barrier = 0;
}

static void cmd_barrier_in(struct job *job, struct conn *c, const struct msg *m)
{
    (void)m;
    struct pmi_server *s = job->pmi;
    if (!s->ranks[c->rank].in_barrier) {
        s->ranks[c->rank].in_barrier = true;
        s->in_barrier++;
    }
    if (s->in_barrier == job->opt.nranks)
        release_barrier(job);
}

/* A kvsname the rank did not give is taken as ours (lenient); a different one is an error. */
static bool kvsname_ok(const struct pmi_server *s, const struct msg *m)
{
    const char *k = arg(m, "kvsname");
    return !k || !strcmp(k, s->kvsname);
}

static void cmd_put(struct job *job, struct conn *c, const struct msg *m)
{
    struct pmi_server *s = job->pmi;
    const char *key = arg(m, "key"), *val = arg(m, "value");
    const char *err = !kvsname_ok(s, m)               ? "wrong_kvsname"
                      : !key || !*key || !val         ? "missing_key_or_value"
                      : strlen(key) >= KEYLEN_MAX     ? "key_too_long"
                      : strlen(val) >= VALLEN_MAX     ? "value_too_long"
                                                      : NULL;
    int rc = err ? 0 : kvs_put(s->kvs, key, val);
    if (!err && rc > 0)
        err = "duplicate_key_with_another_value";
    else if (!err && rc < 0)
        err = "kvs_full";
    if (err)
        reply(job, c, "cmd=put_result rc=-1 msg=%s\n", err);
    else
        reply(job, c, "cmd=put_result rc=0\n");
}

static void cmd_get(struct job *job, struct conn *c, const struct msg *m)
{
    struct pmi_server *s = job->pmi;
    const char *key = arg(m, "key");
    const char *val = key && kvsname_ok(s, m) ? kvs_get(s->kvs, key) : NULL;
    if (!kvsname_ok(s, m))
        reply(job, c, "cmd=get_result rc=-1 msg=wrong_kvsname\n");
    else if (!val)
        reply(job, c, "cmd=get_result rc=-1 msg=key_not_found\n");
    else
        reply(job, c, "cmd=get_result rc=0 value=%s\n", val);
}

static void cmd_init(struct job *job, struct conn *c, const struct msg *m)
{
    const char *v = arg(m, "pmi_version");
    if (v && strcmp(v, "1") != 0) {
        reply(job, c, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1 msg=only_pmi_version_1\n");
        return;
    }
    struct pmi_rank *pr = &job->pmi->ranks[c->rank];
    if (pr->state == SKIFF_RANK_STARTED)
        pr->state = SKIFF_RANK_INITIALIZED;
    reply(job, c, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n");
}

static void cmd_finalize(struct job *job, struct conn *c, const struct msg *m)
{
    (void)m;
    struct pmi_rank *pr = &job->pmi->ranks[c->rank];
    if (pr->state != SKIFF_RANK_ABORTED)
        pr->state = SKIFF_RANK_FINALIZED;
    reply(job, c, "cmd=finalize_ack\n");
}

static void cmd_abort(struct job *job, struct conn *c, const struct msg *m)
{
    const char *v = arg(m, "exitcode");
    char *end;
    long code = v ? strtol(v, &end, 10) : 1;
    if (!v || !*v || *end)
        code = 1; /* an abort without a (readable) code still fails the job */
    struct pmi_rank *pr = &job->pmi->ranks[c->rank];
    pr->state = SKIFF_RANK_ABORTED;
    pr->abort_code = (int)code;
    job_rank_aborted(job, c->rank);
}

static void cmd_get_maxes(struct job *job, struct conn *c, const struct msg *m)
{
    (void)m;
    reply(job, c, "cmd=maxes kvsname_max=%d keylen_max=%d vallen_max=%d rc=0\n", KVSNAME_MAX, KEYLEN_MAX,
          VALLEN_MAX);
}

static void cmd_get_my_kvsname(struct job *job, struct conn *c, const struct msg *m)
{
    (void)m;
    reply(job, c, "cmd=my_kvsname kvsname=%s rc=0\n", job->pmi->kvsname);
}

static void cmd_get_universe_size(struct job *job, struct conn *c, const struct msg *m)
{
    (void)m;
    reply(job, c, "cmd=universe_size size=%d rc=0\n", job->opt.nranks);
}

static void cmd_get_appnum(struct job *job, struct conn *c, const struct msg *m)
{
    (void)m;
    reply(job, c, "cmd=appnum appnum=0 rc=0\n");
}

/* PMI_PORT: "cmd=initack pmiid=N" names the rank; the answer carries size and rank as Hydra's does. */
static void cmd_initack(struct job *job, struct conn *c, const struct msg *m)
{
    struct pmi_server *s = job->pmi;
    const char *v = arg(m, "pmiid");
    char *end;
    long id = v ? strtol(v, &end, 10) : -1;
    bool bad = !v || !*v || *end || id < 0 || id >= job->opt.nranks;
    if (c->rank < 0 && !bad && s->ranks[id].claimed) {
        say(2, "mpiexec: a second PMI connection claims to be rank %ld; refused\n", id);
        bad = true;
    } else if (bad || (c->rank >= 0 && c->rank != id)) {
        say(2, "mpiexec: PMI initack with pmiid=%s (job of %d ranks); refused\n", v ? v : "(none)",
            job->opt.nranks);
        bad = true;
    }
    if (bad) {
        reply(job, c, "cmd=initack rc=-1 msg=bad_pmiid\n");
        conn_flush(s, c);
        conn_close(s, c);
        return;
    }
    if (c->rank < 0)
        bind_rank(s, c, (int)id);
    reply(job, c, "cmd=initack rc=0\ncmd=set size=%d\ncmd=set rank=%d\ncmd=set debug=0\n", job->opt.nranks,
          c->rank);
}

static const struct command {
    const char *name;
    void (*run)(struct job *, struct conn *, const struct msg *);
} commands[] = {
    { "initack", cmd_initack },
    { "init", cmd_init },
    { "get_maxes", cmd_get_maxes },
    { "get_my_kvsname", cmd_get_my_kvsname },
    { "get_universe_size", cmd_get_universe_size },
    { "get_appnum", cmd_get_appnum },
    { "put", cmd_put },
    { "get", cmd_get },
    { "barrier_in", cmd_barrier_in },
    { "finalize", cmd_finalize },
    { "abort", cmd_abort },
};

static void handle_line(struct job *job, struct conn *c, char *line)
{
    char w[96], shown[80];
    if (job->opt.pmi_trace)
        say(2, "mpiexec: pmi %s <- %s\n", who(job, c, w, sizeof w), line);
    snprintf(shown, sizeof shown, "%.*s", (int)sizeof shown - 1, line); /* parse() cuts the line up */
    struct msg m;
    const char *cmd = parse(line, &m) ? arg(&m, "cmd") : NULL;
    if (m.n == 0)
        return; /* an empty line */
    for (size_t i = 0; cmd && i < sizeof commands / sizeof *commands; i++) {
        if (strcmp(cmd, commands[i].name) != 0)
            continue;
        if (c->rank >= 0 || commands[i].run == cmd_initack) {
            commands[i].run(job, c, &m);
            return;
        }
        say(2, "mpiexec: a PMI connection sent '%s' before cmd=initack; closing it\n", shown);
        conn_close(job->pmi, c);
        return;
    }
    say(2, "mpiexec: %s sent an unsupported PMI command: '%s'\n", who(job, c, w, sizeof w), shown);
    reply(job, c, "cmd=%s rc=-1 msg=unsupported_command\n", cmd ? cmd : "error");
}

/* Handles every complete line in the buffer; false if the connection was closed meanwhile. */
static bool handle_lines(struct job *job, struct conn *c)
{
    int fd = c->fd;
    char *nl;
    while (c->fd == fd && (nl = memchr(c->in, '\n', c->inlen))) {
        char line[LINE_MAX_PMI];
        size_t len = (size_t)(nl - c->in);
        memcpy(line, c->in, len);
        line[len] = '\0';
        c->inlen -= len + 1;
        memmove(c->in, nl + 1, c->inlen);
        handle_line(job, c, line);
    }
    return c->fd == fd;
}

/* Reads once (drain: until nothing is left) and handles the complete lines. */
static void conn_read(struct job *job, struct conn *c, bool drain)
{
    char w[96];
    do {
        ssize_t n = read(c->fd, c->in + c->inlen, sizeof c->in - c->inlen);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) { /* EOF: the rank is gone or done with PMI */
            conn_close(job->pmi, c);
            return;
        }
        c->inlen += (size_t)n;
        if (!handle_lines(job, c))
            return;
        if (c->inlen == sizeof c->in) {
            say(2, "mpiexec: %s sent a PMI line longer than %d bytes; closing its PMI connection\n",
                who(job, c, w, sizeof w), LINE_MAX_PMI);
            conn_close(job->pmi, c);
            return;
        }
    } while (drain);
}

static void accept_all(struct job *job)
{
    struct pmi_server *s = job->pmi;
    int fd;
    while ((fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
        struct conn *c = free_slot(s);
        if (!c) {
            if (!s->warned_full)
                say(2, "mpiexec: too many PMI connections that did not say who they are; refusing more\n");
            s->warned_full = true;
            close(fd);
            continue;
        }
        *c = (struct conn){ .fd = fd, .rank = -1 };
    }
}

/* ---- the server ------------------------------------------------------------------------------- */

static int open_listener(int *port)
{
    /* One dual-stack socket answers IPv6 and IPv4 alike; plain IPv4 where IPv6 is off. */
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), off = 0;
    struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = in6addr_any };
    if (fd >= 0 && (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off) < 0 ||
                    bind(fd, (struct sockaddr *)&a6, sizeof a6) < 0)) {
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
        fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&a4, sizeof a4) < 0)
            goto fail;
    }
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (listen(fd, SOMAXCONN) < 0 || getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
        goto fail;
    *port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                           : ((struct sockaddr_in *)&ss)->sin_port);
    return fd;
fail:
    say(2, "mpiexec: cannot listen for PMI connections: %s\n", strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

/* The keys every rank finds before anyone puts: the placement, as Hydra describes it, and the
 * nodes' host names for messages. */
static bool prefill(struct job *job)
{
    struct pmi_server *s = job->pmi;
    char *map = placement_mapping(job), *hosts = placement_hostlist(job);
    bool ok = strlen(map) <= REPLY_VALUE_MAX;
    if (!ok)
        say(2, "mpiexec: this placement needs a PMI_process_mapping of %zu bytes, more than a PMI-1 line "
               "carries; give the hosts fewer distinct slot counts\n", strlen(map));
    if (ok && kvs_put(s->kvs, "PMI_process_mapping", map) != 0)
        ok = false;
    if (ok && strlen(hosts) > REPLY_VALUE_MAX)
        say(2, "mpiexec: warning: the host names do not fit in one PMI value; skiff-hosts is not set\n");
    else if (ok && kvs_put(s->kvs, "skiff-hosts", hosts) != 0)
        ok = false;
    free(map);
    free(hosts);
    return ok;
}

static bool needs_port(const struct job *job)
{
    for (int i = 0; i < job->nnodes; i++)
        if (job->nodes[i].channel == CHAN_PORT)
            return true;
    return false;
}

bool pmi_start(struct job *job)
{
    struct pmi_server *s = calloc(1, sizeof *s);
    if (!s) {
        say(2, "mpiexec: out of memory\n");
        return false;
    }
    job->pmi = s;
    s->listen_fd = -1;
    s->nconns = job->opt.nranks + PENDING_MAX;
    s->conns = calloc((size_t)s->nconns, sizeof *s->conns);
    s->ranks = calloc((size_t)job->opt.nranks, sizeof *s->ranks);
    s->kvs = kvs_new();
    if (!s->conns || !s->ranks || !s->kvs) {
        say(2, "mpiexec: out of memory\n");
        return false;
    }
    for (int i = 0; i < s->nconns; i++)
        s->conns[i] = (struct conn){ .fd = -1, .rank = -1 };
    for (int r = 0; r < job->opt.nranks; r++)
        s->ranks[r] = (struct pmi_rank){ .state = SKIFF_RANK_STARTED, .conn = -1 };
    snprintf(s->kvsname, sizeof s->kvsname, "skiff_%016" PRIx64, job->jobid);
    if (!prefill(job))
        return false;
    if (needs_port(job) && (s->listen_fd = open_listener(&s->port)) < 0)
        return false;
    return true;
}

void pmi_stop(struct job *job)
{
    struct pmi_server *s = job->pmi;
    if (!s)
        return;
    for (int i = 0; s->conns && i < s->nconns; i++)
        conn_close(s, &s->conns[i]);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    kvs_free(s->kvs);
    free(s->conns);
    free(s->ranks);
    free(s);
    job->pmi = NULL;
}

int pmi_port(const struct job *job)
{
    return job->pmi->port;
}

void pmi_attach(struct job *job, int r, int fd)
{
    struct conn *c = free_slot(job->pmi); /* never NULL: a slot per rank */
    *c = (struct conn){ .fd = fd, .rank = -1 };
    bind_rank(job->pmi, c, r);
}

int pmi_poll_size(const struct job *job)
{
    return 1 + job->pmi->nconns;
}

void pmi_poll_fill(const struct job *job, struct pollfd *pfd)
{
    const struct pmi_server *s = job->pmi;
    pfd[0] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
    for (int i = 0; i < s->nconns; i++) {
        const struct conn *c = &s->conns[i];
        pfd[1 + i] = (struct pollfd){ .fd = c->fd, .events = (short)(POLLIN | (c->outlen ? POLLOUT : 0)) };
    }
}

void pmi_poll_handle(struct job *job, const struct pollfd *pfd)
{
    struct pmi_server *s = job->pmi;
    for (int i = 0; i < s->nconns; i++) {
        struct conn *c = &s->conns[i];
        /* Skips slots closed (or refilled) since the poll. */
        if (!pfd[1 + i].revents || c->fd < 0 || c->fd != pfd[1 + i].fd)
            continue;
        if (pfd[1 + i].revents & POLLOUT)
            conn_flush(s, c);
        if (c->fd >= 0 && (pfd[1 + i].revents & (POLLIN | POLLHUP | POLLERR)))
            conn_read(job, c, false);
    }
    if (pfd[0].revents)
        accept_all(job);
}

void pmi_catch_up(struct job *job, int r)
{
    struct pmi_server *s = job->pmi;
    if (s->listen_fd >= 0)
        accept_all(job);
    for (int i = 0; i < s->nconns; i++)
        if (s->conns[i].fd >= 0 && s->conns[i].rank < 0)
            conn_read(job, &s->conns[i], true);
    if (s->ranks[r].conn >= 0)
        conn_read(job, &s->conns[s->ranks[r].conn], true);
}

uint32_t pmi_rank_state(const struct job *job, int r, int *abort_code, bool *in_barrier)
{
    const struct pmi_rank *pr = &job->pmi->ranks[r];
    if (abort_code)
        *abort_code = pr->abort_code;
    if (in_barrier)
        *in_barrier = pr->in_barrier;
    return pr->state;
}
