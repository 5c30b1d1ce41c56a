#include "boot/boot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/config.h"

struct skiff_boot_info skiff_boot = {.job_fd = -1};

static int parse_num(const char *name, int base, uint64_t max, uint64_t *out)
{
    const char *v = skiff_config_launch_var(name);
    if (!v) {
        fprintf(stderr, "skiff: started by mpiexec but %s is missing from the environment\n", name);
        return -1;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, base);
    if (errno || *end || x > max) {
        fprintf(stderr, "skiff: %s=%s is not a valid value\n", name, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* A launcher we cannot talk to must not produce N silent singletons. */
static int foreign_launcher(void)
{
    static const char *vars[] = {"PMI_FD", "PMI_PORT", "PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE",
                                 "MPI_LOCALNRANKS", NULL};
    for (int i = 0; vars[i]; i++) {
        if (skiff_config_launch_var(vars[i])) {
            fprintf(stderr,
                    "skiff: this process was started by another launcher (%s is set), which this build of "
                    "skiff cannot join; start it with skiff's mpiexec\n",
                    vars[i]);
            return 1;
        }
    }
    const char *ntasks = skiff_config_launch_var("SLURM_NTASKS");
    if (skiff_config_launch_var("SLURM_STEP_ID") && ntasks && atoi(ntasks) > 1) {
        fprintf(stderr, "skiff: started by srun (%s tasks) without a PMI interface skiff can use; start it "
                        "with skiff's mpiexec\n", ntasks);
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
        fprintf(stderr, "skiff: SKIFF_RANK=%llu is not below SKIFF_SIZE=%llu\n", (unsigned long long)rank,
                (unsigned long long)size);
        return -1;
    }
    struct stat st;
    if (fstat((int)fd, &st) != 0) {
        fprintf(stderr, "skiff: rank %llu: the job segment fd %llu from mpiexec is not open (%s)\n",
                (unsigned long long)rank, (unsigned long long)fd, strerror(errno));
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
        fprintf(stderr, "skiff: memfd_create failed: %s\n", strerror(errno));
        return -1;
    }
    skiff_boot.rank = 0;
    skiff_boot.size = 1;
    skiff_boot.job_fd = fd;
    skiff_boot.jobid = (uint64_t)getpid();
    skiff_boot.launched = 0;
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
    else if (foreign_launcher())
        rc = -1;
    else
        rc = init_singleton();
    if (rc == 0 && skiff_boot.node_cpus <= 0)
        skiff_boot.node_cpus = online_cpus();
    return rc;
}

static int check_header(const struct skiff_job_header *h)
{
    if (h->magic != SKIFF_JOB_MAGIC || h->version != SKIFF_JOB_VERSION) {
        fprintf(stderr, "skiff: rank %d: the job segment has magic %#llx version %u, expected %#llx version %d: "
                        "mpiexec and libmpi come from different skiff builds\n",
                skiff_boot.rank, (unsigned long long)h->magic, h->version, (unsigned long long)SKIFF_JOB_MAGIC,
                SKIFF_JOB_VERSION);
        return -1;
    }
    if ((int)h->nranks != skiff_boot.size) {
        fprintf(stderr, "skiff: rank %d: the job segment is for %u ranks, SKIFF_SIZE says %d\n", skiff_boot.rank,
                h->nranks, skiff_boot.size);
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
        fprintf(stderr, "skiff: rank %d: cannot grow the job segment to %zu bytes: %s\n", skiff_boot.rank, total,
                strerror(errno));
        return NULL;
    }
    void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "skiff: rank %d: cannot map the job segment (%zu bytes): %s\n", skiff_boot.rank, total,
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
    if (check_header(skiff_boot.hdr)) {
        munmap(p, total);
        skiff_boot.seg = NULL;
        skiff_boot.hdr = NULL;
        return NULL;
    }
    atomic_store(&skiff_boot.hdr->segment_size, total);
    skiff_boot.hdr->rank[skiff_boot.rank].pid = (int32_t)getpid();
    return p;
}

void skiff_boot_set_state(enum skiff_rank_state s, int abort_code)
{
    if (!skiff_boot.hdr)
        return;
    struct skiff_job_rank *r = &skiff_boot.hdr->rank[skiff_boot.rank];
    r->abort_code = abort_code;
    atomic_store_explicit(&r->state, (uint32_t)s, memory_order_release);
}

pid_t skiff_boot_pid(int rank)
{
    return (pid_t)skiff_boot.hdr->rank[rank].pid;
}

void skiff_boot_finalize(void)
{
    if (skiff_boot.seg)
        munmap(skiff_boot.seg, skiff_boot.seg_size);
    skiff_boot.seg = NULL;
    skiff_boot.hdr = NULL;
    if (skiff_boot.job_fd >= 0 && !skiff_boot.launched)
        close(skiff_boot.job_fd);
}
