/* Placement of a PMI-mode job: which host entry (node) runs which block of ranks, how each node's
 * ranks are started and how they reach the PMI server; and the two descriptions of it that ranks
 * read from the key-value space. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiexec.h"

static void *xcalloc(int n, size_t size)
{
    void *p = calloc(n > 0 ? (size_t)n : 1, size);
    if (!p) {
        say(2, "mpiexec: out of memory\n");
        exit(1);
    }
    return p;
}

static bool is_this_machine(const struct job *job, const char *name)
{
    return !strcmp(name, "localhost") || !strcmp(name, job->hostname);
}

static bool any_slots(const struct options *o)
{
    for (int h = 0; h < o->nhosts; h++)
        if (o->hosts[h].slots)
            return true;
    return false;
}

/* How many ranks host entry h may take. A host without slots among hosts with slots counts one,
 * as in Open MPI's hostfiles; without any slots the ranks are spread evenly. */
static int capacity(const struct options *o, int h, int even)
{
    if (o->ppn)
        return o->ppn;
    if (any_slots(o))
        return o->hosts[h].slots ? o->hosts[h].slots : 1;
    return even;
}

static long total_capacity(const struct options *o, int even)
{
    long total = 0;
    for (int h = 0; h < o->nhosts; h++)
        total += capacity(o, h, even);
    return total;
}

/* Without -n, a job with slots or -ppn fills them all (as other MPI launchers do). */
static void default_nranks(struct options *o)
{
    if (o->nranks_given || (!o->ppn && !any_slots(o)))
        return;
    long n = total_capacity(o, 1);
    if (n > SKIFF_JOB_MAX_RANKS) {
        say(2, "mpiexec: the hosts offer %ld slots, more than %d ranks: give -n\n", n, SKIFF_JOB_MAX_RANKS);
        exit(2);
    }
    o->nranks = (int)n;
}

static void check_fit(const struct options *o, int even)
{
    long total = total_capacity(o, even);
    if (total >= o->nranks)
        return;
    if (o->ppn)
        say(2, "mpiexec: %d ranks do not fit on %d host%s with -ppn %d (at most %ld ranks)\n", o->nranks,
            o->nhosts, o->nhosts == 1 ? "" : "s", o->ppn, total);
    else
        say(2, "mpiexec: %d ranks do not fit in the %ld slots of the hosts given\n", o->nranks, total);
    exit(2);
}

static void resolve_node(const struct job *job, struct node *n)
{
    const struct options *o = &job->opt;
    n->launcher = o->launcher != LAUNCH_DEFAULT       ? o->launcher
                  : is_this_machine(job, n->host) ? LAUNCH_LOCAL
                                                    : LAUNCH_SSH;
    n->channel = o->channel != CHAN_DEFAULT ? o->channel : n->launcher == LAUNCH_SSH ? CHAN_PORT : CHAN_FD;
    if (n->launcher == LAUNCH_SSH && n->channel == CHAN_FD)
        usage_error("--pmi fd cannot reach ranks started through ssh (use --pmi port)", n->host);
}

void placement_build(struct job *job)
{
    struct options *o = &job->opt;
    if (o->nhosts == 0) { /* PMI mode on this machine alone */
        o->hosts = xcalloc(1, sizeof *o->hosts);
        o->hosts[0] = (struct host){ xcalloc((int)strlen(job->hostname) + 1, 1), 0 };
        strcpy(o->hosts[0].name, job->hostname);
        o->nhosts = 1;
    }
    default_nranks(o);
    int even = (o->nranks + o->nhosts - 1) / o->nhosts;
    check_fit(o, even);
    job->nodes = xcalloc(o->nhosts, sizeof *job->nodes);
    job->nnodes = 0;
    job->nlocal = 0;
    /* Block placement: each host takes as many ranks as it may, in order; the rest are unused. */
    for (int h = 0, next = 0; h < o->nhosts && next < o->nranks; h++) {
        int count = capacity(o, h, even);
        if (count > o->nranks - next)
            count = o->nranks - next;
        struct node *n = &job->nodes[job->nnodes++];
        *n = (struct node){ .host = o->hosts[h].name, .first = next, .count = count };
        resolve_node(job, n);
        if (n->launcher == LAUNCH_LOCAL)
            job->nlocal += count;
        next += count;
    }
}

void placement_release(struct job *job)
{
    free(job->nodes);
    job->nodes = NULL;
    job->nnodes = 0;
}

int rank_node(const struct job *job, int r)
{
    int lo = 0, hi = job->nnodes - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (job->nodes[mid].first <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int rank_local_slot(const struct job *job, int r)
{
    int node = rank_node(job, r), slot = 0;
    if (job->nodes[node].launcher != LAUNCH_LOCAL)
        return -1;
    for (int i = 0; i < node; i++)
        if (job->nodes[i].launcher == LAUNCH_LOCAL)
            slot += job->nodes[i].count;
    return slot + r - job->nodes[node].first;
}

const char *rank_host(const struct job *job, int r)
{
    return job->nodes[rank_node(job, r)].host;
}

/* A growing string for the two descriptions below. */
struct text {
    char *s;
    size_t len, cap;
};

static void append(struct text *t, const char *piece)
{
    size_t n = strlen(piece);
    if (t->len + n + 1 > t->cap) {
        t->cap = 2 * (t->len + n + 1);
        t->s = realloc(t->s, t->cap);
        if (!t->s) {
            say(2, "mpiexec: out of memory\n");
            exit(1);
        }
    }
    memcpy(t->s + t->len, piece, n + 1);
    t->len += n;
}

/* Consecutive nodes with the same number of ranks make one (first_node,nodes,ranks_per_node)
 * triple, exactly as Hydra compresses its block placements. */
char *placement_mapping(const struct job *job)
{
    struct text t = { 0 };
    append(&t, "(vector");
    for (int i = 0; i < job->nnodes;) {
        int j = i + 1;
        while (j < job->nnodes && job->nodes[j].count == job->nodes[i].count)
            j++;
        char triple[48];
        snprintf(triple, sizeof triple, ",(%d,%d,%d)", i, j - i, job->nodes[i].count);
        append(&t, triple);
        i = j;
    }
    append(&t, ")");
    return t.s;
}

char *placement_hostlist(const struct job *job)
{
    struct text t = { 0 };
    append(&t, "");
    for (int i = 0; i < job->nnodes; i++) {
        if (i)
            append(&t, ",");
        append(&t, job->nodes[i].host);
    }
    return t.s;
}
