#include "core/core.h"

#include <stdio.h>
#include <stddef.h>

#include "boot/boot.h"
#include "core/bsend.h"
#include "core/comm.h"
#include "core/match.h"
#include "core/pt2pt.h"
#include "core/request.h"
#include "core/transports.h"
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

/* Shared memory within a node, tcp (or ucx) between nodes, as the list of transports says
 * (core/transports.c). */
static int init_transports(void)
{
    if (skiff_transports_init())
        return -1;
    /* Nodes that are namespaces of one machine share its CPUs: count their ranks too. */
    if (skiff_boot.local_size + skiff_transports_same_machine() > skiff_boot.node_cpus) {
        skiff.oversubscribed = 1;
        skiff.spin_limit = choose_spin();
    }
    return 0;
}

void skiff_core_transports(char *out, size_t len)
{
    if (skiff_config_load() != 0) {
        snprintf(out, len, "(settings invalid)");
        return;
    }
    skiff_transports_describe(out, len);
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
    if (skiff_pt2pt_init() != 0)
        return MPI_ERR_NO_MEM;
    if (init_transports())
        return MPI_ERR_OTHER;
    skiff_comm_init_predefined(skiff.rank, skiff.size);
    skiff_boot_set_state(SKIFF_RANK_INITIALIZED, 0);
    skiff.initialized = 1;
    return MPI_SUCCESS;
}

void skiff_core_finalize(void)
{
    skiff_transports_finalize();
    skiff_boot_set_state(SKIFF_RANK_FINALIZED, 0);
    skiff_pt2pt_finalize();
    skiff_match_finalize();
    skiff_bsend_finalize();
    skiff_comm_finalize();
    skiff_req_finalize();
    skiff_boot_finalize();
    skiff.finalized = 1;
}
