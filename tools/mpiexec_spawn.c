/* Starting ranks: the job memfd (one host), the topology and binding, and the child side of fork().
 * In PMI mode the child's environment and command come from mpiexec_launch.c. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpiexec.h"

/* ---- job segment ------------------------------------------------------------------------------ */

static bool random_bytes(void *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom((char *)p + got, n - got, 0);
        if (r < 0 && errno != EINTR)
            return false;
        if (r > 0)
            got += (size_t)r;
    }
    return true;
}

bool job_identity_create(struct job *job)
{
    uint64_t rnd[2];
    if (!random_bytes(rnd, sizeof rnd)) {
        say(2, "mpiexec: getrandom: %s\n", strerror(errno));
        return false;
    }
    job->jobid = rnd[0];
    job->secret = rnd[1];
    return true;
}

bool job_segment_create(struct job *job)
{
    /* CLOEXEC in mpiexec so it leaks into nothing else; each rank clears the flag on its copy. */
    uint64_t size = skiff_job_header_size((uint32_t)job->opt.nranks);
    job->memfd = memfd_create("skiff-job", MFD_CLOEXEC);
    if (job->memfd < 0 || ftruncate(job->memfd, (off_t)size) < 0) {
        say(2, "mpiexec: cannot create the job segment: %s\n", strerror(errno));
        return false;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, job->memfd, 0);
    if (p == MAP_FAILED) {
        say(2, "mpiexec: cannot map the job segment: %s\n", strerror(errno));
        return false;
    }
    struct skiff_job_header *h = p; /* a fresh memfd is zero-filled: states start at STARTED */
    h->magic = SKIFF_JOB_MAGIC;
    h->version = SKIFF_JOB_VERSION;
    h->nranks = (uint32_t)job->opt.nranks;
    h->jobid = job->jobid;
    h->launcher_pid = (int32_t)getpid();
    h->launcher_start = skiff_job_proc_start((int)getpid());
    atomic_store(&h->segment_size, size);
    for (int r = 0; r < job->opt.nranks; r++)
        atomic_store(&h->rank[r].state, SKIFF_RANK_STARTED);
    job->hdr = h;
    return true;
}

void job_segment_release(struct job *job)
{
    if (job->hdr)
        munmap(job->hdr, skiff_job_header_size((uint32_t)job->opt.nranks));
    if (job->memfd >= 0)
        close(job->memfd);
    job->hdr = NULL;
    job->memfd = -1;
}

/* ---- topology --------------------------------------------------------------------------------- */

static int affinity_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* hwloc's "allowed" set comes from the cgroup, not from our own affinity mask; a job started under
 * taskset or a batch system's binding must stay inside that mask, so the topology is cut down to it. */
static void restrict_to_our_binding(hwloc_topology_t topo)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return;
    if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(set) &&
        hwloc_topology_restrict(topo, set, 0) < 0)
        say(2, "mpiexec: warning: cannot restrict the topology to our cpuset: %s\n", strerror(errno));
    hwloc_bitmap_free(set);
}

void job_topology_load(struct job *job)
{
    job->node_cpus = affinity_cpus();
    job->ncores = 0;
    if (hwloc_topology_init(&job->topo) < 0) {
        job->topo = NULL;
        return;
    }
    if (hwloc_topology_load(job->topo) < 0) {
        say(2, "mpiexec: warning: hwloc cannot load the topology; ranks are not bound\n");
        hwloc_topology_destroy(job->topo);
        job->topo = NULL;
        return;
    }
    restrict_to_our_binding(job->topo);
    /* hwloc drops what the cgroup forbids and we dropped what our affinity excludes (taskset), so
     * everything left is usable. */
    int cpus = hwloc_bitmap_weight(hwloc_topology_get_allowed_cpuset(job->topo));
    if (cpus > 0)
        job->node_cpus = cpus;
    job->bind_type = HWLOC_OBJ_CORE;
    job->ncores = hwloc_get_nbobjs_by_type(job->topo, HWLOC_OBJ_CORE);
    if (job->ncores <= 0) { /* some virtual machines report no cores: bind to PUs instead */
        job->bind_type = HWLOC_OBJ_PU;
        job->ncores = hwloc_get_nbobjs_by_type(job->topo, HWLOC_OBJ_PU);
    }
}

/* ---- child side ------------------------------------------------------------------------------- */

/* Runs between fork and exec; only the child's own state is touched. On failure the errno goes up
 * the CLOEXEC pipe, which is how mpiexec tells "cannot run" from "ran and failed". */
static _Noreturn void child_fail(int errpipe, int err)
{
    (void)!write(errpipe, &err, sizeof err);
    _exit(127);
}

static void child_env(const struct job *job, int r)
{
    char v[32];
    snprintf(v, sizeof v, "%d", r);
    setenv("SKIFF_RANK", v, 1);
    snprintf(v, sizeof v, "%d", job->opt.nranks);
    setenv("SKIFF_SIZE", v, 1);
    snprintf(v, sizeof v, "%016" PRIx64, job->jobid);
    setenv("SKIFF_JOBID", v, 1);
    snprintf(v, sizeof v, "%016" PRIx64, job->secret);
    setenv("SKIFF_SECRET", v, 1);
    snprintf(v, sizeof v, "%d", job->memfd);
    setenv("SKIFF_JOB_FD", v, 1);
    snprintf(v, sizeof v, "%d", job->node_cpus);
    setenv("SKIFF_NODE_CPUS", v, 1);
    if (job->opt.profile)
        setenv("SKIFF_PROFILE", "1", 1);
    if (job->opt.trace)
        setenv("SKIFF_TRACE", "1", 1);
    /* -x VAR alone exports mpiexec's own value, which the rank inherits anyway. */
    for (int i = 0; i < job->opt.nxvars; i++)
        if (strchr(job->opt.xvars[i], '='))
            putenv(job->opt.xvars[i]);
}

/* The core rank r is bound to, or -1. On one host rank i takes core i when all ranks fit; in PMI
 * mode only ranks started here without a launcher are bound (a launcher may put the rank anywhere,
 * even on another machine), numbered among themselves. */
static int bind_slot(const struct job *job, int r)
{
    if (!job->opt.bind || !job->topo)
        return -1;
    if (!job->pmi)
        return job->opt.nranks <= job->ncores ? r : -1;
    return job->nlocal <= job->ncores ? rank_local_slot(job, r) : -1;
}

/* Binds before exec so the program (and the library's first allocations) start on their core. */
static void child_bind(const struct job *job, int r)
{
    int slot = bind_slot(job, r);
    if (slot < 0)
        return;
    hwloc_obj_t obj = hwloc_get_obj_by_type(job->topo, job->bind_type, (unsigned)slot);
    if (!obj || hwloc_set_cpubind(job->topo, obj->cpuset, HWLOC_CPUBIND_PROCESS) < 0)
        say(2, "mpiexec: warning: cannot bind rank %d to core %d: %s\n", r, slot, strerror(errno));
}

/* One host: the rank inherits the job segment and finds itself in the environment. */
static void child_segment(const struct job *job, int r, int errpipe)
{
    if (fcntl(job->memfd, F_SETFD, 0) < 0)
        child_fail(errpipe, errno);
    /* Written here too so that the rank finds its pid in the header from its first instruction. */
    job->hdr->rank[r].pid = (int32_t)getpid();
    child_env(job, r);
}

/* fds: stdout and stderr pipes, the exec error pipe, the rank's PMI socket (PMI mode with PMI_FD;
 * else -1). */
static _Noreturn void child_main(const struct job *job, int r, const int fds[4])
{
    int out = fds[0], err = fds[1], errpipe = fds[2], pmi_fd = fds[3];
    /* Die with mpiexec; if it is already gone, the parent-death signal was armed too late. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != job->self)
        _exit(1);

    int in = r == 0 ? 0 : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        child_fail(errpipe, errno);
    if (!job->pmi)
        child_segment(job, r, errpipe);
    else if (pmi_fd >= 0 && fcntl(pmi_fd, F_SETFD, 0) < 0)
        child_fail(errpipe, errno);
    child_bind(job, r);

    /* Undo what mpiexec changed for itself: a blocked or ignored signal would survive exec. */
    sigaction(SIGPIPE, &job->orig_pipe, NULL);
    setrlimit(RLIMIT_NOFILE, &job->orig_nofile);
    sigprocmask(SIG_SETMASK, &job->orig_mask, NULL);

    if (job->pmi)
        launch_exec(job, r, pmi_fd);
    else
        execvp(job->opt.argv[0], job->opt.argv);
    child_fail(errpipe, errno);
}

/* ---- parent side ------------------------------------------------------------------------------ */

/* Waits for the child to exec (the pipe closes) or to report why it could not (an errno). */
static int read_exec_error(int fd)
{
    int err = 0;
    ssize_t n;
    do
        n = read(fd, &err, sizeof err);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof err ? err : 0;
}

static void close_pair(int p[2])
{
    close(p[0]);
    close(p[1]);
}

/* PMI mode, a rank that reaches the server through PMI_FD: a socketpair, [0] ours, [1] the rank's.
 * Otherwise both stay -1. */
static int pmi_pair(const struct job *job, int r, int sp[2])
{
    if (!job->pmi || job->nodes[rank_node(job, r)].channel != CHAN_FD)
        return 0;
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp);
}

static void close_fd(int fd)
{
    if (fd >= 0)
        close(fd);
}

int rank_spawn(struct job *job, int r)
{
    /* All CLOEXEC: a rank must hold no other rank's pipe, or EOF would never come. */
    int out[2], err[2] = { -1, -1 }, ep[2] = { -1, -1 }, sp[2] = { -1, -1 };
    if (pipe2(out, O_CLOEXEC) < 0)
        return -errno;
    if (pipe2(err, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0 || pmi_pair(job, r, sp) < 0) {
        int e = errno;
        close_pair(out);
        if (err[0] >= 0)
            close_pair(err);
        if (ep[0] >= 0)
            close_pair(ep);
        return -e;
    }
    pid_t pid = fork();
    if (pid == 0)
        child_main(job, r, (const int[4]){ out[1], err[1], ep[1], sp[1] });
    int e = pid < 0 ? -errno : 0;
    close(out[1]), close(err[1]), close(ep[1]), close_fd(sp[1]);

    if (pid > 0)
        e = read_exec_error(ep[0]);
    close(ep[0]);
    if (e != 0) {
        if (pid > 0)
            waitpid(pid, NULL, 0);
        close(out[0]), close(err[0]), close_fd(sp[0]);
        return e;
    }
    /* Non-blocking so that draining a dead rank's pipes stops at "empty". */
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    if (sp[0] >= 0) {
        fcntl(sp[0], F_SETFL, O_NONBLOCK);
        pmi_attach(job, r, sp[0]);
    }

    struct rank *rk = &job->ranks[r];
    rk->pid = pid;
    rk->alive = true;
    job->nalive++;
    if (job->hdr)
        job->hdr->rank[r].pid = pid;
    stream_init(&rk->out[0], out[0], 1);
    stream_init(&rk->out[1], err[0], 2);
    return 0;
}
