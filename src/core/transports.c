/* The transports skiff has. Adding one is a folder (its table, see core/transport.h) and a line here. */
#include "core/transports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "core/core.h"
#include "core/mt.h"
#include "self/self.h"
#include "shm/shm.h"
#include "tcp/tcp.h"
#include "util/config.h"
#include "util/log.h"
#ifdef SKIFF_HAVE_UCX
#include "ucx/ucx.h"
#define UCX_INIT skiff_ucx_init
#define UCX_DESCRIBE skiff_ucx_describe
#define UCX_PREFERRED skiff_ucx_preferred
#define UCX_ABSENT NULL
#define UCX_CATEGORY "the ucx transport: bytes of skiff's messages through UCX (SKIFF_TRANSPORTS naming ucx)"
#define UCX_COUNTERS skiff_ucx_counters
#else
#define UCX_INIT NULL
#define UCX_DESCRIBE NULL
#define UCX_PREFERRED NULL
#define UCX_ABSENT "this skiff was built without UCX (libucx-dev missing at configure time, or SKIFF_UCX=OFF)"
#define UCX_CATEGORY NULL
#define UCX_COUNTERS NULL
#endif

/* Self first, then shared memory within the node; tcp and ucx reach every rank and exclude each other
 * (util/config.c allows one transport with SKIFF_REACH_ALL). */
const struct skiff_transport_kind skiff_transport_kinds[] = {
    {"self", SKIFF_REACH_SELF, skiff_self_init, NULL, NULL, NULL, NULL, NULL},
    {"shm", SKIFF_REACH_NODE, skiff_shm_init, skiff_shm_describe, NULL, NULL,
     "the shared-memory transport: fast box bytes and queue cells between ranks of this node", skiff_shm_counters},
    {"ucx", SKIFF_REACH_ALL, UCX_INIT, UCX_DESCRIBE, UCX_ABSENT, UCX_PREFERRED, UCX_CATEGORY, UCX_COUNTERS},
    {"tcp", SKIFF_REACH_ALL, skiff_tcp_init, skiff_tcp_describe, NULL, NULL,
     "the tcp transport: bytes through its connections (ranks on other nodes, or all with SKIFF_TRANSPORTS=tcp)",
     skiff_tcp_counters},
};
const int skiff_transport_nkinds = (int)(sizeof skiff_transport_kinds / sizeof *skiff_transport_kinds);

int skiff_transport_bit(const char *name)
{
    for (int i = 0; i < skiff_transport_nkinds; i++)
        if (strcmp(name, skiff_transport_kinds[i].name) == 0)
            return 1 << i;
    return 0;
}

/* ---- choosing and starting them (MPI_Init) ---------------------------------------------------- */

#define NKINDS (sizeof skiff_transport_kinds / sizeof *skiff_transport_kinds)
static const struct skiff_transport *started[NKINDS];
static unsigned char *uses_of[NKINDS]; /* the peers each one reaches: transports keep the pointer */

static int allowed(int i)
{
    return skiff_transport_kinds[i].reach == SKIFF_REACH_SELF || (skiff_cfg.transports & (1 << i));
}

static int reaches(enum skiff_reach reach, int r)
{
    if (r == skiff.rank)
        return reach == SKIFF_REACH_SELF;
    return reach == SKIFF_REACH_ALL || (reach == SKIFF_REACH_NODE && skiff_boot.map.node[r] == skiff_boot.node);
}

/* Whether the job has a pair of ranks that only this kind (or a later one) can reach. Every rank reaches
 * the same verdict from the same map, so the collective inits stay collective. */
static int job_needs(int i)
{
    enum skiff_reach reach = skiff_transport_kinds[i].reach;
    if (reach != SKIFF_REACH_ALL)
        return 1; /* self always; the node's own transport maps the job segment even for one rank */
    int node_kind = 0;
    for (int j = 0; j < i; j++)
        node_kind |= allowed(j) && skiff_transport_kinds[j].reach == SKIFF_REACH_NODE;
    return skiff_boot.map.nnodes > 1 || (!node_kind && skiff.size > 1);
}

/* One sleep for all: the first active transport that can watch the others' wake descriptors sleeps;
 * the others are armed around it (core/progress.c). One that gives no descriptor leaves it short. */
static void plan_sleep(void)
{
    skiff.sleeper = skiff.nactive ? skiff.active[0] : NULL;
    if (skiff.nactive < 2)
        return;
    for (int i = 0; i < skiff.nactive; i++)
        if (skiff.active[i]->watch) {
            skiff.sleeper = skiff.active[i];
            break;
        }
    for (int i = 0; i < skiff.nactive; i++) {
        const struct skiff_transport *t = skiff.active[i];
        if (t == skiff.sleeper)
            continue;
        int fd = t->wake_fd && t->arm ? t->wake_fd() : -1;
        if (fd >= 0 && skiff.sleeper->watch && skiff.sleeper->watch(fd) == 0)
            skiff.bells[skiff.nbells++] = t;
        else
            skiff.sleep_brief = 1;
    }
}

void skiff_transports_settle_auto(int spans_nodes)
{
    if (!(skiff_cfg.transports & SKIFF_TRANSPORTS_AUTO))
        return;
    skiff_cfg.transports &= ~SKIFF_TRANSPORTS_AUTO;
    if (!spans_nodes)
        return; /* shared memory reaches every peer: nothing to ask */
    for (int i = 0; i < skiff_transport_nkinds; i++) {
        const struct skiff_transport_kind *k = &skiff_transport_kinds[i];
        if (k->reach != SKIFF_REACH_ALL || !k->init || !k->preferred || !k->preferred())
            continue;
        for (int j = 0; j < skiff_transport_nkinds; j++)
            if (skiff_transport_kinds[j].reach == SKIFF_REACH_ALL)
                skiff_cfg.transports &= ~(1 << j);
        skiff_cfg.transports |= 1 << i;
        return;
    }
}

/* The job segment's header (rank states, the cards the network transports exchange, the node's shared
 * area) is needed without shared memory too; the node's transport, when it runs, maps the whole. */
static int map_header(void)
{
    return skiff_boot.seg || skiff_boot_map(skiff_job_header_size((uint32_t)skiff_boot.local_size)) ? 0 : -1;
}

/* skiff_mt_direct tells MPI_Send whether looking for a direct path can find one: a transport that
 * offers one to at least one peer. Stored atomically: other threads read it on their way in, before they
 * take the lock this runs under (core/mt.h). */
static void threads(int i)
{
    const struct skiff_transport *t = started[i];
    if (t->threads)
        t->threads();
    int direct = 0;
    for (int r = 0; t->send_direct && !direct && r < skiff.size; r++)
        direct = uses_of[i][r];
    if (direct)
        __atomic_store_n(&skiff_mt_direct, 1, __ATOMIC_RELAXED);
}

int skiff_transports_init(void)
{
    skiff_transports_settle_auto(skiff_boot.map.nnodes > 1);
    skiff.peer_tr = calloc((size_t)skiff.size, sizeof *skiff.peer_tr);
    if (!skiff.peer_tr)
        return -1;
    int unreached = 0;
    for (int i = 0; i < skiff_transport_nkinds; i++) {
        const struct skiff_transport_kind *k = &skiff_transport_kinds[i];
        if (!allowed(i) || !job_needs(i))
            continue;
        unsigned char *uses = uses_of[i] = calloc((size_t)skiff.size, 1);
        if (!uses)
            return -1;
        int n = 0;
        for (int r = 0; r < skiff.size; r++)
            n += uses[r] = !skiff.peer_tr[r] && reaches(k->reach, r);
        if ((k->reach == SKIFF_REACH_ALL && map_header()) || !(started[i] = k->init(uses)))
            return -1;
        for (int r = 0; r < skiff.size; r++)
            if (uses[r])
                skiff.peer_tr[r] = started[i];
        if (skiff_mt_is_many())
            threads(i);
        if (n && started[i]->progress && k->reach != SKIFF_REACH_SELF && skiff.nactive < SKIFF_MAX_ACTIVE)
            skiff.active[skiff.nactive++] = started[i];
    }
    for (int r = 0; r < skiff.size; r++)
        unreached += !skiff.peer_tr[r];
    if (unreached) {
        skiff_error("the job spans %d nodes but SKIFF_TRANSPORTS allows no transport between nodes",
                    skiff_boot.map.nnodes);
        return -1;
    }
    if (map_header())
        return -1;
    plan_sleep();
    return 0;
}

void skiff_transports_threads(void)
{
    for (int i = 0; i < skiff_transport_nkinds; i++)
        if (started[i])
            threads(i);
}

int skiff_transports_same_machine(void)
{
    int n = 0;
    for (int i = 0; i < skiff.nactive; i++)
        n += skiff.active[i]->same_machine ? skiff.active[i]->same_machine() : 0;
    return n;
}

/* Transports that reach every rank first: their goodbye may still deliver frames the core must take. */
void skiff_transports_finalize(void)
{
    for (int i = skiff_transport_nkinds - 1; i >= 0; i--)
        if (started[i] && started[i]->finalize)
            started[i]->finalize();
    for (size_t i = 0; i < NKINDS; i++) {
        free(uses_of[i]);
        uses_of[i] = NULL;
        started[i] = NULL;
    }
    free(skiff.peer_tr);
    skiff.peer_tr = NULL;
    skiff.nactive = skiff.nbells = skiff.sleep_brief = 0;
    skiff.sleeper = NULL;
    __atomic_store_n(&skiff_mt_direct, 0, __ATOMIC_RELAXED);
}

size_t skiff_transports_eager(enum skiff_reach reach, size_t otherwise)
{
    for (int i = 0; i < skiff_transport_nkinds; i++)
        if (started[i] && skiff_transport_kinds[i].reach == reach)
            return started[i]->max_eager;
    return otherwise;
}

void skiff_transports_describe(char *out, size_t len)
{
    size_t off = 0;
    out[0] = 0;
    for (int i = 0; i < skiff_transport_nkinds && off < len; i++) {
        const struct skiff_transport_kind *k = &skiff_transport_kinds[i];
        char what[512] = "";
        if (!k->init)
            snprintf(what, sizeof what, "not built: %s", k->absent);
        else if (k->describe)
            k->describe(what, sizeof what);
        else
            continue;
        off += (size_t)snprintf(out + off, len - off, "%s%s (%s)", off ? "; " : "", k->name, what);
    }
}

/* tcp's networks have a control variable of their own (mpi/tool.c, skiff_tcp_networks). */
void skiff_core_tcp_networks(char *out, size_t len)
{
    if (skiff_config_load() != 0) {
        snprintf(out, len, "(settings invalid)");
        return;
    }
    skiff_tcp_describe_host(out, len);
}
