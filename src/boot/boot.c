#include "boot/boot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot/pmi.h"
#include "util/config.h"
#include "util/log.h"

struct skiff_boot_info skiff_boot = {.job_fd = -1};
const struct skiff_pmi_client *skiff_boot_pmi;

static int parse_num(const char *name, int base, uint64_t max, uint64_t *out)
{
    const char *v = skiff_config_launch_var(name);
    if (!v) {
        skiff_error("started by mpiexec but %s is missing from the environment", name);
        return -1;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, base);
    if (errno || *end || x > max) {
        skiff_error("%s=%s is not a valid value", name, v);
        return -1;
    }
    *out = x;
    return 0;
}

#ifdef SKIFF_HAVE_PMIX
#define NO_PMIX ""
#else
#define NO_PMIX " (this build has no PMIx client: libpmix-dev was missing, or SKIFF_PMIX=OFF, when skiff was configured)"
#endif

/* A launcher we cannot talk to must not produce N silent singletons. */
static int foreign_launcher(void)
{
    static const char *vars[] = {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS",
                                 NULL};
    for (int i = 0; vars[i]; i++) {
        if (skiff_config_launch_var(vars[i])) {
            skiff_error(
                        "this process was started by another launcher (%s is set), which this build of "
                        "skiff cannot join%s; start it with skiff's mpiexec",
                        vars[i], NO_PMIX);
            return 1;
        }
    }
    const char *ntasks = skiff_config_launch_var("SLURM_NTASKS");
    if (skiff_config_launch_var("SLURM_STEP_ID") && ntasks && atoi(ntasks) > 1) {
        skiff_error("started by srun (%s tasks) without a PMI interface skiff can use; start it "
                    "with skiff's mpiexec", ntasks);
        return 1;
    }
    return 0;
}

static int init_launched(void)
{
    uint64_t rank, size, fd, jobid, secret, cpus = 0;
    if (parse_num("SKIFF_RANK", 10, SKIFF_JOB_MAX_RANKS, &rank) ||
        parse_num("SKIFF_SIZE", 10, SKIFF_JOB_MAX_RANKS, &size) ||
        parse_num("SKIFF_JOB_FD", 10, 1 << 20, &fd) || parse_num("SKIFF_JOBID", 16, UINT64_MAX, &jobid) ||
        parse_num("SKIFF_SECRET", 16, UINT64_MAX, &secret))
        return -1;
    if (skiff_config_launch_var("SKIFF_NODE_CPUS") && parse_num("SKIFF_NODE_CPUS", 10, 1 << 20, &cpus))
        return -1;
    if (size < 1 || rank >= size) {
        skiff_error("SKIFF_RANK=%llu is not below SKIFF_SIZE=%llu", (unsigned long long)rank,
                    (unsigned long long)size);
        return -1;
    }
    skiff_log_set_rank((int)rank);
    struct stat st;
    if (fstat((int)fd, &st) != 0) {
        skiff_error("the job segment fd %llu from mpiexec is not open (%s)", (unsigned long long)fd, strerror(errno));
        return -1;
    }
    skiff_boot.rank = (int)rank;
    skiff_boot.size = (int)size;
    skiff_boot.job_fd = (int)fd;
    skiff_boot.jobid = jobid;
    skiff_boot.secret = secret;
    skiff_boot.node_cpus = (int)cpus;
    skiff_boot.launched = 1;
    return 0;
}

static int init_singleton(void)
{
    int fd = memfd_create("skiff-singleton", MFD_CLOEXEC);
    if (fd < 0) {
        skiff_error("memfd_create failed: %s", strerror(errno));
        return -1;
    }
    skiff_boot.rank = 0;
    skiff_boot.size = 1;
    skiff_boot.job_fd = fd;
    skiff_boot.jobid = (uint64_t)getpid();
    skiff_boot.launched = 0;
    return 0;
}

/* The job segment under a PMI launcher: nobody hands it down, so the lowest rank of each node
 * creates a memfd for its node and the others open it through /proc/<pid>/fd/<fd> (same user).
 * Still nothing is named in /dev/shm. */
static int create_segment(int nlocal, char *val, size_t len)
{
    int fd = memfd_create("skiff-job", MFD_CLOEXEC);
    size_t hb = skiff_job_header_size((uint32_t)nlocal);
    struct skiff_job_header *h = NULL;
    if (fd < 0 || ftruncate(fd, (off_t)hb) != 0 ||
        (h = mmap(NULL, hb, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
        skiff_error("cannot create the node's job segment: %s",
                    strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    /* The launcher that started this node's ranks is the leader's parent (Hydra's proxy, slurmstepd,
     * skiff's mpiexec): skiff-clean checks it to tell a live job from leftovers. */
    *h = (struct skiff_job_header){.magic = SKIFF_JOB_MAGIC, .version = SKIFF_JOB_VERSION,
                                   .nranks = (uint32_t)nlocal, .jobid = skiff_boot.jobid,
                                   .launcher_pid = (int32_t)getppid(),
                                   .launcher_start = skiff_job_proc_start((int)getppid())};
    munmap(h, hb);
    snprintf(val, len, "%d:%d", (int)getpid(), fd);
    return fd;
}

static int open_segment(const char *val)
{
    int pid = 0, rfd = 0;
    char path[64];
    if (sscanf(val, "%d:%d", &pid, &rfd) != 2) {
        skiff_error("the node leader published no job segment ('%s')", val);
        return -1;
    }
    snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, rfd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        skiff_error("cannot open the node leader's job segment %s: %s", path,
                    strerror(errno));
    return fd;
}

/* Also settles the job's identity: jobid and secret come from skiff's mpiexec when it is the PMI
 * server, else rank 0 draws them and publishes them with the segments. */
static int share_segment(void)
{
    char key[64], val[128];
    const struct skiff_nodemap *m = &skiff_boot.map;
    int fd = -1, leader = m->leader[skiff_boot.node] == skiff_boot.rank;
    if (leader && (fd = create_segment(m->local_count[skiff_boot.node], val, sizeof val)) < 0)
        return -1;
    snprintf(key, sizeof key, "skiff-seg-%d", skiff_boot.node);
    if (leader && skiff_boot_pmi->put(key, val))
        return -1;
    if (skiff_boot.rank == 0 && !skiff_boot.secret) {
        skiff_boot.jobid = (uint64_t)getpid();
        if (getentropy(&skiff_boot.secret, sizeof skiff_boot.secret) != 0)
            skiff_boot.secret = skiff_boot.jobid * 0x9e3779b97f4a7c15ull ^ (uint64_t)time(NULL);
        snprintf(val, sizeof val, "%llx:%llx", (unsigned long long)skiff_boot.jobid,
                 (unsigned long long)skiff_boot.secret);
        if (skiff_boot_pmi->put("skiff-job", val))
            return -1;
    }
    if (skiff_boot_pmi->fence())
        return -1;
    if (!skiff_boot.secret) {
        unsigned long long j, sec;
        if (skiff_boot_pmi->get(0, "skiff-job", val, sizeof val) || sscanf(val, "%llx:%llx", &j, &sec) != 2) {
            skiff_error("rank 0 did not publish the job's identity");
            return -1;
        }
        skiff_boot.jobid = j;
        skiff_boot.secret = sec;
    }
    if (!leader && (skiff_boot_pmi->get(m->leader[skiff_boot.node], key, val, sizeof val) || (fd = open_segment(val)) < 0))
        return -1;
    skiff_boot.job_fd = fd;
    return skiff_boot_pmi->fence(); /* leaders keep their descriptor open until everyone holds one */
}

/* This rank's node, its index there and the node's rank count, as the map says. */
static int adopt_map(void)
{
    skiff_boot.node = skiff_boot.map.node[skiff_boot.rank];
    skiff_boot.local_rank = skiff_boot.map.local[skiff_boot.rank];
    skiff_boot.local_size = skiff_boot.map.local_count[skiff_boot.node];
    return 0;
}


/* Identity that skiff's mpiexec hands down in PMI mode; other PMI launchers leave it to rank 0. */
static void inherited_identity(void)
{
    uint64_t v;
    if (skiff_config_launch_var("SKIFF_SECRET") && parse_num("SKIFF_SECRET", 16, UINT64_MAX, &v) == 0)
        skiff_boot.secret = v;
    if (skiff_boot.secret && skiff_config_launch_var("SKIFF_JOBID") && parse_num("SKIFF_JOBID", 16, UINT64_MAX, &v) == 0)
        skiff_boot.jobid = v;
    if (skiff_config_launch_var("SKIFF_NODE_CPUS") && parse_num("SKIFF_NODE_CPUS", 10, 1 << 20, &v) == 0)
        skiff_boot.node_cpus = (int)v;
}

static int init_pmi(const struct skiff_pmi_client *client)
{
    int rank = -1, size = -1;
    skiff_boot_pmi = client;
    if (client->init(&rank, &size))
        return -1;
    skiff_log_set_rank(rank);
    skiff_boot.rank = rank;
    skiff_boot.size = size;
    skiff_boot.pmi = 1;
    skiff_boot.launched = 1;
    inherited_identity();
    if (client->nodemap(&skiff_boot.map, size) || adopt_map() || share_segment())
        return -1;
    return 0;
}

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int skiff_boot_init(void)
{
    int rc;
    if (skiff_config_launch_var("SKIFF_RANK"))
        rc = init_launched();
    else if (skiff_config_launch_var("PMI_FD") || skiff_config_launch_var("PMI_PORT"))
        rc = init_pmi(&skiff_pmi1);
#ifdef SKIFF_HAVE_PMIX
    else if (skiff_config_launch_var("PMIX_RANK"))
        rc = init_pmi(&skiff_pmix);
#endif
    else if (foreign_launcher())
        rc = -1;
    else
        rc = init_singleton();
    if (rc == 0 && !skiff_boot.pmi)
        rc = skiff_nodemap_single(&skiff_boot.map, skiff_boot.size) ? -1 : adopt_map();
    if (rc == 0 && skiff_boot.node_cpus <= 0)
        skiff_boot.node_cpus = online_cpus();
    return rc;
}

static int check_header(const struct skiff_job_header *h)
{
    if (h->magic != SKIFF_JOB_MAGIC || h->version != SKIFF_JOB_VERSION) {
        skiff_error("the job segment has magic %#llx version %u, expected %#llx version %d: mpiexec and libmpi "
                    "come from different skiff builds",
                    (unsigned long long)h->magic, h->version, (unsigned long long)SKIFF_JOB_MAGIC, SKIFF_JOB_VERSION);
        return -1;
    }
    if ((int)h->nranks != skiff_boot.local_size) {
        skiff_error("the job segment is for %u ranks, but %d run on this node",
                    h->nranks, skiff_boot.local_size);
        return -1;
    }
    return 0;
}

unsigned char *skiff_boot_map(size_t total)
{
    struct stat st;
    int fd = skiff_boot.job_fd;
    /* Every rank grows the file to the same size; ftruncate to an equal or smaller size is harmless. */
    if (fstat(fd, &st) != 0 || ((size_t)st.st_size < total && ftruncate(fd, (off_t)total) != 0)) {
        skiff_error("cannot grow the job segment to %zu bytes: %s", total,
                    strerror(errno));
        return NULL;
    }
    void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        skiff_error("cannot map the job segment (%zu bytes): %s", total,
                    strerror(errno));
        return NULL;
    }
    skiff_boot.seg = p;
    skiff_boot.seg_size = total;
    skiff_boot.hdr = p;
    if (!skiff_boot.launched) {
        skiff_boot.hdr->magic = SKIFF_JOB_MAGIC;
        skiff_boot.hdr->version = SKIFF_JOB_VERSION;
        skiff_boot.hdr->nranks = 1;
        skiff_boot.hdr->jobid = skiff_boot.jobid;
    }
    /* Under PMI the node leader made the segment before rank 0 had drawn the job's identity. */
    if (skiff_boot.pmi && skiff_boot.local_rank == 0)
        skiff_boot.hdr->jobid = skiff_boot.jobid;
    if (check_header(skiff_boot.hdr)) {
        munmap(p, total);
        skiff_boot.seg = NULL;
        skiff_boot.hdr = NULL;
        return NULL;
    }
    atomic_store(&skiff_boot.hdr->segment_size, total);
    skiff_boot.hdr->rank[skiff_boot.local_rank].pid = (int32_t)getpid();
    return p;
}

void skiff_boot_set_state(enum skiff_rank_state s, int abort_code)
{
    if (!skiff_boot.hdr)
        return;
    struct skiff_job_rank *r = &skiff_boot.hdr->rank[skiff_boot.local_rank];
    r->abort_code = abort_code;
    atomic_store_explicit(&r->state, (uint32_t)s, memory_order_release);
}

int skiff_boot_peer_finalized(int rank)
{
    if (!skiff_boot.hdr)
        return 0;
    uint32_t s = atomic_load_explicit(&skiff_boot.hdr->rank[skiff_boot.map.local[rank]].state, memory_order_acquire);
    return s > SKIFF_RANK_INITIALIZED;
}

pid_t skiff_boot_pid(int rank)
{
    return (pid_t)skiff_boot.hdr->rank[skiff_boot.map.local[rank]].pid;
}

void skiff_boot_finalize(void)
{
    if (skiff_boot.seg)
        munmap(skiff_boot.seg, skiff_boot.seg_size);
    skiff_boot.seg = NULL;
    skiff_boot.hdr = NULL;
    if (skiff_boot.job_fd >= 0 && (!skiff_boot.launched || skiff_boot.pmi))
        close(skiff_boot.job_fd);
    skiff_boot.job_fd = -1;
    if (skiff_boot_pmi)
        skiff_boot_pmi->finalize();
    skiff_nodemap_free(&skiff_boot.map);
}

int skiff_boot_launcher_gone(void)
{
    return skiff_boot.pmi && skiff_boot_pmi->gone();
}

void skiff_boot_abort(int code, const char *why)
{
    if (skiff_boot.pmi)
        skiff_boot_pmi->abort(code, why);
}

/* skiff's mpiexec watches every rank itself; other launchers may leave a job waiting on a rank that
 * has died (srun does unless told --kill-on-bad-exit), so under PMI a rank the launcher reported dead
 * (PMIx events) counts, and the ranks of a node watch each other through the node's segment: an
 * abort recorded there, or a rank inside MPI whose process is gone. Returns the job rank found dead
 * or aborted, or -1. */
int skiff_boot_dead_peer(int *aborted)
{
    int r;
    if (!skiff_boot.pmi || !skiff_boot.hdr)
        return -1;
    if ((r = skiff_boot_pmi->dead_rank(aborted)) >= 0)
        return r;
    for (r = 0; r < skiff_boot.size; r++) {
        if (r == skiff_boot.rank || skiff_boot.map.node[r] != skiff_boot.node)
            continue;
        struct skiff_job_rank *jr = &skiff_boot.hdr->rank[skiff_boot.map.local[r]];
        uint32_t st = atomic_load_explicit(&jr->state, memory_order_acquire);
        *aborted = st == SKIFF_RANK_ABORTED || st == SKIFF_RANK_LOST_PEER;
        if (*aborted || (st == SKIFF_RANK_INITIALIZED && jr->pid > 0 && kill(jr->pid, 0) != 0 && errno == ESRCH))
            return r;
    }
    return -1;
}
