/* mpiexec: starts the ranks of one skiff job on this host, forwards their output, and ends the whole
 * job when any rank fails. See the usage text below and src/boot/job_proto.h for the contract with
 * the library.
 *
 * Structure: parse options; set up signals (all through one signalfd, so the event loop is a single
 * poll()); start the ranks; run the event loop until every rank is reaped and every pipe drained;
 * exit with a status that tells what happened. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mpiexec.h"

#define EXIT_USAGE    2
#define EXIT_TIMEOUT  124
#define EXIT_NOEXEC   127
#define GRACE_SECONDS 1.0 /* between SIGTERM and SIGKILL, and between SIGKILL and giving up */

/* ---- options ---------------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("Usage: mpiexec [-n N] [options] program [args...]\n"
          "Start N copies (ranks) of program on this host as one skiff MPI job.\n"
          "\n"
          "  -n, -np N           number of ranks (default 1)\n"
          "  --bind-to core|none bind rank i to core i (default: core, when N <= cores)\n"
          "  --tag-output        prefix every output line with \"[rank] \"\n"
          "  --timeout S         kill the job after S seconds (exit status 124)\n"
          "  -x VAR[=VAL]        set VAR=VAL for all ranks (VAR alone: pass mpiexec's value)\n"
          "  --help, --version\n"
          "\n"
          "Exit status: 0 if all ranks succeed; the MPI_Abort code; a failing rank's exit code;\n"
          "128+S if a rank dies of signal S; 1 if a rank exits without MPI_Finalize; 124 on timeout;\n"
          "127 if program cannot be run. SIGINT/SIGTERM/SIGHUP end the job and then mpiexec itself.\n",
          f);
}

static _Noreturn void usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "mpiexec: %s%s%s\nTry 'mpiexec --help'.\n", what, arg ? ": " : "", arg ? arg : "");
    exit(EXIT_USAGE);
}

/* Matches argv[*i] against an option that takes a value, given as "NAME VALUE", "--NAME=VALUE", or
 * "-nVALUE" for one-letter options. Returns the value, or NULL if argv[*i] is another option. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, len) != 0)
        return NULL;
    if (a[len] == '\0') {
        if (*i + 1 >= argc)
            usage_error("option needs a value", name);
        return argv[++*i];
    }
    if (a[len] == '=' && name[1] == '-')
        return a + len + 1;
    if (len == 2)
        return a + len;
    return NULL;
}

static int parse_nranks(const char *s)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || end == s || *end || n < 1 || n > SKIFF_JOB_MAX_RANKS)
        usage_error("bad number of ranks (1..4096)", s);
    return (int)n;
}

static double parse_timeout(const char *s)
{
    char *end;
    double t = strtod(s, &end);
    if (end == s || *end || !isfinite(t) || t <= 0)
        usage_error("bad timeout (seconds > 0)", s);
    return t;
}

/* One option at argv[*i]; returns false when argv[*i] is where the program starts. */
static bool parse_one(int argc, char **argv, int *i, struct options *o)
{
    const char *a = argv[*i], *v;
    if (a[0] != '-')
        return false;
    if (!strcmp(a, "--")) {
        ++*i;
        return false;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        usage(stdout);
        exit(0);
    }
    if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
        printf("mpiexec (skiff) %s\n", SKIFF_VERSION);
        exit(0);
    }
    if (!strcmp(a, "--tag-output")) {
        o->tag_output = true;
    } else if ((v = opt_value(argc, argv, i, "-np")) || (v = opt_value(argc, argv, i, "--np")) ||
               (v = opt_value(argc, argv, i, "-n"))) {
        o->nranks = parse_nranks(v);
    } else if ((v = opt_value(argc, argv, i, "--bind-to"))) {
        if (strcmp(v, "core") && strcmp(v, "none"))
            usage_error("--bind-to takes core or none", v);
        o->bind = !strcmp(v, "core");
    } else if ((v = opt_value(argc, argv, i, "--timeout"))) {
        o->timeout = parse_timeout(v);
    } else if ((v = opt_value(argc, argv, i, "-x"))) {
        if (!*v || *v == '=')
            usage_error("-x needs VAR or VAR=VAL", v);
        o->xvars[o->nxvars++] = (char *)v;
    } else {
        usage_error("unknown option", a);
    }
    return true;
}

static void parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){ .nranks = 1, .bind = true };
    o->xvars = calloc((size_t)argc, sizeof *o->xvars); /* never more -x than arguments */
    if (!o->xvars)
        exit(1);
    int i = 1;
    while (i < argc && parse_one(argc, argv, &i, o))
        i++;
    if (i >= argc)
        usage_error("no program given", NULL);
    o->argv = argv + i;
}

/* ---- process setup ---------------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Descriptors 0-2 must exist, or a pipe or the memfd could land there and be clobbered by dup2. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
            exit(1);
}

/* Each rank costs mpiexec two descriptors; large jobs exceed the usual soft limit of 1024. */
static void raise_fd_limit(struct job *job)
{
    getrlimit(RLIMIT_NOFILE, &job->orig_nofile);
    struct rlimit rl = job->orig_nofile;
    rlim_t need = 2 * (rlim_t)job->opt.nranks + 64;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static const int term_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* All signals we act on are blocked and read from a signalfd. A termination signal that was
 * ignored when we started (nohup, background jobs) stays ignored: that was the caller's wish. */
static bool signals_setup(struct job *job)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++) {
        struct sigaction sa;
        sigaction(term_signals[i], NULL, &sa);
        if (sa.sa_handler != SIG_IGN)
            sigaddset(&set, term_signals[i]);
    }
    sigprocmask(SIG_BLOCK, &set, &job->orig_mask);
    job->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (job->sigfd < 0) {
        say(2, "mpiexec: signalfd: %s\n", strerror(errno));
        return false;
    }
    /* A closed stdout must not kill mpiexec (and with it, silently, the job): see write_all. */
    struct sigaction ign = { .sa_handler = SIG_IGN };
    sigaction(SIGPIPE, &ign, &job->orig_pipe);
    return true;
}

/* ---- children and teardown -------------------------------------------------------------------- */

/* mpiexec is a child subreaper, so processes that ranks leave behind become our children. This lists
 * all of them (ranks included), or returns -1 where the kernel does not offer the list. */
static int list_children(const struct job *job, pid_t **out)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)job->self, (int)job->self);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    int n = 0, cap = 0, pid;
    pid_t *v = NULL;
    while (fscanf(f, "%d", &pid) == 1) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            pid_t *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        v[n++] = pid;
    }
    fclose(f);
    *out = v;
    return n;
}

static void signal_all(struct job *job, int sig)
{
    pid_t *kids = NULL;
    int n = list_children(job, &kids);
    if (n < 0) {
        for (int r = 0; r < job->opt.nranks; r++)
            if (job->ranks[r].alive)
                kill(job->ranks[r].pid, sig);
        return;
    }
    for (int i = 0; i < n; i++)
        kill(kids[i], sig);
    free(kids);
}

static int cmp_pid(const void *a, const void *b)
{
    pid_t x = ((const struct pid_rank *)a)->pid, y = ((const struct pid_rank *)b)->pid;
    return (x > y) - (x < y);
}

/* A sorted pid index: teardown looks up every child on every SIGCHLD, for up to 4096 ranks. */
static void index_pids(struct job *job)
{
    job->by_pid = calloc((size_t)job->opt.nranks, sizeof *job->by_pid);
    if (!job->by_pid)
        return; /* rank_of_pid falls back to a linear search */
    for (int r = 0; r < job->opt.nranks; r++)
        job->by_pid[r] = (struct pid_rank){ job->ranks[r].pid, r };
    qsort(job->by_pid, (size_t)job->opt.nranks, sizeof *job->by_pid, cmp_pid);
}

/* The rank with this pid that is still unreaped, or -1. */
static int rank_of_pid(const struct job *job, pid_t pid)
{
    int r = -1;
    if (job->by_pid) {
        struct pid_rank key = { pid, 0 };
        struct pid_rank *hit = bsearch(&key, job->by_pid, (size_t)job->opt.nranks,
                                       sizeof key, cmp_pid);
        r = hit ? hit->rank : -1;
    } else {
        for (int i = 0; i < job->opt.nranks && r < 0; i++)
            r = job->ranks[i].pid == pid ? i : -1;
    }
    return r >= 0 && job->ranks[r].alive ? r : -1;
}

/* Children that are not ranks: what ranks left behind. Some may get a signal twice; harmless. */
static void signal_orphans(struct job *job, int sig)
{
    pid_t *kids = NULL;
    int n = list_children(job, &kids);
    for (int i = 0; i < n; i++)
        if (rank_of_pid(job, kids[i]) < 0)
            kill(kids[i], sig);
    free(kids);
}

static bool have_children(const struct job *job)
{
    pid_t *kids = NULL;
    int n = list_children(job, &kids);
    free(kids);
    return n > 0;
}

static void set_status(struct job *job, int status)
{
    if (!job->have_status) {
        job->have_status = true;
        job->status = status;
    }
}

static void escalate_kill(struct job *job)
{
    job->phase = PHASE_KILLING;
    signal_all(job, SIGKILL);
    job->give_up_at = now() + GRACE_SECONDS;
}

/* Ends the job: sig to everything now, SIGKILL after the grace period. sig 0 sends nothing (the
 * ranks already got it from the terminal). From here on no rank's end is reported. */
static void begin_teardown(struct job *job, int sig)
{
    if (job->phase != PHASE_RUNNING) {
        escalate_kill(job); /* asked twice: no more patience */
        return;
    }
    job->phase = PHASE_TERMINATING;
    if (sig)
        signal_all(job, sig);
    job->kill_at = now() + GRACE_SECONDS;
}

/* ---- judging a rank's end --------------------------------------------------------------------- */

static const char *signame(int sig)
{
    const char *s = sigabbrev_np(sig);
    return s ? s : "?";
}

/* Decides whether rank r ending with wait status ws fails the job; if so writes the one-line
 * explanation and the exit status mpiexec should return. An ABORTED rank needs no wait status. */
static bool judge(const struct job *job, int r, int ws, char *msg, size_t len, int *status)
{
    uint32_t state = atomic_load(&job->hdr->rank[r].state);
    int pid = (int)job->ranks[r].pid;
    if (state == SKIFF_RANK_ABORTED) {
        int code = job->hdr->rank[r].abort_code;
        snprintf(msg, len, "rank %d (pid %d) aborted the job with code %d (MPI_Abort or a fatal MPI error, see above)", r, pid, code);
        *status = (code & 0xff) ? (code & 0xff) : 1; /* an aborted job never looks successful */
        return true;
    }
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        if (sig == SIGPIPE && output_broken(1)) {
            /* Our reader left (mpiexec ... | head) and the rank followed: no news for anyone. */
            msg[0] = '\0';
            *status = 128 + sig;
            return true;
        }
        snprintf(msg, len, "rank %d (pid %d) killed by signal %d (SIG%s)", r, pid, sig, signame(sig));
        *status = 128 + sig;
        return true;
    }
    int code = WEXITSTATUS(ws);
    if (code != 0) {
        snprintf(msg, len, "rank %d (pid %d) exited with code %d", r, pid, code);
        *status = code;
        return true;
    }
    if (state == SKIFF_RANK_INITIALIZED) {
        snprintf(msg, len, "rank %d (pid %d) exited (code 0) without calling MPI_Finalize", r, pid);
        *status = 1;
        return true;
    }
    return false;
}

/* When ranks die together, the one that called MPI_Abort is the cause and the others are fallout
 * (e.g. peers that lost their connection to it), so it is the one to report. */
static int find_aborted(const struct job *job)
{
    for (int r = 0; r < job->opt.nranks; r++)
        if (job->ranks[r].pid && atomic_load(&job->hdr->rank[r].state) == SKIFF_RANK_ABORTED)
            return r;
    return -1;
}

static void on_rank_exit(struct job *job, int r, int ws)
{
    struct rank *rk = &job->ranks[r];
    rk->alive = false;
    job->nalive--;
    /* Its last words (often the reason it failed) come before our verdict. */
    stream_pump(&rk->out[0], r, true);
    stream_pump(&rk->out[1], r, true);
    if (job->phase != PHASE_RUNNING)
        return; /* killed by us, or fallout of a failure already reported */

    char msg[256];
    int status;
    if (judge(job, r, ws, msg, sizeof msg, &status)) {
        int a = find_aborted(job);
        if (a >= 0 && a != r)
            judge(job, a, 0, msg, sizeof msg, &status);
        if (msg[0])
            say(2, "mpiexec: %s\n", msg);
        set_status(job, status);
        begin_teardown(job, SIGTERM);
    } else if (job->nalive == 0) {
        begin_teardown(job, SIGTERM); /* all done: stop whatever the ranks left running */
    }
}

/* ---- events ----------------------------------------------------------------------------------- */

static void reap(struct job *job)
{
    int ws;
    pid_t pid;
    while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
        int r = rank_of_pid(job, pid);
        if (r >= 0)
            on_rank_exit(job, r, ws);
    }
    /* Processes that dying ranks leave behind are reparented to us during teardown: they get the
     * same treatment now rather than at the next deadline. */
    if (job->phase == PHASE_KILLING)
        signal_all(job, SIGKILL);
    else if (job->phase == PHASE_TERMINATING)
        signal_orphans(job, SIGTERM);
}

static void on_term_signal(struct job *job, const struct signalfd_siginfo *si)
{
    int sig = (int)si->ssi_signo;
    if (job->phase != PHASE_RUNNING) {
        escalate_kill(job);
        return;
    }
    say(2, "mpiexec: caught signal %d (SIG%s); terminating %d ranks\n", sig, signame(sig), job->nalive);
    job->term_signal = sig;
    set_status(job, 128 + sig);
    /* A terminal's ^C already reached the ranks (same process group): don't deliver it twice. */
    begin_teardown(job, si->ssi_code == SI_KERNEL ? 0 : sig);
}

/* Reads every pending signal before acting, so a ^C is seen before the deaths it caused. */
static void on_signals(struct job *job)
{
    struct signalfd_siginfo si[16];
    bool chld = false;
    ssize_t n;
    while ((n = read(job->sigfd, si, sizeof si)) > 0) {
        for (size_t i = 0; i < (size_t)n / sizeof *si; i++) {
            if (si[i].ssi_signo == SIGCHLD)
                chld = true;
            else
                on_term_signal(job, &si[i]);
        }
    }
    if (chld)
        reap(job);
}

/* Which ranks were still running at the timeout, and whether they were inside MPI: the first
 * thing anyone debugging a hang wants to know. */
static void report_stuck(const struct job *job)
{
    static const char *states[] = {"before MPI_Init", "inside MPI", "after MPI_Finalize", "aborting"};
    for (int r = 0; r < job->opt.nranks; r++) {
        if (!job->ranks[r].alive)
            continue;
        uint32_t st = atomic_load(&job->hdr->rank[r].state);
        say(2, "mpiexec:   rank %d (pid %d) still running, %s\n", r, (int)job->ranks[r].pid,
            st < 4 ? states[st] : "in an unknown state");
    }
}

static void on_deadlines(struct job *job)
{
    double t = now();
    if (job->phase == PHASE_RUNNING && job->timeout_at && t >= job->timeout_at) {
        say(2, "mpiexec: timeout after %g s; killing %d ranks\n", job->opt.timeout, job->nalive);
        report_stuck(job);
        set_status(job, EXIT_TIMEOUT);
        begin_teardown(job, SIGTERM);
    } else if (job->phase == PHASE_TERMINATING && t >= job->kill_at) {
        escalate_kill(job);
    }
}

static int poll_timeout_ms(const struct job *job)
{
    double at = job->phase == PHASE_RUNNING       ? job->timeout_at
                : job->phase == PHASE_TERMINATING ? job->kill_at
                                                  : job->give_up_at;
    if (!at)
        return -1;
    double ms = ceil((at - now()) * 1000.0);
    return ms < 0 ? 0 : ms > 1e9 ? 1000000000 : (int)ms;
}

static bool streams_open(const struct job *job)
{
    for (int r = 0; r < job->opt.nranks; r++)
        if (job->ranks[r].out[0].fd >= 0 || job->ranks[r].out[1].fd >= 0)
            return true;
    return false;
}

/* The job is over when no rank runs, every pipe reached EOF and nothing the ranks left behind is
 * still alive - or, past the last grace period, when waiting longer would not help. */
static bool job_over(const struct job *job)
{
    if (job->phase == PHASE_KILLING && now() >= job->give_up_at)
        return true;
    return job->nalive == 0 && !streams_open(job) && !have_children(job);
}

static void event_loop(struct job *job)
{
    int nmax = 1 + 2 * job->opt.nranks;
    struct pollfd *pfd = calloc((size_t)nmax, sizeof *pfd);
    struct stream **which = calloc((size_t)nmax, sizeof *which);
    int *rank_of = calloc((size_t)nmax, sizeof *rank_of);
    if (!pfd || !which || !rank_of) {
        say(2, "mpiexec: out of memory\n");
        signal_all(job, SIGKILL);
        exit(1);
    }
    while (!job_over(job)) {
        int n = 0;
        pfd[n++] = (struct pollfd){ .fd = job->sigfd, .events = POLLIN };
        for (int r = 0; r < job->opt.nranks; r++)
            for (int k = 0; k < 2; k++)
                if (job->ranks[r].out[k].fd >= 0) {
                    which[n] = &job->ranks[r].out[k];
                    rank_of[n] = r;
                    pfd[n] = (struct pollfd){ .fd = which[n]->fd, .events = POLLIN };
                    n++;
                }
        if (poll(pfd, (nfds_t)n, poll_timeout_ms(job)) < 0 && errno != EINTR) {
            say(2, "mpiexec: poll: %s\n", strerror(errno));
            signal_all(job, SIGKILL);
            exit(1);
        }
        if (pfd[0].revents)
            on_signals(job);
        for (int i = 1; i < n; i++)
            if (pfd[i].revents)
                stream_pump(which[i], rank_of[i], false); /* no-op if on_signals closed it */
        on_deadlines(job);
    }
    free(pfd);
    free(which);
    free(rank_of);
}

/* ---- main ------------------------------------------------------------------------------------- */

static void spawn_all(struct job *job)
{
    for (int r = 0; r < job->opt.nranks; r++) {
        int e = rank_spawn(job, r);
        if (e == 0)
            continue;
        if (e > 0) {
            say(2, "mpiexec: cannot run '%s': %s\n", job->opt.argv[0], strerror(e));
            set_status(job, EXIT_NOEXEC);
        } else {
            say(2, "mpiexec: cannot start rank %d: %s\n", r, strerror(-e));
            set_status(job, 1);
        }
        begin_teardown(job, SIGTERM);
        return;
    }
}

/* Dies of the signal that ended the job so that our caller (a shell loop, say) sees the truth. */
static void reraise(int sig)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    signal(sig, SIG_DFL);
    raise(sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* Frees what main set up, so that sanitizer builds see no leaks and keep the real exit status. */
static void job_release(struct job *job)
{
    if (job->ranks)
        for (int r = 0; r < job->opt.nranks; r++) /* only left open if we gave up on them */
            stream_finish(&job->ranks[r].out[0], r), stream_finish(&job->ranks[r].out[1], r);
    streams_release();
    job_segment_release(job);
    if (job->topo)
        hwloc_topology_destroy(job->topo);
    if (job->sigfd >= 0)
        close(job->sigfd);
    free(job->ranks);
    free(job->by_pid);
    free(job->opt.xvars);
}

static int run(struct job *job)
{
    ensure_std_fds();
    job->self = getpid();
    streams_configure(job->opt.tag_output, job->opt.tag_output || job->opt.nranks > 1);
    if (!signals_setup(job))
        return 1;
    raise_fd_limit(job);
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* see list_children */
    job_topology_load(job);
    job->ranks = calloc((size_t)job->opt.nranks, sizeof *job->ranks);
    if (!job->ranks || !job_segment_create(job))
        return 1;
    for (int r = 0; r < job->opt.nranks; r++)
        stream_init(&job->ranks[r].out[0], -1, 1), stream_init(&job->ranks[r].out[1], -1, 2);
    if (job->opt.timeout > 0)
        job->timeout_at = now() + job->opt.timeout;

    spawn_all(job);
    index_pids(job);
    event_loop(job);
    return job->have_status ? job->status : 0;
}

int main(int argc, char **argv)
{
    struct job job = { .memfd = -1, .sigfd = -1 };
    parse_options(argc, argv, &job.opt);
    int status = run(&job);
    int sig = job.term_signal;
    job_release(&job);
    if (sig)
        reraise(sig);
    return status;
}
