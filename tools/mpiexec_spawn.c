/* Starting ranks: the job memfd (one host), the topology and binding, and the child side of fork();
 * and, for a rank that never joined, which MPI library its program is linked with. In PMI mode the
 * child's environment and command come from mpiexec_launch.c. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
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

/* ---- which MPI library the program is linked with -------------------------------------------- */

/* A rank that exits without ever joining the job is a plain program (hostname), or an MPI program
 * linked with another MPI library that ran as a singleton mpiexec cannot see. The difference is in
 * the program's dynamic dependencies, found the way ld.so finds them (as ldd shows them, without
 * running anything). This runs only when such a rank has exited: starting a job costs nothing. */

#if __SIZEOF_POINTER__ == 8
#define ELF_CLASS ELFCLASS64
#else
#define ELF_CLASS ELFCLASS32
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_DATA ELFDATA2LSB
#else
#define ELF_DATA ELFDATA2MSB
#endif

/* skiff's libmpi reads this variable (boot/job_proto.h), so its file holds the name; other MPIs' don't. */
#define SKIFF_LIB_MARK "SKIFF_JOB_FD"
/* Objects looked at, at most: a program's whole dependency tree is rarely a hundred. */
#define MAX_OBJECTS 256

/* A mapped ELF object of our own class and byte order, with its dynamic section located. */
struct elf {
    const unsigned char *p;
    size_t size;
    uint16_t machine;
    size_t dyn_off, ndyn;    /* the dynamic section's entries, in the file */
    size_t str_off, str_len; /* its string table, in the file */
};

static void *map_file(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        *size = (size_t)st.st_size;
        p = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    close(fd);
    return p == MAP_FAILED ? NULL : p;
}

/* The file offset of virtual address v, through the PT_LOAD headers; 0 if none maps it. */
static size_t elf_offset(const struct elf *e, const ElfW(Ehdr) *eh, ElfW(Addr) v)
{
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        ElfW(Phdr) ph;
        memcpy(&ph, e->p + eh->e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && v >= ph.p_vaddr && v - ph.p_vaddr < ph.p_filesz)
            return ph.p_offset + (v - ph.p_vaddr);
    }
    return 0;
}

/* Finds the string table that the dynamic section names (DT_STRTAB, DT_STRSZ). */
static void elf_strtab(struct elf *e, const ElfW(Ehdr) *eh)
{
    ElfW(Addr) addr = 0;
    size_t len = 0;
    for (size_t i = 0; i < e->ndyn; i++) {
        ElfW(Dyn) d;
        memcpy(&d, e->p + e->dyn_off + i * sizeof d, sizeof d);
        if (d.d_tag == DT_STRTAB)
            addr = d.d_un.d_ptr;
        else if (d.d_tag == DT_STRSZ)
            len = d.d_un.d_val;
    }
    size_t off = addr ? elf_offset(e, eh, addr) : 0;
    if (off && off < e->size && len <= e->size - off) {
        e->str_off = off;
        e->str_len = len;
    } else {
        e->ndyn = 0; /* names we cannot read: treat as no dependencies */
    }
}

/* Maps path; false unless it is an ELF object of our class and byte order. Every offset is checked
 * against the file: a damaged file gives no dependencies, never a crash. */
static bool elf_open(const char *path, struct elf *e)
{
    *e = (struct elf){ 0 };
    void *p = map_file(path, &e->size);
    if (!p)
        return false;
    e->p = p;
    ElfW(Ehdr) eh;
    if (e->size < sizeof eh)
        goto bad;
    memcpy(&eh, p, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELF_CLASS ||
        eh.e_ident[EI_DATA] != ELF_DATA || eh.e_phentsize != sizeof(ElfW(Phdr)) ||
        eh.e_phoff > e->size || (size_t)eh.e_phnum * sizeof(ElfW(Phdr)) > e->size - eh.e_phoff)
        goto bad;
    e->machine = eh.e_machine;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        ElfW(Phdr) ph;
        memcpy(&ph, e->p + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_DYNAMIC && ph.p_offset <= e->size && ph.p_filesz <= e->size - ph.p_offset) {
            e->dyn_off = ph.p_offset;
            e->ndyn = ph.p_filesz / sizeof(ElfW(Dyn));
        }
    }
    elf_strtab(e, &eh); /* a static program has no dynamic section: no dependencies */
    return true;
bad:
    munmap(p, e->size);
    return false;
}

static void elf_close(struct elf *e)
{
    munmap((void *)e->p, e->size);
}

/* Entry i's string if its tag is tag (DT_NEEDED, DT_RPATH, DT_RUNPATH), else NULL. */
static const char *elf_dyn_string(const struct elf *e, size_t i, ElfW(Sxword) tag)
{
    ElfW(Dyn) d;
    memcpy(&d, e->p + e->dyn_off + i * sizeof d, sizeof d);
    if (d.d_tag != tag || d.d_un.d_val >= e->str_len)
        return NULL;
    const char *s = (const char *)e->p + e->str_off + d.d_un.d_val;
    return memchr(s, '\0', e->str_len - d.d_un.d_val) ? s : NULL;
}

static const char *elf_dyn_first(const struct elf *e, ElfW(Sxword) tag)
{
    const char *s = NULL;
    for (size_t i = 0; i < e->ndyn && !s; i++)
        s = elf_dyn_string(e, i, tag);
    return s;
}

/* Whether path is a shared object the loader could take for a program of this machine. */
static bool lib_usable(const char *path, uint16_t machine)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ElfW(Ehdr) eh;
    bool ok = read(fd, &eh, sizeof eh) == (ssize_t)sizeof eh && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
              eh.e_ident[EI_CLASS] == ELF_CLASS && eh.e_ident[EI_DATA] == ELF_DATA &&
              eh.e_machine == machine;
    close(fd);
    return ok;
}

/* Searches a colon-separated directory list, with $ORIGIN / ${ORIGIN} as the loader expands them. */
static bool search_dirs(const char *list, const char *origin, const char *name, uint16_t machine,
                        char *out, size_t len)
{
    for (const char *p = list; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        size_t n = strcspn(p, ":");
        const char *rest = p;
        const char *base = "";
        if (!strncmp(p, "$ORIGIN", 7) && (n == 7 || p[7] == '/'))
            base = origin, rest = p + 7, n -= 7;
        else if (!strncmp(p, "${ORIGIN}", 9) && (n == 9 || p[9] == '/'))
            base = origin, rest = p + 9, n -= 9;
        int w = snprintf(out, len, "%s%.*s%s%s", base, (int)n, rest, n || *base ? "/" : "", name);
        if (w > 0 && (size_t)w < len && lib_usable(out, machine))
            return true;
    }
    return false;
}

/* /etc/ld.so.cache in glibc's format since 2.32 (the older one is no longer written): a header, then
 * entries whose key (soname) and value (path) are offsets of strings in the file. */
struct ldcache {
    const unsigned char *p;
    size_t size;
    uint32_t n;
};
#define LDCACHE_MAGIC "glibc-ld.so.cache1.1"
enum { LDCACHE_HEADER = 48, LDCACHE_ENTRY = 24 };

static void ldcache_open(struct ldcache *c)
{
    *c = (struct ldcache){ 0 };
    c->p = map_file("/etc/ld.so.cache", &c->size);
    if (!c->p)
        return;
    if (c->size < LDCACHE_HEADER || memcmp(c->p, LDCACHE_MAGIC, sizeof LDCACHE_MAGIC - 1))
        return; /* another format: the search goes on in the default directories */
    uint32_t n;
    memcpy(&n, c->p + sizeof LDCACHE_MAGIC - 1, sizeof n);
    if ((uint64_t)n * LDCACHE_ENTRY <= c->size - LDCACHE_HEADER)
        c->n = n;
}

static const char *ldcache_string(const struct ldcache *c, uint32_t off)
{
    if (off >= c->size || !memchr(c->p + off, '\0', c->size - off))
        return NULL;
    return (const char *)c->p + off;
}

static bool ldcache_find(const struct ldcache *c, const char *name, uint16_t machine, char *out, size_t len)
{
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t kv[2]; /* after the entry's int32 flags */
        memcpy(kv, c->p + LDCACHE_HEADER + (size_t)i * LDCACHE_ENTRY + 4, sizeof kv);
        const char *key = ldcache_string(c, kv[0]), *value = ldcache_string(c, kv[1]);
        if (key && value && !strcmp(key, name) && strlen(value) < len && lib_usable(value, machine)) {
            strcpy(out, value);
            return true;
        }
    }
    return false;
}

/* The loader's search for a dependency of object from (at from_path): its DT_RPATH unless it has a
 * DT_RUNPATH, LD_LIBRARY_PATH, its DT_RUNPATH, the cache, the default directories. (The loader also
 * tries the program's DT_RPATH for its libraries' dependencies; what no distribution relies on is
 * left out.) */
static bool lib_find(const struct elf *from, const char *from_path, const char *name, const char *ld_path,
                     const struct ldcache *cache, char *out, size_t len)
{
    if (strchr(name, '/'))
        return strlen(name) < len && lib_usable(strcpy(out, name), from->machine);
    char origin[PATH_MAX];
    const char *slash = strrchr(from_path, '/');
    snprintf(origin, sizeof origin, "%.*s", slash ? (int)(slash - from_path) : 1, slash ? from_path : ".");
    const char *runpath = elf_dyn_first(from, DT_RUNPATH);
    const char *rpath = runpath ? NULL : elf_dyn_first(from, DT_RPATH);
    return (rpath && search_dirs(rpath, origin, name, from->machine, out, len)) ||
           (ld_path && *ld_path && search_dirs(ld_path, origin, name, from->machine, out, len)) ||
           (runpath && search_dirs(runpath, origin, name, from->machine, out, len)) ||
           ldcache_find(cache, name, from->machine, out, len) ||
           search_dirs("/lib:/usr/lib:/lib64:/usr/lib64", origin, name, from->machine, out, len);
}

static bool is_skiff_lib(const char *path)
{
    size_t size;
    void *p = map_file(path, &size);
    if (!p)
        return true; /* unreadable: no grounds to accuse it */
    bool found = memmem(p, size, SKIFF_LIB_MARK, sizeof SKIFF_LIB_MARK - 1) != NULL;
    munmap(p, size);
    return found;
}

/* The value of var in the ranks' environment: the last -x VAR=VAL, else mpiexec's own. */
static const char *rank_getenv(const struct job *job, const char *var)
{
    size_t n = strlen(var);
    const char *v = getenv(var);
    for (int i = 0; i < job->opt.nxvars; i++)
        if (!strncmp(job->opt.xvars[i], var, n) && job->opt.xvars[i][n] == '=')
            v = job->opt.xvars[i] + n + 1;
    return v;
}

/* The file execvp runs for the program: its name if it holds a '/', else the first in PATH. */
static bool program_file(const struct job *job, char *out, size_t len)
{
    const char *prog = job->opt.argv[0];
    if (strchr(prog, '/'))
        return snprintf(out, len, "%s", prog) < (int)len;
    const char *path = rank_getenv(job, "PATH");
    for (const char *p = path ? path : "/bin:/usr/bin"; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        int n = (int)strcspn(p, ":");
        int w = snprintf(out, len, "%.*s%s%s", n, p, n ? "/" : "", prog);
        struct stat st;
        if (w > 0 && (size_t)w < len && stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
            return true;
    }
    return false;
}

static bool is_mpi_name(const char *soname)
{
    return !strncmp(soname, "libmpi", 6); /* libmpi.so.40, libmpich.so.12, libmpi_cxx, libmpifort... */
}

/* Walks the dependency tree breadth-first from the program, each soname once; true with the path of
 * the first MPI library that is not skiff's. An MPI library's own dependencies are not entered. */
static bool find_foreign_mpi(const char *prog, const char *ld_path, char *out, size_t len)
{
    char *queue[MAX_OBJECTS], *seen[MAX_OBJECTS];
    int nq = 0, nseen = 0;
    bool found = false;
    struct ldcache cache;
    ldcache_open(&cache);
    /* The loader takes the program's $ORIGIN from its real path (/proc/self/exe). */
    queue[nq] = realpath(prog, NULL);
    if (!queue[nq])
        queue[nq] = strdup(prog);
    nq++;
    for (int q = 0; q < nq && queue[q] && !found; q++) {
        struct elf e;
        if (!elf_open(queue[q], &e))
            continue;
        for (size_t i = 0; i < e.ndyn && !found; i++) {
            const char *name = elf_dyn_string(&e, i, DT_NEEDED);
            char path[PATH_MAX];
            bool dup = false;
            for (int k = 0; name && k < nseen && !dup; k++)
                dup = !strcmp(seen[k], name);
            if (!name || dup || nseen == MAX_OBJECTS || !(seen[nseen] = strdup(name)))
                continue;
            nseen++;
            if (!lib_find(&e, queue[q], name, ld_path, &cache, path, sizeof path))
                continue;
            if (is_mpi_name(name))
                found = !is_skiff_lib(path) && snprintf(out, len, "%s", path) > 0;
            else if (nq < MAX_OBJECTS)
                queue[nq++] = strdup(path);
        }
        elf_close(&e);
    }
    for (int k = 0; k < nq; k++)
        free(queue[k]);
    for (int k = 0; k < nseen; k++)
        free(seen[k]);
    if (cache.p)
        munmap((void *)cache.p, cache.size);
    return found;
}

const char *program_foreign_mpi(const struct job *job)
{
    /* One program per job, so one answer. */
    static char lib[PATH_MAX];
    static int known; /* 0: not looked yet; 1: none; 2: lib */
    char prog[PATH_MAX];
    if (!known)
        known = program_file(job, prog, sizeof prog) &&
                        find_foreign_mpi(prog, rank_getenv(job, "LD_LIBRARY_PATH"), lib, sizeof lib)
                    ? 2
                    : 1;
    return known == 2 ? lib : NULL;
}
