/* The module's side of ucx/module.h: the core services ucx.c and card.c call, forwarded to libmpi, and
 * the core's state they read, copied from libmpi before init. Compiled into libskiff_ucx.so only. */
#include "ucx/module.h"

#include "core/error.h"
#include "core/pt2pt.h"
#include "ucx/ucx.h"
#include "util/log.h"

struct skiff_core skiff;
struct skiff_boot_info skiff_boot;
struct skiff_config skiff_cfg;

static const struct skiff_ucx_host *host;

void skiff_core_incoming(int peer, const struct skiff_hdr *h, const void *payload, size_t plen)
{
    host->incoming(peer, h, payload, plen);
}

void *skiff_core_data_target(int peer, const struct skiff_hdr *h, size_t len)
{
    return host->data_target(peer, h, len);
}

void skiff_log_write(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    host->vlog(level, fmt, ap);
    va_end(ap);
}

_Noreturn void skiff_abort_job(int code, const char *why)
{
    host->abort_job(code, why);
    __builtin_unreachable();
}

_Noreturn void skiff_abort_job_peer_lost(const char *why)
{
    host->abort_job_peer_lost(why);
    __builtin_unreachable();
}

int skiff_boot_cards_exchange(const char *mine)
{
    return host->cards_exchange(mine);
}

int skiff_boot_card(int rank, char *out, size_t len)
{
    return host->card(rank, out, len);
}

/* The core's state is settled before MPI_Init starts the transports, and does not change after. */
static void settle(void)
{
    skiff = *host->core;
    skiff_boot = *host->boot;
    skiff_cfg = *host->cfg;
}

static const struct skiff_transport *init(const unsigned char *uses)
{
    settle();
    return skiff_ucx_init(uses);
}

static const struct skiff_ucx_api api = {init, skiff_ucx_describe, skiff_ucx_sent_bytes, skiff_ucx_recv_bytes};

__attribute__((visibility("default"))) const struct skiff_ucx_api *skiff_ucx_module(const struct skiff_ucx_host *h)
{
    if (!h || h->abi != SKIFF_UCX_MODULE_ABI)
        return NULL;
    host = h;
    return &api;
}
