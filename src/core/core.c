#include "core/core.h"

#include <stdio.h>
#include <stddef.h>

#include "boot/boot.h"
#include "core/bsend.h"
#include "core/comm.h"
#include "core/match.h"
#include "core/pt2pt.h"
#include "core/request.h"
#include "shm/cma.h"
#include "self/self.h"
#include "shm/shm.h"
#include "tcp/tcp.h"
#ifdef SKIFF_HAVE_UCX
#include "ucx/ucx.h"
#endif
#include <stdlib.h>
#include <string.h>
#include "util/config.h"
#include "util/log.h"

struct skiff_core skiff;

/* How long a waiting rank polls before yielding. With a core of its own, polling is the fastest
 * way to see the next message; with more ranks than cores every poll steals the CPU the sender
 * needs, so it yields at once (measured at np=8 on 2 cores: barrier 6 us with 0 polls, 15 us with
 * 64, 250 us with 2000). */
static unsigned choose_spin(void)
{
    skiff.spin_adaptive = skiff_cfg.spin < 0 && !skiff.oversubscribed;
    if (skiff_cfg.spin >= 0)
        return (unsigned)skiff_cfg.spin;
    return skiff.oversubscribed ? 0 : 1u << 22;
}

/* The transport between nodes: tcp, or ucx when SKIFF_TRANSPORTS names it (config.c accepts ucx only
 * when it is built). Collective, like both inits. */
static const struct skiff_transport *net_init(const unsigned char *uses)
{
#ifdef SKIFF_HAVE_UCX
    if (skiff_cfg.transports & SKIFF_TR_UCX)
        return skiff_ucx_init(uses);
#endif
    return skiff_tcp_init(uses);
}

static int net_watch(int fd)
{
#ifdef SKIFF_HAVE_UCX
    if (skiff_cfg.transports & SKIFF_TR_UCX)
        return skiff_ucx_watch(fd);
#endif
    return skiff_tcp_watch(fd);
}

static int net_same_machine(void)
{
#ifdef SKIFF_HAVE_UCX
    if (skiff_cfg.transports & SKIFF_TR_UCX)
        return skiff_ucx_same_machine();
#endif
    return skiff_tcp_same_machine();
}

/* Shared memory within a node, tcp (or ucx) between nodes; SKIFF_TRANSPORTS=tcp or =ucx puts every
 * pair on that one. skiff.tcp and via_tcp hold whichever network transport is in use. */
static int init_transports(void)
{
    int shm_ok = skiff_cfg.transports & SKIFF_TR_SHM;
    skiff.peer_tr = calloc((size_t)skiff.size, sizeof *skiff.peer_tr);
    skiff.via_tcp = calloc((size_t)skiff.size, 1);
    if (!skiff.peer_tr || !skiff.via_tcp)
        return -1;
    for (int r = 0; r < skiff.size; r++)
        skiff.via_tcp[r] = r != skiff.rank && (!shm_ok || skiff_boot.map.node[r] != skiff_boot.node);
    /* Every rank reaches the same verdict from the same map, so the network setup stays collective. */
    int need_tcp = skiff_boot.map.nnodes > 1 || (!shm_ok && skiff.size > 1);
    if (need_tcp && !(skiff_cfg.transports & (SKIFF_TR_TCP | SKIFF_TR_UCX))) {
        skiff_error("the job spans %d nodes but SKIFF_TRANSPORTS excludes tcp and ucx", skiff_boot.map.nnodes);
        return -1;
    }
    if (shm_ok)
        skiff.shm = skiff_shm_init();
    else if (skiff_boot_map(skiff_job_header_size((uint32_t)skiff_boot.local_size)) == NULL)
        return -1;
    if (shm_ok && !skiff.shm)
        return -1;
    if (need_tcp && !(skiff.tcp = net_init(skiff.via_tcp)))
        return -1;
    for (int r = 0; r < skiff.size; r++)
        skiff.peer_tr[r] = skiff.via_tcp[r] ? skiff.tcp : skiff.shm ? skiff.shm : skiff.tcp;
    skiff.peer_tr[skiff.rank] = &skiff_self_transport;
    /* One sleep for both transports: epoll, with shared memory's wake socket (a datagram socket that
     * senders poke when they find this rank asleep) in it beside the network transport's descriptors. */
    if (skiff.tcp && skiff.shm && skiff_boot.local_size > 1) {
        int fd = skiff_shm_wake_fd();
        skiff.sleep_mixed = fd > 0 && net_watch(fd) == 0 ? 1 : 2;
    }
    /* Nodes that are namespaces of one machine share its CPUs: count their ranks too. */
    if (skiff.tcp && skiff_boot.local_size + net_same_machine() > skiff_boot.node_cpus) {
        skiff.oversubscribed = 1;
        skiff.spin_limit = choose_spin();
    }
    return 0;
}

void skiff_core_tcp_networks(char *out, size_t len)
{
    if (skiff_config_load() != 0) {
        snprintf(out, len, "(settings invalid)");
        return;
    }
    skiff_tcp_describe_host(out, len);
}

void skiff_core_transports(char *out, size_t len)
{
    char nets[256];
    int e = skiff_cma_probe_errno();
    skiff_core_tcp_networks(nets, sizeof nets);
    char ucx[96] = "not built (no libucx-dev at configure time, or SKIFF_UCX=OFF)";
#ifdef SKIFF_HAVE_UCX
    skiff_ucx_describe(ucx, sizeof ucx);
#endif
    snprintf(out, len, "shm (fast boxes, lock-free queues; single copy: %s%s); tcp (networks: %s); ucx (%s)",
             e ? "refused by the kernel: " : skiff_cma_worthwhile() ? "available and faster than the pipelined copy"
                                                                     : "available but slower than the pipelined copy here, not used by default",
             e ? strerror(e) : "", nets, ucx);
}

int skiff_core_init(void)
{
    if (skiff_config_load() != 0)
        return MPI_ERR_ARG;
    if (skiff_boot_init() != 0)
        return MPI_ERR_OTHER;
    skiff.rank = skiff_boot.rank;
    skiff.size = skiff_boot.size;
    skiff_log_set_rank(skiff.rank);
    skiff.oversubscribed = skiff_boot.local_size > skiff_boot.node_cpus;
    skiff.spin_limit = choose_spin();
    if (init_transports())
        return MPI_ERR_OTHER;
    skiff_comm_init_predefined(skiff.rank, skiff.size);
    skiff_boot_set_state(SKIFF_RANK_INITIALIZED, 0);
    skiff.initialized = 1;
    return MPI_SUCCESS;
}

void skiff_core_finalize(void)
{
    /* tcp first: its goodbye may still see frames that the core must be alive to take. */
    if (skiff.tcp)
        skiff.tcp->finalize();
    skiff.tcp = NULL;
    skiff_boot_set_state(SKIFF_RANK_FINALIZED, 0);
    skiff_pt2pt_finalize();
    skiff_match_finalize();
    if (skiff.shm)
        skiff.shm->finalize();
    skiff.shm = NULL;
    free(skiff.peer_tr);
    free(skiff.via_tcp);
    skiff.sleep_mixed = 0;
    skiff.peer_tr = NULL;
    skiff.via_tcp = NULL;
    skiff_bsend_finalize();
    skiff_comm_finalize();
    skiff_req_finalize();
    skiff_boot_finalize();
    skiff.finalized = 1;
}
