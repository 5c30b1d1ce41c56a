#include "util/config.h"

#include "core/transports.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct skiff_config skiff_cfg;

#define AT(field) offsetof(struct skiff_config, field)

/* Every setting: its name, how it is parsed, its default (parsed like a value from the environment,
 * so the default shown is the default used), its range, where it goes, and what it does. */
const struct skiff_config_row skiff_config_table[] = {
    {"SKIFF_DEBUG", SKIFF_CFG_INT, "0", 0, 2, AT(debug),
     "log level: 0 errors, 1 info, 2 debug (to stderr, prefixed with the rank)"},
    {"SKIFF_SHM_CMA", SKIFF_CFG_AUTO_INT, "auto", 0, 1, AT(shm_cma),
     "large shared-memory messages: 1 single copy (process_vm_readv), 0 pipelined copy, auto probes; 0 also keeps MPI_Win_create windows on messages"},
    {"SKIFF_SHM_EAGER", SKIFF_CFG_SIZE, "16384", 0, 1 << 20, AT(shm_eager),
     "largest message (bytes) sent eagerly over shared memory; larger ones use rendezvous (at most SKIFF_SHM_CELL)"},
    {"SKIFF_SHM_FBOX", SKIFF_CFG_SIZE, "16384", 4096, 1 << 22, AT(shm_fbox),
     "bytes of each per-pair fast box ring (rounded up to a power of two, 4 KiB minimum)"},
    {"SKIFF_SHM_CELL", SKIFF_CFG_SIZE, "32768", 4096, 1 << 22, AT(shm_cell),
     "payload bytes of one shared-memory queue cell (eager and pipelined copies)"},
    {"SKIFF_SHM_CELLS", SKIFF_CFG_INT, "32", 4, 4096, AT(shm_cells), "queue cells owned by each rank"},
    {"SKIFF_SPIN", SKIFF_CFG_AUTO_INT, "auto", 0, 1 << 30, AT(spin),
     "polls before a waiting rank yields the CPU (auto: long when ranks <= cores, none when oversubscribed)"},
    {"SKIFF_ASYNC_PROGRESS", SKIFF_CFG_INT, "0", 0, 1, AT(async_progress),
     "1: MPI_Init starts a progress thread per process that moves rendezvous transfers, nonblocking collectives and one-sided operations while the program computes (takes the library's lock on every call; docs/design.md, Threads)"},
    {"SKIFF_PROGRESS_TIMEOUT", SKIFF_CFG_SECONDS, "0", 0, 0, AT(progress_timeout),
     "seconds a blocking call may wait before it prints its pending requests (0 = never)"},
    {"SKIFF_FINALIZE_TIMEOUT", SKIFF_CFG_SECONDS, "5", 0, 0, AT(finalize_timeout),
     "seconds MPI_Finalize waits for a receiver to match a send before it reports the send and asks the receiver to drop it if unmatched"},
    {"SKIFF_BARRIER_N", SKIFF_CFG_INT, "2", 2, 64, AT(barrier_ways),
     "ways of the n-way dissemination barrier (messages each rank sends per round)"},
    {"SKIFF_NODE_SIZE", SKIFF_CFG_INT, "0", 0, 1 << 20, AT(node_size),
     "treat every N consecutive ranks as one node, to exercise node-aware algorithms on one machine (0: real hosts)"},
    {"SKIFF_TRANSPORTS", SKIFF_CFG_TRANSPORTS, "auto", 0, 0, AT(transports),
     "transports allowed: shm,tcp (shared memory within a node, tcp between nodes), tcp (tcp for every pair, loopback within a node), shm,ucx or ucx (UCX instead of tcp; only when built with UCX); auto: shm,ucx when UCX offers a network faster than tcp (RDMA verbs), else shm,tcp; self (a rank to itself) is always on"},
    {"SKIFF_TCP_NETS", SKIFF_CFG_STRING, "auto", 0, 0, AT(tcp_nets),
     "networks for tcp rails, comma-separated CIDRs (198.18.1.0/24) or interface names (eth1); auto: every non-loopback network both peers share, else loopback"},
    {"SKIFF_TCP_EAGER", SKIFF_CFG_SIZE, "65536", 0, 1 << 22, AT(tcp_eager),
     "largest message (bytes) sent eagerly over tcp; larger ones are striped over the rails after a handshake"},
    {"SKIFF_TCP_PIECE", SKIFF_CFG_SIZE, "262144", 4096, 1 << 26, AT(tcp_piece),
     "bytes of one piece of a striped message (pieces go to the rail with the shortest backlog)"},
    {"SKIFF_TCP_SOCKBUF", SKIFF_CFG_SIZE, "0", 0, 1 << 30, AT(tcp_sockbuf),
     "socket send and receive buffer bytes per rail; 0 leaves them to the kernel's autotuning, which sizes them to the measured bandwidth-delay product"},
    {"SKIFF_UCX_EAGER", SKIFF_CFG_SIZE, "65536", 0, 1 << 22, AT(ucx_eager),
     "largest message (bytes) sent eagerly over ucx; larger ones go after a handshake in pieces that UCX moves with its own rendezvous"},
    {"SKIFF_UCX_PIECE", SKIFF_CFG_SIZE, "4194304", 4096, 1 << 30, AT(ucx_piece),
     "bytes of one piece of a large message over ucx"},
    {"SKIFF_UCX_RDMA", SKIFF_CFG_INT, "1", 0, 1, AT(ucx_rdma),
     "1: put and get of windows made with memory (MPI_Win_create, MPI_Win_allocate) to ranks reached over ucx go by UCX's RMA, without the target's library; 0: as messages the target applies"},
    {"SKIFF_UCX_FABRIC", SKIFF_CFG_STRING, "probe", 0, 0, AT(ucx_fabric),
     "how SKIFF_TRANSPORTS=auto learns what UCX offers between nodes: probe (ask UCX only when /sys/class/infiniband lists a device), ask (always ask UCX), or a list of UCX transport names that stands in for UCX's answer (tests: rc_mlx5 chooses ucx, tcp chooses tcp)"},
    {"SKIFF_PROFILE", SKIFF_CFG_INT, "0", 0, 1, AT(profile),
     "1: every rank records count, time and message sizes of each MPI call; rank 0 writes one report at MPI_Finalize (docs/profiler.md)"},
    {"SKIFF_PROFILE_FILE", SKIFF_CFG_STRING, "skiff-profile.<job>.txt", 0, 0, AT(profile_file),
     "path of the profile report that rank 0 writes (default: in the working directory, named after the job id, or rank 0's pid)"},
    {"SKIFF_TRACE", SKIFF_CFG_INT, "0", 0, 1, AT(trace),
     "1: every rank records each MPI call's start and end and the messages inside it (collectives' too); one file per rank at MPI_Finalize, for skiff-replay (docs/trace.md)"},
    {"SKIFF_TRACE_FILE", SKIFF_CFG_STRING, "skiff-trace.<job>", 0, 0, AT(trace_file),
     "prefix of the trace files: rank r writes <prefix>.<r> (default: in the working directory, named after the job id, or rank 0's pid)"},
    {"SKIFF_TRACE_RECORDS", SKIFF_CFG_SIZE, "1048576", 16, 4294967296.0, AT(trace_records),
     "records (40 bytes each) a rank keeps at most; when full, recording stops and the trace says it is truncated"},
    {NULL, 0, NULL, 0, 0, 0, NULL},
};

/* Why a value is refused, said once by the caller that wants it said (MPI_Init does; MPI_T does not). */
#define WHY_MAX 160

static int bad(const struct skiff_config_row *r, const char *val, char *why, const char *text)
{
    snprintf(why, WHY_MAX, "skiff: %s=%s: %s", r->name, val, text);
    return -1;
}

/* A count of bytes (or a plain number), with k or m for KiB and MiB. */
static int parse_size(const struct skiff_config_row *r, const char *v, unsigned long long *out, char *why)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20 : 0;
    if (shift && end > v) {
        errno = x > (~0ull >> shift) ? ERANGE : errno; /* 2^54 m must not wrap to something in range */
        x <<= shift;
        end++;
    }
    if (errno || end == v || *end || *v == '-' || (double)x < r->min || (double)x > r->max) {
        char text[96];
        snprintf(text, sizeof text, "expected %s between %.0f and %.0f",
                 r->kind == SKIFF_CFG_SIZE       ? "a size in bytes"
                 : r->kind == SKIFF_CFG_AUTO_INT ? "auto or a number"
                                                 : "a number",
                 r->min, r->max);
        return bad(r, v, why, text);
    }
    *out = x;
    return 0;
}

/* Names from the list of transports (core/transports.c); at most one that reaches every rank. */
static int parse_transports(const struct skiff_config_row *r, const char *v, int *out, char *why)
{
    /* Decided when a job spans nodes (ucx/load.c); without UCX there is nothing to decide. */
    if (strcmp(v, "auto") == 0) {
        *out = skiff_transport_bit("shm") | skiff_transport_bit("tcp");
#ifdef SKIFF_HAVE_UCX
        *out |= SKIFF_TRANSPORTS_AUTO;
#endif
        return 0;
    }
    char buf[64], expected[128] = "expected a list of";
    for (int i = 0; i < skiff_transport_nkinds; i++)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%s %s", i ? "," : "",
                 skiff_transport_kinds[i].name);
    snprintf(buf, sizeof buf, "%s", v);
    *out = 0;
    int anywhere = 0;
    for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int bit = skiff_transport_bit(w);
        if (!bit)
            return bad(r, v, why, expected);
        const struct skiff_transport_kind *k = &skiff_transport_kinds[__builtin_ctz((unsigned)bit)];
        if (!k->init)
            return bad(r, v, why, k->absent);
        if (k->reach == SKIFF_REACH_ALL && !(*out & bit) && anywhere++) /* the core gives each peer one */
            return bad(r, v, why, "names two transports between nodes (they exclude each other)");
        *out |= bit;
    }
    if (!*out)
        return bad(r, v, why, expected);
    return 0;
}

/* Parses v (the environment's value, else the row's default) into the field of c the row names. */
static int parse(const struct skiff_config_row *r, const char *v, struct skiff_config *c, char *why)
{
    void *field = (char *)c + r->offset;
    unsigned long long x;
    char *end;
    double d;
    switch (r->kind) {
    case SKIFF_CFG_SIZE:
        if (parse_size(r, v, &x, why))
            return -1;
        *(size_t *)field = (size_t)x;
        return 0;
    case SKIFF_CFG_AUTO_INT:
        if (strcmp(v, "auto") == 0) {
            *(int *)field = -1;
            return 0;
        }
        /* fall through */
    case SKIFF_CFG_INT:
        if (parse_size(r, v, &x, why))
            return -1;
        *(int *)field = (int)x;
        return 0;
    case SKIFF_CFG_SECONDS:
        d = strtod(v, &end);
        if (end == v || *end || !(d >= 0))
            return bad(r, v, why, "expected seconds >= 0");
        *(double *)field = d;
        return 0;
    case SKIFF_CFG_TRANSPORTS:
        return parse_transports(r, v, (int *)field, why);
    case SKIFF_CFG_STRING: /* NULL stands for the default, whose text says what the code then does */
        *(const char **)field = strcmp(v, r->dflt) == 0 ? NULL : v;
        return 0;
    }
    return -1;
}

static int loaded;

/* Every row into c, from the environment, else its default; a row whose value is refused is marked in
 * invalid[] (when given), said on stderr when speak, and left at its default. 0, or -1 if any was refused. */
static int load_into(struct skiff_config *c, unsigned char *invalid, int speak)
{
    int rc = 0;
    memset(c, 0, sizeof *c);
    for (const struct skiff_config_row *r = skiff_config_table; r->name; r++) {
        const char *v = getenv(r->name);
        char why[WHY_MAX];
        if (!parse(r, v && *v ? v : r->dflt, c, why))
            continue;
        if (speak)
            fprintf(stderr, "%s\n", why);
        if (invalid)
            invalid[r - skiff_config_table] = 1;
        parse(r, r->dflt, c, why);
        rc = -1;
    }
    /* The fast box is a ring indexed by masking: keep it a power of two. */
    size_t p = 4096;
    while (p < c->shm_fbox)
        p <<= 1;
    c->shm_fbox = p;
    if (c->shm_eager > c->shm_cell) /* an eager message fits one cell */
        c->shm_eager = c->shm_cell;
    return rc;
}

int skiff_config_load(void)
{
    struct skiff_config c;
    if (load_into(&c, NULL, 1))
        return -1;
    skiff_cfg = c;
    loaded = 1;
    return 0;
}

static void format(const struct skiff_config_row *r, const struct skiff_config *c, char *out, size_t len)
{
    const void *field = (const char *)c + r->offset;
    int t;
    switch (r->kind) {
    case SKIFF_CFG_SIZE:
        snprintf(out, len, "%zu", *(const size_t *)field);
        break;
    case SKIFF_CFG_AUTO_INT:
    case SKIFF_CFG_INT:
        if (r->kind == SKIFF_CFG_AUTO_INT && *(const int *)field < 0)
            snprintf(out, len, "auto");
        else
            snprintf(out, len, "%d", *(const int *)field);
        break;
    case SKIFF_CFG_SECONDS:
        snprintf(out, len, "%.9g", *(const double *)field);
        break;
    case SKIFF_CFG_TRANSPORTS:
        t = *(const int *)field;
        out[0] = 0;
        if (t & SKIFF_TRANSPORTS_AUTO) { /* not decided yet: before MPI_Init */
            snprintf(out, len, "auto");
            break;
        }
        for (size_t i = 0, off = 0; i < (size_t)skiff_transport_nkinds && off < len; i++)
            if (t & (1 << i))
                off += (size_t)snprintf(out + off, len - off, "%s%s", off ? "," : "", skiff_transport_kinds[i].name);
        break;
    case SKIFF_CFG_STRING:
        snprintf(out, len, "%s", *(const char *const *)field ? *(const char *const *)field : r->dflt);
        break;
    }
}

int skiff_config_value(const struct skiff_config_row *r, char *out, size_t len)
{
    if (loaded) { /* what the library runs with */
        format(r, &skiff_cfg, out, len);
        return 0;
    }
    /* Before MPI_Init (skiff-info, an MPI_T tool): what it would run with, each row on its own. */
    struct skiff_config c;
    unsigned char invalid[sizeof skiff_config_table / sizeof *skiff_config_table] = {0};
    load_into(&c, invalid, 0);
    if (invalid[r - skiff_config_table])
        return -1;
    format(r, &c, out, len);
    return 0;
}

const char *skiff_config_launch_var(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}
