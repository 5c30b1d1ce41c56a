/* libmpi's side of ucx/module.h: the calls of ucx/ucx.h, answered by the module libskiff_ucx.so, which is
 * opened on the first of them (only when SKIFF_TRANSPORTS names ucx, the automatic choice asks UCX, or
 * skiff-info asks), and the automatic choice between tcp and ucx. */
#include "ucx/ucx.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"
#include "core/pt2pt.h"
#include "core/transports.h"
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
    .data_target = skiff_core_data_target,
    .vlog = vlog,
    .abort_job = skiff_abort_job,
    .abort_job_peer_lost = skiff_abort_job_peer_lost,
    .cards_exchange = skiff_boot_cards_exchange,
    .card = skiff_boot_card,
};

/* path = the directory of the library this code is in (build/lib, or the prefix's lib) + "/" + file;
 * 0, or -1 if that directory is unknown. */
static int beside_libmpi(const char *file, char *path, size_t len)
{
    Dl_info self;
    if (!dladdr((void *)beside_libmpi, &self) || !self.dli_fname)
        return -1;
    const char *slash = strrchr(self.dli_fname, '/');
    int dir = slash ? (int)(slash - self.dli_fname) : 0;
    return dir > 0 && snprintf(path, len, "%.*s/%s", dir, self.dli_fname, file) < (int)len ? 0 : -1;
}

/* Beside libmpi, then wherever ld.so looks. */
static void *open_module(void)
{
    char path[PATH_MAX];
    if (beside_libmpi(SKIFF_UCX_MODULE_FILE, path, sizeof path) == 0) {
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
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

/* The module counts; until it is loaded nothing went through UCX. */
unsigned long long skiff_ucx_sent_bytes(void)
{
    return api ? api->sent_bytes() : 0;
}

unsigned long long skiff_ucx_recv_bytes(void)
{
    return api ? api->recv_bytes() : 0;
}

const struct skiff_transport_counter skiff_ucx_counters[] = {
    {"skiff_ucx_sent_bytes", "bytes of skiff's messages handed to UCX (64-byte heads included; one-sided RMA "
                             "transfers are counted by skiff_rma_rdma)", skiff_ucx_sent_bytes},
    {"skiff_ucx_recv_bytes", "bytes of skiff's messages taken from UCX (64-byte heads included)", skiff_ucx_recv_bytes},
    {NULL, NULL, NULL},
};

/* ---- the automatic choice (SKIFF_TRANSPORTS=auto, the default) ------------------------------------ */

/* An RDMA device (InfiniBand, RoCE, iWARP: what UCX's rc, dc and ud transports drive) is listed here. */
#define RDMA_DEVICES "/sys/class/infiniband"

static int rdma_devices(void)
{
    DIR *d = opendir(RDMA_DEVICES);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

const char *skiff_ucx_fast_transport(const char *list, char *out, size_t len)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        size_t n = strcspn(w, "/");
        if (n && !(n == 3 && strncmp(w, "tcp", 3) == 0)) {
            snprintf(out, len, "%s", w);
            return out;
        }
    }
    return NULL;
}

extern char **environ;

/* Runs skiff-ucx-probe (beside libmpi) and reads its one line into net. UCX is asked in a process of
 * its own because, once loaded, it stays: dlclose leaves UCX's own transport modules and libucm's hooks
 * on mmap and brk in place, and a job that stays on tcp must not carry them. posix_spawn, not fork:
 * a launcher's client (PMIx) may already run threads here. 0, or -1 with why in net. */
static int ask_ucx(char *net, size_t len)
{
    char path[PATH_MAX];
    int fd[2];
    pid_t pid;
    if (beside_libmpi("skiff-ucx-probe", path, sizeof path) != 0) {
        snprintf(net, len, "cannot find skiff-ucx-probe beside libmpi");
        return -1;
    }
    if (pipe2(fd, O_CLOEXEC) != 0) {
        snprintf(net, len, "pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
    char *argv[] = {path, NULL};
    int rc = posix_spawn(&pid, path, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    size_t got = 0;
    while (!rc && got + 1 < len) {
        ssize_t n = read(fd[0], net + got, len - 1 - got);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(fd[0]);
    int status = 0;
    while (!rc && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (rc || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(net, len, "%.600s: %s", path, rc ? strerror(rc) : "failed");
        return -1;
    }
    net[got] = 0;
    net[strcspn(net, "\n")] = 0;
    return 0;
}

/* What UCX offers on network devices, in net (or why it was not asked, in net too); 1 if asked. */
static int offered(char *net, size_t len)
{
    const char *hook = skiff_cfg.ucx_fabric;
    if (hook && strcmp(hook, "ask") != 0) { /* stands in for UCX's answer (tests) */
        snprintf(net, len, "%s", hook);
        return 1;
    }
    if (!hook && !rdma_devices()) {
        snprintf(net, len, "no RDMA device in " RDMA_DEVICES ", UCX not asked");
        return 0;
    }
    return ask_ucx(net, len) == 0;
}

int skiff_ucx_preferred(void)
{
    char net[1024], fast[128];
    int asked = offered(net, sizeof net);
    if (asked && skiff_ucx_fast_transport(net, fast, sizeof fast)) {
        skiff_log(SKIFF_LOG_INFO, "between nodes: ucx (SKIFF_TRANSPORTS=auto: UCX offers %s; its network transports: %s)",
                  fast, net);
        return 1;
    }
    skiff_log(SKIFF_LOG_INFO, "between nodes: not ucx (SKIFF_TRANSPORTS=auto: %s%s)",
              asked ? "UCX offers no network transport but tcp: " : "", net[0] ? net : "none");
    return 0;
}
