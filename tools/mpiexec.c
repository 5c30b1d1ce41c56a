/* mpiexec: starts the ranks of one skiff job, forwards their output, and ends the whole job when any
 * rank fails. On one host the ranks share a job segment (src/boot/job_proto.h); with hosts or a
 * launcher (PMI mode, docs/launch.md) mpiexec is their PMI-1 server instead (mpiexec_pmi.c).
 *
 * Structure: parse options (mpiexec_options.c); set up signals (all through one signalfd, so the
 * event loop is a single poll()); start the ranks; run the event loop until every rank is reaped and
 * every pipe drained; exit with a status that tells what happened. */
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

#define EXIT_TIMEOUT  124
#define EXIT_NOEXEC   127
#define GRACE_SECONDS 1.0 /* between SIGTERM and SIGKILL, and between SIGKILL and giving up */

/* ---- process setup ---------------------------------------------------------------------------- */

/* Descriptors 0-2 must exist, or a pipe or the memfd could land there and be clobbered by dup2. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
            exit(1);
}

/* Each rank costs mpiexec two descriptors (three in PMI mode, plus connections not yet identified);
 * large jobs exceed the usual soft limit of 1024. */
static void raise_fd_limit(struct job *job)
{
    getrlimit(RLIMIT_NOFILE, &job->orig_nofile);
    struct rlimit rl = job->orig_nofile;
    rlim_t need = (job->opt.pmi_mode ? 3 : 2) * (rlim_t)job->opt.nranks + (job->opt.pmi_mode ? 128 : 64);
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
    job->give_up_at = clock_now() + GRACE_SECONDS;
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
    job->kill_at = clock_now() + GRACE_SECONDS;
}

/* ---- judging a rank's end --------------------------------------------------------------------- */

static const char *signame(int sig)
{
    const char *s = sigabbrev_np(sig);
    return s ? s : "?";
}

/* What rank r last told us about itself (an enum skiff_rank_state) and its abort code: on one host
 * from the job segment, in PMI mode from its PMI commands. */
static uint32_t rank_state(const struct job *job, int r, int *abort_code)
{
    if (job->pmi)
        return pmi_rank_state(job, r, abort_code, NULL);
    if (abort_code)
        *abort_code = job->hdr->rank[r].abort_code;
    return atomic_load(&job->hdr->rank[r].state);
}

/* How messages name rank r: by pid on one host, by host in PMI mode (where the pid may be a
 * launcher's). */
static const char *rank_who(const struct job *job, int r, char *buf, size_t len)
{
    if (job->pmi)
        snprintf(buf, len, "rank %d on host %s", r, rank_host(job, r));
    else
        snprintf(buf, len, "rank %d (pid %d)", r, (int)job->ranks[r].pid);
    return buf;
}

/* ssh's own failures (no connection, refused key) look like the program exiting with 255. */
static const char *exit_hint(const struct job *job, int r, int code)
{
    if (job->pmi && code == 255 && job->nodes[rank_node(job, r)].launcher == LAUNCH_SSH)
        return " (255 is also ssh's code when it cannot connect)";
    return "";
}

/* A rank that exited (with code) without joining: if its program is linked with another MPI, it ran
 * as that MPI's singleton. Says so and returns true; false for a plain program. */
static bool never_joined(const struct job *job, int r, int code, char *msg, size_t len)
{
    const char *lib = program_foreign_mpi(job);
    if (!lib)
        return false;
    char who[320], how[64] = "never joined";
    rank_who(job, r, who, sizeof who);
    if (code)
        snprintf(how, sizeof how, "exited with code %d and never joined", code);
    /* MPICH's ranks speak PMI-1, which skiff's mpiexec serves in PMI mode. */
    const char *slash = strrchr(lib, '/');
    bool mpich = !job->pmi && !strncmp(slash ? slash + 1 : lib, "libmpich", 8);
    snprintf(msg, len, "%s %s the job: the program is linked with %s, not skiff's libmpi; "
             "build it with skiff's mpicc%s", who, how, lib,
             mpich ? " (or run it with --pmi fd, which MPICH programs understand)" : "");
    return true;
}

/* Decides whether rank r ending with wait status ws fails the job; if so writes the one-line
 * explanation and the exit status mpiexec should return. An ABORTED rank needs no wait status. */
static bool judge(const struct job *job, int r, int ws, char *msg, size_t len, int *status)
{
    int code;
    uint32_t state = rank_state(job, r, &code);
    char who[320];
    rank_who(job, r, who, sizeof who);
    if (state == SKIFF_RANK_ABORTED || state == SKIFF_RANK_LOST_PEER) {
        snprintf(msg, len, "%s %s with code %d (%s, see above)", who,
                 state == SKIFF_RANK_ABORTED ? "aborted the job" : "ended the job", code,
                 state == SKIFF_RANK_ABORTED ? "MPI_Abort or a fatal MPI error" : "it lost a peer");
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
        snprintf(msg, len, "%s killed by signal %d (SIG%s)", who, sig, signame(sig));
        *status = 128 + sig;
        return true;
    }
    code = WEXITSTATUS(ws);
    if (state == SKIFF_RANK_STARTED && never_joined(job, r, code, msg, len)) {
        *status = code ? code : 1; /* N singletons of another MPI are no success */
        return true;
    }
    if (code != 0) {
        snprintf(msg, len, "%s exited with code %d%s", who, code, exit_hint(job, r, code));
        *status = code;
        return true;
    }
    if (state == SKIFF_RANK_INITIALIZED) {
        snprintf(msg, len, "%s exited (code 0) without calling MPI_Finalize", who);
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
        if (job->ranks[r].pid && rank_state(job, r, NULL) == SKIFF_RANK_ABORTED)
            return r;
    return -1;
}

/* Rank r's end (ws) fails the job, or it was the last rank: says why and ends the job. */
static void conclude(struct job *job, int r, int ws)
{
    char msg[1024];
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

static void on_rank_exit(struct job *job, int r, int ws)
{
    struct rank *rk = &job->ranks[r];
    rk->alive = false;
    job->nalive--;
    /* Its last words (often the reason it failed) come before our verdict. */
    stream_pump(&rk->out[0], r, true);
    stream_pump(&rk->out[1], r, true);
    /* And so do its last PMI commands (a finalize or an abort not yet read). */
    if (job->pmi)
        pmi_catch_up(job, r);
    if (job->phase != PHASE_RUNNING)
        return; /* killed by us, or fallout of a failure already reported */
    conclude(job, r, ws);
}

/* PMI mode: rank r sent cmd=abort. Everything it wrote before is already in its pipes, so its last
 * words still come before our verdict; the rank itself may exit or wait to be killed. */
void job_rank_aborted(struct job *job, int r)
{
    stream_pump(&job->ranks[r].out[0], r, true);
    stream_pump(&job->ranks[r].out[1], r, true);
    if (job->phase == PHASE_RUNNING)
        conclude(job, r, 0);
}

/* ---- events ----------------------------------------------------------------------------------- */

/* A rank that ended the job because a peer vanished is fallout: when the peer's death is reaped in
 * the same round, the peer must be judged first, so that it is the one named. */
static bool is_fallout(const struct job *job, int r)
{
    return rank_state(job, r, NULL) == SKIFF_RANK_LOST_PEER;
}

static void reap(struct job *job)
{
    enum { BATCH = 64 };
    int ws[BATCH], rank[BATCH], n;
    pid_t pid;
    do {
        for (n = 0; n < BATCH && (pid = waitpid(-1, &ws[n], WNOHANG)) > 0;)
            if ((rank[n] = rank_of_pid(job, pid)) >= 0)
                n++;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < n; i++)
                if (is_fallout(job, rank[i]) == (pass == 1))
                    on_rank_exit(job, rank[i], ws[i]);
    } while (n == BATCH);
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
 * thing anyone debugging a hang wants to know. In PMI mode that comes from the ranks' PMI commands
 * (init, finalize), which also tell who waits in a PMI barrier. */
static void report_stuck(const struct job *job)
{
    static const char *states[] = {"before MPI_Init", "inside MPI", "after MPI_Finalize", "aborting"};
    for (int r = 0; r < job->opt.nranks; r++) {
        if (!job->ranks[r].alive)
            continue;
        bool barrier = false;
        uint32_t st = job->pmi ? pmi_rank_state(job, r, NULL, &barrier) : rank_state(job, r, NULL);
        const char *what = st < 4 ? states[st] : "in an unknown state";
        if (!job->pmi) {
            say(2, "mpiexec:   rank %d (pid %d) still running, %s\n", r, (int)job->ranks[r].pid, what);
            continue;
        }
        bool local = job->nodes[rank_node(job, r)].launcher == LAUNCH_LOCAL;
        say(2, "mpiexec:   rank %d on host %s (%s %d) still running, %s%s\n", r, rank_host(job, r),
            local ? "pid" : "launcher pid", (int)job->ranks[r].pid, what,
            barrier ? ", waiting in the PMI barrier" : "");
    }
}

static void on_deadlines(struct job *job)
{
    double t = clock_now();
    if (job->phase == PHASE_RUNNING && job->timeout_at && t >= job->timeout_at) {
        say(2, "mpiexec: timeout after %g s%s; killing %d ranks\n", job->opt.timeout,
            job->opt.timeout_env ? " (MPIEXEC_TIMEOUT)" : "", job->nalive);
        report_stuck(job);
        set_status(job, EXIT_TIMEOUT);
        begin_teardown(job, SIGTERM);
    } else if (job->phase == PHASE_TERMINATING && t >= job->kill_at) {
        escalate_kill(job);
    }
}

/* Until the next deadline: the job's, or the first partial line's (output_due, 0 = none). */
static int poll_timeout_ms(const struct job *job, double output_due)
{
    double at = job->phase == PHASE_RUNNING       ? job->timeout_at
                : job->phase == PHASE_TERMINATING ? job->kill_at
                                                  : job->give_up_at;
    if (output_due && (!at || output_due < at))
        at = output_due;
    if (!at)
        return -1;
    double ms = ceil((at - clock_now()) * 1000.0);
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
    if (job->phase == PHASE_KILLING && clock_now() >= job->give_up_at)
        return true;
    return job->nalive == 0 && !streams_open(job) && !have_children(job);
}

/* Partial lines that waited long enough for their newline go out. Streams closed in this round
 * have already written theirs. */
static void flush_due_partials(struct stream **which, const int *rank_of, int n)
{
    double t = clock_now();
    for (int i = 0; i < n; i++) {
        double due = which[i]->fd >= 0 ? stream_due(which[i]) : 0;
        if (due && t >= due)
            stream_flush_partial(which[i], rank_of[i]);
    }
}

static void event_loop(struct job *job)
{
    int npmi = job->pmi ? pmi_poll_size(job) : 0;
    int nmax = 1 + 2 * job->opt.nranks + npmi;
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
        double output_due = 0;
        pfd[n++] = (struct pollfd){ .fd = job->sigfd, .events = POLLIN };
        for (int r = 0; r < job->opt.nranks; r++)
            for (int k = 0; k < 2; k++)
                if (job->ranks[r].out[k].fd >= 0) {
                    which[n] = &job->ranks[r].out[k];
                    rank_of[n] = r;
                    pfd[n] = (struct pollfd){ .fd = which[n]->fd, .events = POLLIN };
                    double due = stream_due(which[n]);
                    if (due && (!output_due || due < output_due))
                        output_due = due;
                    n++;
                }
        int pmi_at = n; /* the PMI server's entries come last, in its own order */
        if (job->pmi)
            pmi_poll_fill(job, pfd + pmi_at);
        if (poll(pfd, (nfds_t)(n + npmi), poll_timeout_ms(job, output_due)) < 0 && errno != EINTR) {
            say(2, "mpiexec: poll: %s\n", strerror(errno));
            signal_all(job, SIGKILL);
            exit(1);
        }
        /* PMI first: an abort or finalize that a rank sent before exiting is news for its judge. */
        if (job->pmi)
            pmi_poll_handle(job, pfd + pmi_at);
        if (pfd[0].revents)
            on_signals(job);
        for (int i = 1; i < n; i++)
            if (pfd[i].revents)
                stream_pump(which[i], rank_of[i], false); /* no-op if on_signals closed it */
        if (output_due)
            flush_due_partials(which + 1, rank_of + 1, n - 1);
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
            say(2, "mpiexec: cannot run '%s': %s\n", job->pmi ? launch_name(job, r) : job->opt.argv[0],
                strerror(e));
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
    pmi_stop(job);
    placement_release(job);
    if (job->topo)
        hwloc_topology_destroy(job->topo);
    if (job->sigfd >= 0)
        close(job->sigfd);
    free(job->ranks);
    free(job->by_pid);
    free(job->cwd);
    options_release(&job->opt);
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
    if (!job->ranks || !job_identity_create(job))
        return 1;
    if (job->opt.pmi_mode ? !pmi_start(job) : !job_segment_create(job))
        return 1;
    for (int r = 0; r < job->opt.nranks; r++)
        stream_init(&job->ranks[r].out[0], -1, 1), stream_init(&job->ranks[r].out[1], -1, 2);
    if (job->opt.timeout > 0)
        job->timeout_at = clock_now() + job->opt.timeout;

    spawn_all(job);
    index_pids(job);
    event_loop(job);
    return job->have_status ? job->status : 0;
}

/* PMI mode: where the ranks go (this may decide -n), before anything is sized by the rank count. */
static void pmi_mode_prepare(struct job *job)
{
    if (gethostname(job->hostname, sizeof job->hostname - 1) < 0)
        strcpy(job->hostname, "localhost");
    placement_build(job);
    job->cwd = getcwd(NULL, 0); /* remote ranks start there; NULL: in their home directory */
}

int main(int argc, char **argv)
{
    struct job job = { .memfd = -1, .sigfd = -1 };
    parse_options(argc, argv, &job.opt);
    if (job.opt.pmi_mode)
        pmi_mode_prepare(&job);
    int status = run(&job);
    int sig = job.term_signal;
    job_release(&job);
    if (sig)
        reraise(sig);
    return status;
}
