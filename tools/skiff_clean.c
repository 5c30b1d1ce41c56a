/* skiff-clean: finds and removes what a crashed skiff job could leave on this machine.
 *
 * By design a job leaves almost nothing: its shared memory is an anonymous memfd the kernel frees with
 * the last process holding it, and its sockets close with their processes. What can remain are rank
 * processes whose launcher died in a way that could not take them down (e.g. Hydra's proxy killed
 * with SIGKILL while its ranks computed outside MPI), and with them their job segment. Every rank holds
 * its job segment open, and the segment names the launcher (pid and start time, job_proto.h), so a job
 * whose launcher is gone is found for certain and never confused with a live one.
 *
 *   skiff-clean [--dry-run] [--list] [--quiet]
 *
 * Exit status: 0 nothing left (or all of it removed); 1 --dry-run found leftovers; 2 something could
 * not be removed. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot/job_proto.h"

#define MAX_JOBS 256
#define MAX_HOLDERS 1024

struct holder {
    int pid;
    uint64_t start; /* to be sure the pid we kill is still the process we found */
    int rank;       /* index in the segment's rank[] (node-local under PMI), -1 if not a rank */
    uint32_t state;
};

struct job {
    dev_t dev;
    ino_t ino; /* the segment itself: one memfd per job (per node under PMI) */
    struct skiff_job_header hdr;
    bool readable; /* the header was a version this build understands */
    int nholders;
    struct holder holders[MAX_HOLDERS];
};

static struct {
    bool dry_run, list, quiet;
    uid_t uid;
    int njobs;
    struct job jobs[MAX_JOBS];
} g;

static const char *state_name(uint32_t s)
{
    static const char *const names[] = {"started", "in MPI", "finalized", "aborted", "lost a peer"};
    return s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

static bool mine(const char *proc_dir)
{
    struct stat st;
    return stat(proc_dir, &st) == 0 && (g.uid == 0 || st.st_uid == g.uid);
}

static struct job *job_for(const struct stat *st)
{
    for (int i = 0; i < g.njobs; i++)
        if (g.jobs[i].dev == st->st_dev && g.jobs[i].ino == st->st_ino)
            return &g.jobs[i];
    if (g.njobs == MAX_JOBS)
        return NULL;
    struct job *j = &g.jobs[g.njobs++];
    memset(j, 0, sizeof *j);
    j->dev = st->st_dev;
    j->ino = st->st_ino;
    return j;
}

/* The rank slot of pid in the segment (its state tells whether it was inside MPI). */
static void find_rank(int fd, const struct job *j, struct holder *h)
{
    h->rank = -1;
    for (uint32_t r = 0; j->readable && r < j->hdr.nranks && r < SKIFF_JOB_MAX_RANKS; r++) {
        struct skiff_job_rank jr;
        off_t at = (off_t)(sizeof(struct skiff_job_header) + r * sizeof jr);
        if (pread(fd, &jr, sizeof jr, at) == (ssize_t)sizeof jr && jr.pid == h->pid) {
            h->rank = (int)r;
            h->state = atomic_load(&jr.state);
            return;
        }
    }
}

/* pid holds a job segment as fd: remember the job and the holder. */
static void note_segment(int pid, const char *fd_path)
{
    int fd = open(fd_path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return; /* gone meanwhile */
    }
    struct job *j = job_for(&st);
    if (j && j->nholders == 0 && pread(fd, &j->hdr, sizeof j->hdr, 0) == (ssize_t)sizeof j->hdr)
        j->readable = j->hdr.magic == SKIFF_JOB_MAGIC && j->hdr.version == SKIFF_JOB_VERSION;
    if (j && j->nholders < MAX_HOLDERS) {
        struct holder *h = &j->holders[j->nholders++];
        h->pid = pid;
        h->start = skiff_job_proc_start(pid);
        find_rank(fd, j, h);
    }
    close(fd);
}

static void scan_process(int pid)
{
    char dir[32], link[64 + sizeof ((struct dirent *)0)->d_name], target[256];
    snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        /* A singleton ("skiff-singleton") is its own launcher: it is never left behind. */
        if (strncmp(target, "/memfd:skiff-job", 16) == 0)
            note_segment(pid, link);
    }
    closedir(d);
}

static void scan_processes(void)
{
    DIR *d = opendir("/proc");
    if (!d) {
        perror("skiff-clean: /proc");
        exit(2);
    }
    char dir[64];
    for (struct dirent *e; (e = readdir(d));) {
        int pid = atoi(e->d_name);
        snprintf(dir, sizeof dir, "/proc/%d", pid);
        if (pid > 0 && pid != getpid() && mine(dir))
            scan_process(pid);
    }
    closedir(d);
}

static bool launcher_alive(const struct job *j)
{
    const struct skiff_job_header *h = &j->hdr;
    return !j->readable || h->launcher_pid <= 0 || skiff_job_proc_start(h->launcher_pid) == h->launcher_start;
}

static bool same_process(const struct holder *h)
{
    return h->start && skiff_job_proc_start(h->pid) == h->start;
}

/* SIGTERM first, so a rank's atexit handlers and the kernel's socket teardown run as usual; SIGKILL
 * after 1 s for one that ignores it. Returns false if a process survived. */
static bool end_holders(struct job *j)
{
    for (int i = 0; i < j->nholders; i++)
        if (same_process(&j->holders[i]))
            kill(j->holders[i].pid, SIGTERM);
    for (int tick = 0; tick < 100; tick++) {
        bool any = false;
        for (int i = 0; i < j->nholders; i++)
            any |= same_process(&j->holders[i]);
        if (!any)
            return true;
        if (tick == 50)
            for (int i = 0; i < j->nholders; i++)
                if (same_process(&j->holders[i]))
                    kill(j->holders[i].pid, SIGKILL);
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
    return false;
}

static void describe(const struct job *j, const char *verdict)
{
    printf("job %016llx: launcher pid %d %s, %d process%s:", (unsigned long long)j->hdr.jobid, j->hdr.launcher_pid,
           verdict, j->nholders, j->nholders == 1 ? "" : "es");
    for (int i = 0; i < j->nholders; i++) {
        const struct holder *h = &j->holders[i];
        if (h->rank >= 0)
            printf(" %d (rank slot %d, %s)", h->pid, h->rank, state_name(h->state));
        else
            printf(" %d", h->pid);
    }
    printf("\n");
}

/* Returns the number of leftovers found; *failed counts those that could not be removed. */
static int clean_jobs(int *failed)
{
    int found = 0;
    for (int i = 0; i < g.njobs; i++) {
        struct job *j = &g.jobs[i];
        if (launcher_alive(j)) {
            if (g.list)
                describe(j, j->readable ? "alive" : "unknown (segment of another skiff version)");
            continue;
        }
        found += j->nholders;
        if (!g.quiet)
            describe(j, g.dry_run ? "is gone; would end" : "is gone; ending");
        if (!g.dry_run && !end_holders(j)) {
            fprintf(stderr, "skiff-clean: job %016llx: some processes did not end\n",
                    (unsigned long long)j->hdr.jobid);
            (*failed)++;
        }
    }
    return found;
}

/* skiff names nothing in /dev/shm; a file there under its name came from something else claiming it,
 * or from a build older than the memfd design, and belongs to nobody alive. */
static int clean_dev_shm(int *failed)
{
    DIR *d = opendir("/dev/shm");
    int found = 0;
    char path[512];
    for (struct dirent *e; d && (e = readdir(d));) {
        struct stat st;
        snprintf(path, sizeof path, "/dev/shm/%s", e->d_name);
        if (strncmp(e->d_name, "skiff", 5) != 0 || lstat(path, &st) != 0 || (g.uid && st.st_uid != g.uid))
            continue;
        found++;
        if (!g.quiet)
            printf("%s %s\n", g.dry_run ? "would remove" : "removing", path);
        if (!g.dry_run && unlink(path) != 0) {
            fprintf(stderr, "skiff-clean: cannot remove %s: %s\n", path, strerror(errno));
            (*failed)++;
        }
    }
    if (d)
        closedir(d);
    return found;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: skiff-clean [--dry-run] [--list] [--quiet]\n"
               "  Ends the processes of skiff jobs whose launcher is gone and removes skiff files from /dev/shm.\n"
               "  -n, --dry-run  only report what would be removed (exit 1 if anything)\n"
               "  -l, --list     also list the live jobs of this user\n"
               "  -q, --quiet    print nothing unless something fails\n");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-n") || !strcmp(a, "--dry-run"))
            g.dry_run = true;
        else if (!strcmp(a, "-l") || !strcmp(a, "--list"))
            g.list = true;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
            g.quiet = true;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "skiff-clean: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    g.uid = geteuid();
    scan_processes();
    int failed = 0;
    int found = clean_jobs(&failed) + clean_dev_shm(&failed);
    if (!g.quiet && found == 0)
        printf("skiff-clean: nothing to clean\n");
    else if (!g.quiet)
        printf("skiff-clean: %d leftover%s %s\n", found, found == 1 ? "" : "s", g.dry_run ? "found" : "removed");
    if (failed)
        return 2;
    return g.dry_run && found ? 1 : 0;
}
