/* The command that starts a rank in PMI mode, and the environment it gets (docs/launch.md has the
 * contract). Runs in the child between fork and exec; mpiexec is single-threaded, so allocating
 * here is safe. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpiexec.h"

static char *const ssh_default[] = { "ssh", "-o", "BatchMode=yes", "{host}", NULL };

/* Inherited from mpiexec's own environment, any of these would send the rank down the wrong path
 * (SKIFF_RANK means "one host, job segment"; a stale PMI_FD names some other descriptor). */
static const char *const stale_vars[] = { "SKIFF_RANK", "SKIFF_SIZE", "SKIFF_JOB_FD", "SKIFF_NODE_CPUS",
                                          "PMI_FD", "PMI_PORT", "PMI_ID", "PMI_RANK", "PMI_SIZE" };

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    char *s;
    va_list ap;
    va_start(ap, f);
    int n = vasprintf(&s, f, ap);
    va_end(ap);
    return n < 0 ? NULL : s;
}

static const struct node *node_of(const struct job *job, int r)
{
    return &job->nodes[rank_node(job, r)];
}

/* Where a PMI_PORT rank connects: a local rank always reaches the loopback address; a rank on
 * another host (or in another network namespace) needs an address that leads here. */
static const char *server_addr(const struct job *job, const struct node *n)
{
    if (n->launcher == LAUNCH_LOCAL)
        return "127.0.0.1";
    return job->opt.pmi_host ? job->opt.pmi_host : job->hostname;
}

/* -x VAR alone passes mpiexec's value; spelled out, it survives launchers that reset the env. */
static char *xvar(const char *x)
{
    if (strchr(x, '='))
        return fmt("%s", x);
    const char *v = getenv(x);
    return v ? fmt("%s=%s", x, v) : fmt("%s", ""); /* "" marks "skip" */
}

/* Rank r's variables, "NAME=VALUE" each, NULL-terminated; NULL when out of memory. */
static char **rank_vars(const struct job *job, int r, int pmi_fd)
{
    const struct node *n = node_of(job, r);
    char **v = calloc((size_t)job->opt.nxvars + 11, sizeof *v);
    int k = 0;
    if (!v)
        return NULL;
    v[k++] = fmt("PMI_RANK=%d", r);
    v[k++] = fmt("PMI_SIZE=%d", job->opt.nranks);
    if (n->channel == CHAN_FD) {
        v[k++] = fmt("PMI_FD=%d", pmi_fd);
    } else {
        v[k++] = fmt("PMI_PORT=%s:%d", server_addr(job, n), pmi_port(job));
        v[k++] = fmt("PMI_ID=%d", r);
    }
    v[k++] = fmt("SKIFF_JOBID=%016" PRIx64, job->jobid);
    v[k++] = fmt("SKIFF_SECRET=%016" PRIx64, job->secret);
    /* Our CPU count says nothing about another machine's. */
    if (n->launcher != LAUNCH_SSH)
        v[k++] = fmt("SKIFF_NODE_CPUS=%d", job->node_cpus);
    if (job->opt.profile)
        v[k++] = fmt("SKIFF_PROFILE=1");
    if (job->opt.trace)
        v[k++] = fmt("SKIFF_TRACE=1");
    for (int i = 0; i < job->opt.nxvars; i++)
        v[k++] = xvar(job->opt.xvars[i]);
    for (int i = 0; i < k; i++)
        if (!v[i])
            return NULL;
    return v;
}

/* word with every "{host}" replaced by host. */
static char *subst_host(const char *word, const char *host)
{
    size_t n = 0;
    for (const char *p = word; (p = strstr(p, "{host}")); p += 6)
        n++;
    char *out = malloc(strlen(word) + n * strlen(host) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = word, *hit; *p; p = hit + 6) {
        hit = strstr(p, "{host}");
        size_t len = hit ? (size_t)(hit - p) : strlen(p);
        memcpy(o, p, len);
        o += len;
        if (!hit)
            break;
        strcpy(o, host);
        o += strlen(host);
    }
    *o = '\0';
    return out;
}

/* 'word' for a POSIX shell: single quotes, each ' written as '\''. */
static char *quote(const char *s)
{
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *out = malloc(n), *o = out;
    if (!out)
        return NULL;
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}

/* A growing NULL-terminated word list. */
struct words {
    char **w;
    size_t n, cap;
    bool failed;
};

static void push(struct words *w, char *word)
{
    if (!word || w->failed) {
        w->failed = true;
        return;
    }
    if (w->n + 2 > w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 16;
        char **nw = realloc(w->w, cap * sizeof *nw);
        if (!nw) {
            w->failed = true;
            return;
        }
        w->w = nw;
        w->cap = cap;
    }
    w->w[w->n++] = word;
    w->w[w->n] = NULL;
}

static void push_prefix(struct words *w, const struct job *job, const struct node *n)
{
    char *const *prefix = job->opt.prefix ? job->opt.prefix : ssh_default;
    for (char *const *p = prefix; *p; p++)
        push(w, subst_host(*p, n->host));
}

static char *join(char **w)
{
    size_t len = 1;
    for (char **p = w; *p; p++)
        len += strlen(*p) + 1;
    char *out = malloc(len), *o = out;
    if (!out)
        return NULL;
    for (char **p = w; *p; p++)
        o += sprintf(o, "%s%s", p == w ? "" : " ", *p);
    *o = '\0';
    return out;
}

/* ssh runs its words through the remote user's shell, joined by spaces: the command must arrive
 * as one string, quoted word by word, and start in our directory. */
static char *remote_command(const struct job *job, char **vars)
{
    struct words w = { 0 };
    if (job->cwd) {
        push(&w, fmt("cd"));
        push(&w, quote(job->cwd));
        push(&w, fmt("&&"));
    }
    push(&w, fmt("exec"));
    push(&w, fmt("env"));
    for (char **p = vars; *p; p++)
        if (**p)
            push(&w, quote(*p));
    for (char **p = job->opt.argv; *p; p++)
        push(&w, quote(*p));
    return w.failed ? NULL : join(w.w);
}

static void exec_local(const struct job *job, char **vars)
{
    for (char **p = vars; *p; p++)
        if (**p)
            putenv(*p);
    execvp(job->opt.argv[0], job->opt.argv);
}

static void exec_launcher(const struct job *job, const struct node *n, char **vars)
{
    struct words w = { 0 };
    push_prefix(&w, job, n);
    if (n->launcher == LAUNCH_SSH) {
        push(&w, remote_command(job, vars));
    } else {
        push(&w, fmt("env"));
        for (char **p = vars; *p; p++)
            if (**p)
                push(&w, *p);
        for (char **p = job->opt.argv; *p; p++)
            push(&w, *p);
    }
    if (w.failed) {
        errno = ENOMEM;
        return;
    }
    execvp(w.w[0], w.w);
}

void launch_exec(const struct job *job, int r, int pmi_fd)
{
    for (size_t i = 0; i < sizeof stale_vars / sizeof *stale_vars; i++)
        unsetenv(stale_vars[i]);
    char **vars = rank_vars(job, r, pmi_fd);
    if (!vars) {
        errno = ENOMEM;
        return;
    }
    const struct node *n = node_of(job, r);
    if (n->launcher == LAUNCH_LOCAL)
        exec_local(job, vars);
    else
        exec_launcher(job, n, vars);
}

const char *launch_name(const struct job *job, int r)
{
    if (node_of(job, r)->launcher == LAUNCH_LOCAL)
        return job->opt.argv[0];
    return job->opt.prefix ? job->opt.prefix[0] : ssh_default[0];
}
