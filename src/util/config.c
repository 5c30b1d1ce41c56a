#include "util/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct skiff_config skiff_cfg;

const struct skiff_config_row skiff_config_table[] = {
    {"SKIFF_DEBUG", "0", "log level: 0 errors, 1 info, 2 debug (to stderr, prefixed with the rank)"},
    {"SKIFF_SHM_CMA", "auto", "large shared-memory messages: 1 single copy (process_vm_readv), 0 pipelined copy, auto probes; 0 also keeps MPI_Win_create windows on messages"},
    {"SKIFF_SHM_EAGER", "16384", "largest message (bytes) sent eagerly over shared memory; larger ones use rendezvous"},
    {"SKIFF_SHM_FBOX", "16384", "bytes of each per-pair fast box ring (rounded to a power of two, 4 KiB minimum)"},
    {"SKIFF_SHM_CELL", "32768", "payload bytes of one shared-memory queue cell (eager and pipelined copies)"},
    {"SKIFF_SHM_CELLS", "32", "queue cells owned by each rank"},
    {"SKIFF_SPIN", "auto", "polls before a waiting rank yields the CPU (auto: long when ranks <= cores, none when oversubscribed)"},
    {"SKIFF_PROGRESS_TIMEOUT", "0", "seconds a blocking call may wait before it prints its pending requests (0 = never)"},
    {"SKIFF_FINALIZE_TIMEOUT", "5", "seconds MPI_Finalize waits for a receiver to match a send before it reports the send and asks the receiver to drop it if unmatched"},
    {"SKIFF_BARRIER_N", "2", "ways of the n-way dissemination barrier (messages each rank sends per round)"},
    {"SKIFF_NODE_SIZE", "0", "treat every N consecutive ranks as one node, to exercise node-aware algorithms on one machine (0: real hosts)"},
    {"SKIFF_TRANSPORTS", "shm,tcp", "transports allowed: shm,tcp (shared memory within a node, tcp between nodes) or tcp (tcp for every pair, loopback within a node)"},
    {"SKIFF_TCP_NETS", "auto", "networks for tcp rails, comma-separated CIDRs (198.18.1.0/24) or interface names (eth1); auto: every non-loopback network both peers share, else loopback"},
    {"SKIFF_TCP_EAGER", "65536", "largest message (bytes) sent eagerly over tcp; larger ones are striped over the rails after a handshake"},
    {"SKIFF_TCP_PIECE", "262144", "bytes of one piece of a striped message (pieces go to the rail with the shortest backlog)"},
    {"SKIFF_TCP_SOCKBUF", "0", "socket send and receive buffer bytes per rail; 0 leaves them to the kernel's autotuning, which sizes them to the measured bandwidth-delay product"},
    {"SKIFF_PROFILE", "0", "1: every rank records count, time and message sizes of each MPI call; rank 0 writes one report at MPI_Finalize (docs/profiler.md)"},
    {"SKIFF_PROFILE_FILE", "skiff-profile.<job>.txt", "path of the profile report that rank 0 writes (default: in the working directory, named after the job id, or rank 0's pid)"},
    {"SKIFF_TRACE", "0", "1: every rank records each MPI call's start and end and the messages inside it (collectives' too); one file per rank at MPI_Finalize, for skiff-replay (docs/trace.md)"},
    {"SKIFF_TRACE_FILE", "skiff-trace.<job>", "prefix of the trace files: rank r writes <prefix>.<r> (default: in the working directory, named after the job id, or rank 0's pid)"},
    {"SKIFF_TRACE_RECORDS", "1048576", "records (40 bytes each) a rank keeps at most; when full, recording stops and the trace says it is truncated"},
    {NULL, NULL, NULL},
};

static int bad(const char *name, const char *val, const char *why)
{
    fprintf(stderr, "skiff: %s=%s: %s\n", name, val, why);
    return -1;
}

static int get_size(const char *name, size_t dflt, size_t min, size_t max, size_t *out)
{
    const char *v = getenv(name);
    if (!v || !*v) {
        *out = dflt;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end == 'k' || *end == 'K') { x <<= 10; end++; }
    else if (*end == 'm' || *end == 'M') { x <<= 20; end++; }
    if (errno || *end || x < min || x > max) {
        char why[96];
        snprintf(why, sizeof why, "expected a size between %zu and %zu bytes", min, max);
        return bad(name, v, why);
    }
    *out = (size_t)x;
    return 0;
}

static int get_int(const char *name, int dflt, int min, int max, int *out)
{
    size_t x;
    if (get_size(name, (size_t)(dflt < 0 ? 0 : dflt), (size_t)min, (size_t)max, &x))
        return -1;
    *out = getenv(name) && *getenv(name) ? (int)x : dflt;
    return 0;
}

static int get_auto_int(const char *name, int min, int max, int *out)
{
    const char *v = getenv(name);
    if (!v || !*v || strcmp(v, "auto") == 0) {
        *out = -1;
        return 0;
    }
    return get_int(name, -1, min, max, out);
}

static int get_seconds(const char *name, double dflt, double *out)
{
    const char *v = getenv(name);
    *out = dflt;
    if (!v || !*v)
        return 0;
    char *end;
    *out = strtod(v, &end);
    return *end || !(*out >= 0) ? bad(name, v, "expected seconds >= 0") : 0;
}

static int get_transports(int *out)
{
    const char *v = getenv("SKIFF_TRANSPORTS");
    *out = SKIFF_TR_SHM | SKIFF_TR_TCP;
    if (!v || !*v || strcmp(v, "auto") == 0)
        return 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", v);
    *out = 0;
    for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (strcmp(w, "shm") == 0)
            *out |= SKIFF_TR_SHM;
        else if (strcmp(w, "tcp") == 0)
            *out |= SKIFF_TR_TCP;
        else
            return bad("SKIFF_TRANSPORTS", v, "expected a list of shm and tcp");
    }
    return 0;
}

int skiff_config_load(void)
{
    struct skiff_config c;
    int rc = 0;
    rc |= get_int("SKIFF_DEBUG", 0, 0, 3, &c.debug);
    rc |= get_auto_int("SKIFF_SHM_CMA", 0, 1, &c.shm_cma);
    rc |= get_size("SKIFF_SHM_EAGER", 16384, 0, 1 << 20, &c.shm_eager);
    rc |= get_size("SKIFF_SHM_FBOX", 16384, 4096, 1 << 22, &c.shm_fbox);
    rc |= get_size("SKIFF_SHM_CELL", 32768, 4096, 1 << 22, &c.shm_cell);
    rc |= get_int("SKIFF_SHM_CELLS", 32, 4, 4096, &c.shm_cells);
    rc |= get_auto_int("SKIFF_SPIN", 0, 1 << 30, &c.spin);
    rc |= get_int("SKIFF_BARRIER_N", 2, 2, 64, &c.barrier_ways);
    rc |= get_int("SKIFF_NODE_SIZE", 0, 0, 1 << 20, &c.node_size);
    rc |= get_transports(&c.transports);
    c.tcp_nets = getenv("SKIFF_TCP_NETS");
    if (c.tcp_nets && (!*c.tcp_nets || strcmp(c.tcp_nets, "auto") == 0))
        c.tcp_nets = NULL;
    rc |= get_size("SKIFF_TCP_EAGER", 65536, 0, 1 << 22, &c.tcp_eager);
    rc |= get_size("SKIFF_TCP_PIECE", 262144, 4096, 1 << 26, &c.tcp_piece);
    rc |= get_size("SKIFF_TCP_SOCKBUF", 0, 0, 1 << 30, &c.tcp_sockbuf);
    rc |= get_int("SKIFF_PROFILE", 0, 0, 1, &c.profile);
    c.profile_file = getenv("SKIFF_PROFILE_FILE");
    if (c.profile_file && !*c.profile_file)
        c.profile_file = NULL;
    rc |= get_int("SKIFF_TRACE", 0, 0, 1, &c.trace);
    c.trace_file = getenv("SKIFF_TRACE_FILE");
    if (c.trace_file && !*c.trace_file)
        c.trace_file = NULL;
    rc |= get_size("SKIFF_TRACE_RECORDS", 1u << 20, 16, (size_t)1 << 32, &c.trace_records);
    rc |= get_seconds("SKIFF_PROGRESS_TIMEOUT", 0, &c.progress_timeout);
    rc |= get_seconds("SKIFF_FINALIZE_TIMEOUT", 5, &c.finalize_timeout);
    /* The fast box is a ring indexed by masking: keep it a power of two. */
    size_t p = 4096;
    while (p < c.shm_fbox)
        p <<= 1;
    c.shm_fbox = p;
    if (c.shm_eager > c.shm_cell)
        c.shm_eager = c.shm_cell;
    if (rc)
        return -1;
    skiff_cfg = c;
    return 0;
}

const char *skiff_config_launch_var(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}
