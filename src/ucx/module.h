/* The contract between libmpi and the ucx transport's module, libskiff_ucx.so (installed beside libmpi).
 *
 * libmpi does not link UCX: linking it would load UCX's memory-hook library (libucm replaces mmap, munmap,
 * madvise and brk for the whole process) into every skiff program, ucx or not, and under ThreadSanitizer
 * that crashed every threaded test. So the transport is a module that ucx/load.c opens only when
 * SKIFF_TRANSPORTS names ucx (or skiff-info asks for UCX's version). libmpi exports nothing but MPI_* and
 * PMPI_*, so the module cannot link to the core: it gets the few core services it needs through this
 * table, and copies the core's settled state (rank and size, the boot information, the settings) each
 * time libmpi calls its init (the rest goes through the transport table, core/transport.h). */
#ifndef SKIFF_UCX_MODULE_H
#define SKIFF_UCX_MODULE_H

#include <stdarg.h>
#include <stddef.h>

#include "boot/boot.h"
#include "core/core.h"
#include "core/transport.h"
#include "util/config.h"

/* Raised whenever either table changes: a module of another build is refused, not misused. */
#define SKIFF_UCX_MODULE_ABI 7
#define SKIFF_UCX_MODULE_FILE "libskiff_ucx.so"
#define SKIFF_UCX_MODULE_ENTRY "skiff_ucx_module"

/* What libmpi lends the module. */
struct skiff_ucx_host {
    int abi;
    const struct skiff_core *core;
    const struct skiff_boot_info *boot;
    const struct skiff_config *cfg;
    void (*incoming)(int peer, const struct skiff_hdr *h, const void *payload, size_t plen);
    void *(*data_target)(int peer, const struct skiff_hdr *h, size_t len);
    void (*vlog)(int level, const char *fmt, va_list ap);
    void (*abort_job)(int code, const char *why);     /* never returns */
    void (*abort_job_peer_lost)(const char *why); /* never returns */
    int (*cards_exchange)(const char *mine);
    int (*card)(int rank, char *out, size_t len);
};

/* What the module offers: the calls of ucx/ucx.h. */
struct skiff_ucx_api {
    const struct skiff_transport *(*init)(const unsigned char *uses);
    void (*describe)(char *out, size_t len);
    unsigned long long (*sent_bytes)(void); /* the MPI_T counters (skiff_ucx_counters) */
    unsigned long long (*recv_bytes)(void);
};

/* The module's one exported symbol (SKIFF_UCX_MODULE_ENTRY): NULL if host->abi is not its own. */
typedef const struct skiff_ucx_api *skiff_ucx_module_fn(const struct skiff_ucx_host *host);

#endif
