/* soak — randomized MPI traffic with every byte checked, for a bounded time.
 *
 * usage: mpiexec -n N soak [--seed N] [--seconds S] [--rounds N] [--first-round R] [--max-bytes B]
 *                          [--hang S] [--no-dup] [-v] [-vv]
 *
 * The run is a sequence of rounds. Round r's schedule is a function of (seed, r, np) only
 * (schedule.c, splitmix64), so every rank knows what every other rank sends and receives, and a
 * failing round can be replayed alone with --first-round r --rounds 1. A round:
 *   - splits MPI_COMM_WORLD (random colours, some ranks left out, keys that reorder) when one of its
 *     collectives runs on the sub-communicator, and starts 0-2 nonblocking collectives (Ibcast,
 *     Iallreduce, Ireduce, Ibarrier) that stay pending through the point-to-point part;
 *   - point-to-point (p2p.c): 0..4*np messages (a "storm" round: 8..16*np tiny ones) with random
 *     ends (uniform, hotspot, fan-out, ring), tags from a range of 1, 3, 50 or 32767 values, on
 *     MPI_COMM_WORLD or a duplicate; sizes 0..--max-bytes, log-uniform, plus the protocol edges
 *     (16 KiB shm eager, 32 KiB cell, 64 KiB tcp eager, 256 KiB tcp piece, +-1 and +-8), total per
 *     round capped at 32 MiB; every send mode (Send, Ssend, Rsend, Bsend and their I-forms; ready
 *     mode only once the receive is provably posted), sometimes from or into a vector datatype
 *     with holes; receives by exact envelope, (ANY_SOURCE, tag), (src, ANY_TAG) and fully wild,
 *     issued as early or late Irecv, Recv, Probe or Iprobe then a receive of exactly the probed
 *     size, or Irecv plus a Test loop; the rest completed by one of Wait, Waitall, Waitany,
 *     Waitsome, Test, Testall, Testany, Testsome loops;
 *   - 0-4 blocking collectives (Barrier, Bcast, Reduce, Allreduce, Gather, Gatherv, Allgather,
 *     Alltoall, Alltoallv, Scan; coll.c) on MPI_COMM_WORLD or the split, results verified;
 *   - an Allreduce of rank 0's "time is up", so all ranks stop at the same round boundary.
 *
 * Checks: payloads are recomputed byte by byte by the receiver (payload.c); wildcard receives are
 * matched back by a header (sender, round, sequence, length, tag, checksum); exact receives must
 * get their message in non-overtaking order; every byte of a receive buffer outside the message
 * (holes, the rest of a larger buffer, 64 guard bytes) must be untouched; counts, statuses and
 * completion indices are checked; every message must arrive exactly once.
 *
 * Output: rank 0 prints "soak: seed=..." first and "OK soak seed=... rounds=... messages=...
 * bytes=... collectives=..." at the end (exit 0). A failure prints "FAIL [rank R] seed=S round=N
 * np=P: what" plus the command that replays it, and ends the job with MPI_Abort. A round that takes
 * longer than --hang seconds (default 60) prints a FAIL line naming the operation it is stuck in.
 * docs/soak.md has the details.
 */
#include "soak.h"

#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const struct sk_opts *sk_opt;
int sk_rank, sk_np;
long sk_cur_round = -1;

static const char *prog = "soak";
static char where_text[1024];
static char hang_head[512], replay_text[4096];

/* ---------------------------------------------------------------- failures */

static void format_replay(void)
{
    static const char *knobs[] = {"SKIFF_TRANSPORTS", "SKIFF_SHM_CMA",  "SKIFF_SHM_EAGER", "SKIFF_SHM_FBOX",
                                  "SKIFF_SHM_CELL",   "SKIFF_SHM_CELLS", "SKIFF_TCP_EAGER", "SKIFF_TCP_PIECE",
                                  "SKIFF_NODE_SIZE",  "SKIFF_SPIN"};
    char env[512] = "";
    size_t len = 0;
    for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++) {
        const char *v = getenv(knobs[i]);
        if (v && len < sizeof env - 100)
            len += (size_t)snprintf(env + len, sizeof env - len, "%s=%s ", knobs[i], v);
    }
    const struct sk_opts *o = sk_opt;
    snprintf(replay_text, sizeof replay_text,
             "  replay this round: %smpiexec -n %d %s --seed %llu --max-bytes %zu%s --first-round %ld --rounds 1 -vv\n"
             "  replay the run up to it: %smpiexec -n %d %s --seed %llu --max-bytes %zu%s --first-round %ld --rounds "
             "%ld\n",
             env, sk_np, prog, (unsigned long long)o->seed, o->max_bytes, o->no_dup ? " --no-dup" : "", sk_cur_round,
             env, sk_np, prog, (unsigned long long)o->seed, o->max_bytes, o->no_dup ? " --no-dup" : "",
             o->first_round, sk_cur_round - o->first_round + 1);
}

void sk_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL [rank %d] seed=%llu round=%ld np=%d: ", sk_rank,
            (unsigned long long)(sk_opt ? sk_opt->seed : 0), sk_cur_round, sk_np);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (sk_opt) {
        format_replay();
        fputs(replay_text, stderr);
    }
    fflush(stderr);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

void sk_where(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where_text, sizeof where_text, fmt, ap);
    va_end(ap);
}

void sk_check_mpi(int rc, const char *call)
{
    if (rc == MPI_SUCCESS)
        return;
    char s[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, s, &len);
    sk_fail("%s returned %d (%s) in: %s", call, rc, s, where_text);
}

void *sk_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        sk_fail("malloc(%zu) failed", n);
    return p;
}

/* Polling loops give the CPU away now and then: ranks may outnumber cores. */
void sk_relax(unsigned long *polls)
{
    ++*polls;
    if (*polls % 16 == 0)
        sched_yield();
    if (*polls > 100000 && *polls % 256 == 0) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
}

/* ---------------------------------------------------------------- hang watchdog */

static void write_all(const char *s)
{
    size_t len = strlen(s);
    while (len > 0) {
        ssize_t w = write(2, s, len);
        if (w <= 0)
            return;
        s += w;
        len -= (size_t)w;
    }
}

/* A blocked rank cannot call MPI_Abort safely from a signal handler; it says where it is stuck
 * and exits, and the launcher ends the job. It lingers a moment first: the other ranks' watchdogs
 * fire within the same moment (rounds start together), and their lines complete the picture. */
static void on_alarm(int sig)
{
    struct timespec linger = {2, 0};
    (void)sig;
    write_all(hang_head);
    write_all(where_text);
    write_all("\n");
    write_all(replay_text);
    nanosleep(&linger, NULL);
    _exit(3);
}

static void arm_watchdog(void)
{
    if (sk_opt->hang <= 0)
        return;
    snprintf(hang_head, sizeof hang_head, "FAIL [rank %d] seed=%llu round=%ld np=%d: hang: round not done after %g s; "
             "stuck in: ", sk_rank, (unsigned long long)sk_opt->seed, sk_cur_round, sk_np, sk_opt->hang);
    format_replay();
    alarm((unsigned)(sk_opt->hang + 0.999)); /* rounded up: never 0, which would disarm */
}

/* ---------------------------------------------------------------- options */

static void usage(FILE *f)
{
    fprintf(f, "usage: mpiexec -n N %s [options]\n"
               "  --seed N         schedule seed (default: from the clock; always printed first)\n"
               "  --seconds S      stop at the first round boundary after S seconds (default 10 unless --rounds)\n"
               "  --rounds N       stop after N rounds\n"
               "  --first-round R  number of the first round (replays round R of a run)\n"
               "  --max-bytes B    largest message, k/m suffixes allowed (default 4m)\n"
               "  --hang S         report a round that takes longer than S seconds as a hang (default 60, 0 off)\n"
               "  --no-dup         all point-to-point traffic on MPI_COMM_WORLD\n"
               "  --inject corrupt|drop\n"
               "                   self-test: damage, or never send, one message of the first round\n"
               "  -v, -vv          print each round's schedule summary / every message of it (rank 0)\n",
            prog);
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0)
        return 0;
    if (*end == 'k' || *end == 'K')
        v *= 1024, end++;
    else if (*end == 'm' || *end == 'M')
        v *= 1024 * 1024, end++;
    if (*end || v > 256.0 * 1024 * 1024)
        return 0;
    *out = (size_t)v;
    return 1;
}

/* Returns 0 on success, else the exit status. */
static int parse_args(int argc, char **argv, struct sk_opts *o, int *have_seed)
{
    *o = (struct sk_opts){.max_bytes = 4 * SK_MIB, .hang = 60};
    int have_seconds = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "-v") || !strcmp(a, "-vv")) {
            o->verbose += (int)strlen(a) - 1;
            continue;
        }
        if (!strcmp(a, "--no-dup")) {
            o->no_dup = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (!v)
            return 2;
        i++;
        if (!strcmp(a, "--seed"))
            o->seed = strtoull(v, &end, 0), *have_seed = 1;
        else if (!strcmp(a, "--seconds"))
            o->seconds = strtod(v, &end), have_seconds = 1;
        else if (!strcmp(a, "--rounds"))
            o->rounds = strtol(v, &end, 0);
        else if (!strcmp(a, "--first-round"))
            o->first_round = strtol(v, &end, 0);
        else if (!strcmp(a, "--hang"))
            o->hang = strtod(v, &end);
        else if (!strcmp(a, "--max-bytes") && parse_size(v, &o->max_bytes))
            continue;
        else if (!strcmp(a, "--inject") && (!strcmp(v, "corrupt") || !strcmp(v, "drop"))) {
            o->inject = !strcmp(v, "corrupt") ? INJECT_CORRUPT : INJECT_DROP;
            continue;
        }
        else
            return 2;
        if (!end || *end || o->seconds < 0 || o->rounds < 0 || o->first_round < 0 || o->hang < 0)
            return 2;
    }
    if (!have_seconds && o->rounds == 0)
        o->seconds = 10;
    return 0;
}

/* The same seed on every rank: rank 0's clock decides when none is given. */
static void agree_on_seed(struct sk_opts *o, int have_seed)
{
    if (!have_seed && sk_rank == 0)
        o->seed = sk_mix((uint64_t)time(NULL) ^ (uint64_t)(MPI_Wtime() * 1e6) ^ ((uint64_t)clock() << 20)) %
                  1000000000ull;
    SK_MPI(MPI_Bcast(&o->seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD));
}

/* ---------------------------------------------------------------- rounds */

static void run_colls(const struct sk_round *r, struct sk_group *world, struct sk_group *sub)
{
    for (int i = 0; i < r->ncoll; i++)
        sk_coll_finish(sk_coll_start(&r->coll[i], r->coll[i].on_sub ? sub : world));
}

static void run_round(long round, MPI_Comm dup, struct sk_stats *st)
{
    struct sk_round *r = sk_schedule(sk_opt, sk_np, round);
    struct sk_group world, sub = {MPI_COMM_NULL, 0, -1, NULL};
    struct sk_coll_run *over[SK_MAX_OVER] = {NULL};
    if (sk_opt->verbose && sk_rank == 0) {
        sk_schedule_print(r, sk_opt->verbose);
        fflush(stdout);
    }
    sk_group_world(&world);
    if (r->need_sub)
        sk_group_split(&sub, r);
    for (int i = 0; i < r->nover; i++)
        over[i] = sk_coll_start(&r->over[i], r->over[i].on_sub ? &sub : &world);
    sk_p2p_round(r, dup, over, st);
    run_colls(r, &world, &sub);
    st->collectives += r->nover + r->ncoll;
    sk_group_free(&sub);
    sk_group_free(&world);
    sk_schedule_free(r);
}

static int time_is_up(double t0, long done)
{
    int stop = sk_opt->rounds > 0 && done >= sk_opt->rounds;
    if (sk_rank == 0 && sk_opt->seconds > 0 && MPI_Wtime() - t0 >= sk_opt->seconds)
        stop = 1;
    sk_where("round %ld: MPI_Allreduce deciding whether to stop", sk_cur_round);
    SK_MPI(MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    return stop;
}

/* Rank 0 checks that all ranks together received exactly the scheduled messages. */
static void report(const struct sk_stats *st, long rounds, double seconds)
{
    long long mine[2] = {st->messages, st->bytes}, sum[2] = {0, 0};
    long long sched[2] = {0, 0};
    SK_MPI(MPI_Reduce(mine, sum, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    if (sk_rank != 0)
        return;
    for (long i = 0; i < rounds; i++) {
        struct sk_round *r = sk_schedule(sk_opt, sk_np, sk_opt->first_round + i);
        sched[0] += r->nmsg;
        sched[1] += (long long)r->bytes;
        sk_schedule_free(r);
    }
    if (sum[0] != sched[0] || sum[1] != sched[1])
        sk_fail("ranks received %lld messages / %lld bytes, the schedule sent %lld / %lld", sum[0], sum[1], sched[0],
                sched[1]);
    printf("OK soak seed=%llu rounds=%ld messages=%lld bytes=%lld collectives=%lld np=%d seconds=%.1f\n",
           (unsigned long long)sk_opt->seed, rounds, sum[0], sum[1], st->collectives, sk_np, seconds);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static struct sk_opts opts;
    int have_seed = 0;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &sk_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &sk_np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    prog = argc > 0 ? argv[0] : "soak";
    int bad = parse_args(argc, argv, &opts, &have_seed);
    if (bad) {
        if (sk_rank == 0)
            usage(bad == 1 ? stdout : stderr);
        MPI_Finalize();
        return bad == 1 ? 0 : 2;
    }
    sk_opt = &opts;
    agree_on_seed(&opts, have_seed);
    if (sk_rank == 0) {
        printf("soak: seed=%llu np=%d max-bytes=%zu seconds=%g rounds=%ld first-round=%ld\n",
               (unsigned long long)opts.seed, sk_np, opts.max_bytes, opts.seconds, opts.rounds, opts.first_round);
        fflush(stdout);
    }
    signal(SIGALRM, on_alarm);
    SK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    sk_bsend_attach();
    struct sk_stats st = {0, 0, 0};
    double t0 = MPI_Wtime();
    long done = 0;
    do {
        sk_cur_round = opts.first_round + done;
        arm_watchdog();
        run_round(sk_cur_round, dup, &st);
        done++;
    } while (!time_is_up(t0, done));
    sk_bsend_detach();
    alarm(0);
    SK_MPI(MPI_Comm_free(&dup));
    report(&st, done, MPI_Wtime() - t0);
    MPI_Finalize();
    return 0;
}
