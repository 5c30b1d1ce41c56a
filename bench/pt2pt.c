/* skiff bench/pt2pt.c — two-rank point-to-point microbenchmark.
 *
 * Written against the MPI API only, so the same source builds with skiff,
 * MPICH and Open MPI.  Uses Init/Finalize, Comm_rank/size, Send/Recv,
 * Isend/Irecv/Wait/Waitall, Send_init/Recv_init/Start/Startall/Request_free
 * (--persist), Wtime and Abort; no collectives.
 *
 *   lat: ping-pong, half round trip in microseconds (lower is better)
 *   bw : streaming, a window of 64 Isends (fewer for 16 MiB: receive memory
 *        is capped at 128 MiB) matched by pre-posted Irecvs into distinct
 *        slots, then a 4-byte ack; GB/s = 1e9 bytes/s (higher is better)
 *
 * Rank 0 prints only "lat <bytes> <usec>" / "bw <bytes> <GB/s>" lines on
 * stdout.  Diagnostics go to stderr.  Ranks >= 2 (if any) sit idle.
 *
 * --persist measures instead what a persistent request saves: the 8-byte
 * ping-pong done with Isend/Irecv and Wait ("ilat 8 <usec>") and with
 * Send_init/Recv_init requests started each round ("plat 8 <usec>"), the
 * same calls otherwise: rank 0 starts its receive and send and waits for
 * both, rank 1 waits for its receive before it sends.
 *
 * --match measures matching against a deep queue of posted receives: rank 1
 * posts <depth> Irecvs with distinct tags, then rank 0 sends one 8-byte
 * message to each in the reverse order, so every arrival must find the one
 * receive that fits among all those still posted. Printed per message, in
 * microseconds, for a plain duplicate of MPI_COMM_WORLD ("mlat <depth>") and
 * for one made with the MPI-4 assertion mpi_assert_no_any_tag ("alat
 * <depth>"), which a library may use to match without walking the queue.
 *
 * --multiple asks for MPI_THREAD_MULTIPLE (and checks it was granted), for the cost of a threaded
 * library's locking to a program that calls from one thread.
 *
 * A 0-byte ping-pong spin (spin_s) first wakes both cores.  Iteration
 * counts are adaptive: after a per-size warm-up, rank 0 times calibration
 * runs (doubling until one lasts >= calib_s), picks a count that should take
 * ~target_s and sends every count to rank 1, so both ranks always execute
 * the same number of iterations.
 *
 * Usage: pt2pt [--quick] [--persist | --match]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_SYNC = 1, TAG_CTRL = 2, TAG_DATA = 3, TAG_ACK = 4 };
enum { BW_WINDOW = 64 };
/* Distinct receive slot per in-flight Irecv (overlapping receive buffers are
 * erroneous MPI); the window shrinks for huge messages to cap memory. */
#define BW_RECV_BUDGET (128u << 20)

static const int lat_sizes[] = {0, 8, 64, 1024, 8192};
static const int bw_sizes[] = {64 << 10, 1 << 20, 16 << 20};
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct cfg {
    double target_s; /* wall time wanted for each measured size */
    double calib_s;  /* calibration runs double until one lasts this long */
    double spin_s;   /* initial 0-byte ping-pong: wakes both cores, clocks up */
    long lat_warmup;
    long bw_warmup;  /* in windows */
};

static int rank;

/* How the ping-pong moves its messages: Send/Recv, Isend/Irecv, or the
 * persistent requests in preq (receive, send) made for the current size. */
enum pp_kind { PP_BLOCKING, PP_NONBLOCKING, PP_PERSISTENT };
static enum pp_kind pp_kind = PP_BLOCKING;
static MPI_Request preq[2];

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which GCC 12+ flags
 * with -Wstringop-overflow at -O2.  Laundering it through a volatile keeps
 * the exact "ignore" semantics for every library without the false positive. */
static MPI_Status *volatile statuses_ignore;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "pt2pt: rank %d: out of memory (%zu bytes)\n", rank, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(p, rank + 1, n ? n : 1); /* fault pages in before timing */
    return p;
}

/* Handshake so both ranks leave together: 0 -> 1 -> 0. */
static void sync_pair(void)
{
    char b = 0;
    if (rank == 0) {
        MPI_Send(&b, 0, MPI_BYTE, 1, TAG_SYNC, MPI_COMM_WORLD);
        MPI_Recv(&b, 0, MPI_BYTE, 1, TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&b, 0, MPI_BYTE, 0, TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&b, 0, MPI_BYTE, 0, TAG_SYNC, MPI_COMM_WORLD);
    }
}

/* Rank 0 decides, rank 1 learns; returns the agreed count on both. */
static long share_count(long n)
{
    if (rank == 0)
        MPI_Send(&n, (int)sizeof n, MPI_BYTE, 1, TAG_CTRL, MPI_COMM_WORLD);
    else
        MPI_Recv(&n, (int)sizeof n, MPI_BYTE, 0, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return n;
}

/* Iterations to fill target_s given n iterations took t seconds (rank 0). */
static long scale_count(long n, double t, double target_s, long lo, long hi)
{
    double want = t > 0 ? (double)n * target_s / t : (double)hi;
    long k = want > (double)hi ? hi : (long)want;
    return k < lo ? lo : k;
}

static void pingpong_nonblocking(char *buf, int bytes, long iters)
{
    int peer = 1 - rank;
    MPI_Request r[2];
    for (long i = 0; i < iters; i++) {
        if (pp_kind == PP_PERSISTENT) {
            if (rank == 0) {
                MPI_Startall(2, preq);
                MPI_Waitall(2, preq, statuses_ignore);
            } else {
                MPI_Start(&preq[0]);
                MPI_Wait(&preq[0], MPI_STATUS_IGNORE);
                MPI_Start(&preq[1]);
                MPI_Wait(&preq[1], MPI_STATUS_IGNORE);
            }
        } else if (rank == 0) {
            MPI_Irecv(buf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r[0]);
            MPI_Isend(buf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r[1]);
            MPI_Waitall(2, r, statuses_ignore);
        } else {
            MPI_Irecv(buf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r[0]);
            MPI_Wait(&r[0], MPI_STATUS_IGNORE);
            MPI_Isend(buf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r[1]);
            MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        }
    }
}

static void pingpong(char *buf, int bytes, long iters)
{
    if (pp_kind != PP_BLOCKING) {
        pingpong_nonblocking(buf, bytes, iters);
        return;
    }
    for (long i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
        }
    }
}

/* Time iters after a sync; meaningful on rank 0 only. */
static double timed_pingpong(char *buf, int bytes, long iters)
{
    sync_pair();
    double t0 = MPI_Wtime();
    pingpong(buf, bytes, iters);
    return MPI_Wtime() - t0;
}

/* Double n until a timed ping-pong lasts >= min_s (rank 0 decides, tells
 * rank 1 "next n" or 0 = done).  Returns n; *t gets its time on rank 0. */
static long calibrate_pingpong(char *buf, int bytes, long n, double min_s, double *t)
{
    for (;;) {
        *t = timed_pingpong(buf, bytes, n);
        long next = share_count(*t < min_s ? 2 * n : 0);
        if (next == 0)
            return n;
        n = next;
    }
}

static void run_latency(const struct cfg *c, int bytes, const char *name)
{
    char *buf = xmalloc((size_t)bytes);
    double t;
    if (pp_kind == PP_PERSISTENT) {
        /* One buffer both ways, as the other kinds use: the receive and the send of a round never
         * overlap in time on one rank. */
        MPI_Recv_init(buf, bytes, MPI_BYTE, 1 - rank, TAG_DATA, MPI_COMM_WORLD, &preq[0]);
        MPI_Send_init(buf, bytes, MPI_BYTE, 1 - rank, TAG_DATA, MPI_COMM_WORLD, &preq[1]);
    }
    pingpong(buf, bytes, c->lat_warmup);
    long n = calibrate_pingpong(buf, bytes, c->lat_warmup, c->calib_s, &t);
    long iters = share_count(scale_count(n, t, c->target_s, 100, 50000000L));
    t = timed_pingpong(buf, bytes, iters);
    if (rank == 0)
        printf("%s %d %.3f\n", name, bytes, t * 1e6 / (2.0 * (double)iters));
    if (pp_kind == PP_PERSISTENT) {
        MPI_Request_free(&preq[0]);
        MPI_Request_free(&preq[1]);
    }
    free(buf);
}

static void post_recvs(char *rbuf, int bytes, int win, MPI_Request *req)
{
    for (int w = 0; w < win; w++)
        MPI_Irecv(rbuf + (size_t)w * (size_t)bytes, bytes, MPI_BYTE, 0, TAG_DATA,
                  MPI_COMM_WORLD, &req[w]);
}

/* iters windows: rank 0 streams `win` Isends, rank 1 (whose Irecvs for the
 * first window are already posted) waits for them all, posts the next
 * window's Irecvs, then acks.  So every message meets a posted receive. */
static void stream(char *sbuf, char *rbuf, int bytes, int win, long iters, MPI_Request *req)
{
    int ack = 0;
    for (long i = 0; i < iters; i++) {
        if (rank == 0) {
            for (int w = 0; w < win; w++)
                MPI_Isend(sbuf, bytes, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(win, req, statuses_ignore);
            MPI_Recv(&ack, 1, MPI_INT, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Waitall(win, req, statuses_ignore);
            if (i + 1 < iters)
                post_recvs(rbuf, bytes, win, req);
            MPI_Send(&ack, 1, MPI_INT, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
}

static double timed_stream(char *sbuf, char *rbuf, int bytes, int win, long iters,
                           MPI_Request *req)
{
    if (rank == 1 && iters > 0)
        post_recvs(rbuf, bytes, win, req);
    sync_pair();
    double t0 = MPI_Wtime();
    stream(sbuf, rbuf, bytes, win, iters, req);
    return MPI_Wtime() - t0;
}

static void run_bandwidth(const struct cfg *c, int bytes)
{
    int win = BW_WINDOW;
    while (win > 1 && (size_t)win * (size_t)bytes > BW_RECV_BUDGET)
        win /= 2;
    MPI_Request req[BW_WINDOW];
    /* Sender reuses one buffer (legal since MPI-3); receiver gets a slot each. */
    char *sbuf = rank == 0 ? xmalloc((size_t)bytes) : NULL;
    char *rbuf = rank == 1 ? xmalloc((size_t)win * (size_t)bytes) : NULL;

    timed_stream(sbuf, rbuf, bytes, win, c->bw_warmup, req); /* warm-up */
    long n = c->bw_warmup;
    double t;
    for (;;) {
        t = timed_stream(sbuf, rbuf, bytes, win, n, req);
        long next = share_count(t < c->calib_s ? 2 * n : 0);
        if (next == 0)
            break;
        n = next;
    }
    long iters = share_count(scale_count(n, t, c->target_s, 2, 10000000L));
    t = timed_stream(sbuf, rbuf, bytes, win, iters, req);
    if (rank == 0)
        printf("bw %d %.3f\n", bytes, (double)bytes * win * (double)iters / t / 1e9);
    free(sbuf);
    free(rbuf);
}

static const int match_depths[] = {16, 256, 4096};

/* One round at depth: rank 1's time from its receives being posted to all of them done. */
static double match_round(MPI_Comm comm, int depth, int *rbuf, MPI_Request *req)
{
    double t = 0;
    if (rank == 1)
        for (int i = 0; i < depth; i++)
            MPI_Irecv(&rbuf[2 * i], 2, MPI_INT, 0, i, comm, &req[i]);
    sync_pair();
    if (rank == 0) {
        int msg[2] = {0, 0};
        for (int i = depth - 1; i >= 0; i--)
            MPI_Send(msg, 2, MPI_INT, 1, i, comm);
    } else {
        double t0 = MPI_Wtime();
        MPI_Waitall(depth, req, statuses_ignore);
        t = MPI_Wtime() - t0;
    }
    return t;
}

static void run_match(const struct cfg *c, MPI_Comm comm, int depth, const char *label)
{
    if (rank >= 2)
        return;
    int *rbuf = xmalloc(sizeof(int) * 2 * (size_t)depth);
    MPI_Request *req = xmalloc(sizeof(MPI_Request) * (size_t)depth);
    /* Enough rounds for target_s of the shallow case; the deep plain case may take longer, which is the
     * point. */
    long rounds = (long)(c->target_s * 2e5 / depth) + 2;
    double best = 1e30;
    match_round(comm, depth, rbuf, req); /* warm-up */
    for (long r = 0; r < rounds; r++) {
        double t = match_round(comm, depth, rbuf, req);
        if (rank == 1 && t < best)
            best = t;
    }
    if (rank == 1)
        MPI_Send(&best, 1, MPI_DOUBLE, 0, TAG_CTRL, MPI_COMM_WORLD);
    else {
        MPI_Recv(&best, 1, MPI_DOUBLE, 1, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("%s %d %.3f\n", label, depth, best / depth * 1e6);
    }
    free(rbuf);
    free(req);
}

/* Plain and asserting communicators alternate, so drift in the load hits both alike. */
static void run_matching(const struct cfg *c)
{
    MPI_Comm plain, asserting;
    MPI_Info info;
    MPI_Comm_dup(MPI_COMM_WORLD, &plain);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &asserting);
    MPI_Info_free(&info);
    for (int i = 0; i < NELEM(match_depths); i++) {
        run_match(c, plain, match_depths[i], "mlat");
        run_match(c, asserting, match_depths[i], "alat");
        fflush(stdout);
    }
    MPI_Comm_free(&plain);
    MPI_Comm_free(&asserting);
}

int main(int argc, char **argv)
{
    static const struct cfg normal = {.target_s = 0.3, .calib_s = 0.03, .spin_s = 0.2,
                                      .lat_warmup = 2000, .bw_warmup = 4};
    static const struct cfg quick = {.target_s = 0.03, .calib_s = 0.005, .spin_s = 0.02,
                                     .lat_warmup = 200, .bw_warmup = 1};
    struct cfg c = normal;
    int size, persist = 0, match = 0;

    statuses_ignore = MPI_STATUSES_IGNORE;
    /* --multiple: the same single-threaded runs after asking for MPI_THREAD_MULTIPLE, which is what
     * the lock of a threaded library costs a program that calls from one thread. */
    int multiple = 0, provided = -1;
    for (int i = 1; i < argc; i++)
        multiple |= strcmp(argv[i], "--multiple") == 0;
    MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            c = quick;
        } else if (strcmp(argv[i], "--persist") == 0) {
            persist = 1;
        } else if (strcmp(argv[i], "--match") == 0) {
            match = 1;
        } else if (strcmp(argv[i], "--multiple") == 0) {
            if (provided != MPI_THREAD_MULTIPLE) {
                fprintf(stderr, "pt2pt: MPI_THREAD_MULTIPLE asked for, %d provided\n", provided);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        } else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [--quick] [--multiple] [--persist | --match]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    if (size < 2) {
        fprintf(stderr, "pt2pt: needs 2 ranks, got %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* Communicators are made by every rank; ranks >= 2 then sit idle. */
    if (match) {
        if (rank < 2) {
            double t;
            char b = 0;
            calibrate_pingpong(&b, 0, 1000, c.spin_s, &t);
        }
        run_matching(&c);
        MPI_Finalize();
        return 0;
    }
    if (rank < 2) {
        double t;
        char b = 0;
        calibrate_pingpong(&b, 0, 1000, c.spin_s, &t);
        for (int i = 0; i < NELEM(lat_sizes) && !persist; i++) {
            run_latency(&c, lat_sizes[i], "lat");
            fflush(stdout);
        }
        /* Alternating, so that drift in the machine's load hits both alike. */
        for (int i = 0; i < 3 && persist; i++) {
            pp_kind = PP_NONBLOCKING;
            run_latency(&c, 8, "ilat");
            pp_kind = PP_PERSISTENT;
            run_latency(&c, 8, "plat");
            pp_kind = PP_BLOCKING;
            fflush(stdout);
        }
        for (int i = 0; i < NELEM(bw_sizes) && !persist; i++) {
            run_bandwidth(&c, bw_sizes[i]);
            fflush(stdout);
        }
    }
    MPI_Finalize();
    return 0;
}
