/* libmpi's side of ucx/module.h: the calls of ucx/ucx.h, answered by the module libskiff_ucx.so, which is
 * opened on the first of them (only when SKIFF_TRANSPORTS names ucx, or skiff-info asks). */
#include "ucx/ucx.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "ucx/module.h"
#include "util/log.h"

static const struct skiff_ucx_api *api;
static char why[PATH_MAX + 256]; /* why the module could not be loaded, once it was tried */

static void vlog(int level, const char *fmt, va_list ap)
{
    skiff_log_vwrite(level, fmt, ap);
}

static const struct skiff_ucx_host host = {
    .abi = SKIFF_UCX_MODULE_ABI,
    .core = &skiff,
    .boot = &skiff_boot,
    .cfg = &skiff_cfg,
    .incoming = skiff_core_incoming,
    .vlog = vlog,
    .abort_job = skiff_abort_job,
    .abort_job_peer_lost = skiff_abort_job_peer_lost,
    .cards_exchange = skiff_boot_cards_exchange,
    .card = skiff_boot_card,
};

/* Beside the library this code is in (build/lib, or the prefix's lib), then wherever ld.so looks. */
static void *open_module(void)
{
    Dl_info self;
    char path[PATH_MAX];
    if (dladdr((void *)open_module, &self) && self.dli_fname) {
        const char *slash = strrchr(self.dli_fname, '/');
        int dir = slash ? (int)(slash - self.dli_fname) : 0;
        if (dir > 0 && snprintf(path, sizeof path, "%.*s/%s", dir, self.dli_fname, SKIFF_UCX_MODULE_FILE) <
                           (int)sizeof path) {
            void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (h)
                return h;
        }
    }
    return dlopen(SKIFF_UCX_MODULE_FILE, RTLD_NOW | RTLD_LOCAL);
}

static const struct skiff_ucx_api *load(void)
{
    if (api || why[0])
        return api;
    void *h = open_module();
    if (!h) {
        snprintf(why, sizeof why, "%s", dlerror());
        return NULL;
    }
    skiff_ucx_module_fn *entry;
    *(void **)&entry = dlsym(h, SKIFF_UCX_MODULE_ENTRY);
    if (!entry || !(api = entry(&host))) {
        snprintf(why, sizeof why, "%s is not the module of this build of libmpi", SKIFF_UCX_MODULE_FILE);
        dlclose(h);
        return NULL;
    }
    return api;
}

const struct skiff_transport *skiff_ucx_init(const unsigned char *uses)
{
    if (!load()) {
        skiff_error("SKIFF_TRANSPORTS names ucx, but the ucx transport's module cannot be loaded: %s", why);
        return NULL;
    }
    return api->init(uses);
}

void skiff_ucx_describe(char *out, size_t len)
{
    if (load())
        api->describe(out, len);
    else
        snprintf(out, len, "built, but its module cannot be loaded: %s", why);
}
