/* skiff-pipe: NetPIPE-style throughput and latency curves (docs/skiff-pipe.md).
 *
 * The parts: options (skiff_pipe_options.c), buffers (skiff_pipe_buf.c), the integrity pattern
 * (skiff_pipe_pattern.c), the size sweep and repeat counts (skiff_pipe_sweep.c), the data file and
 * summary (skiff_pipe_report.c), charts (skiff_pipe_plot.c), and one "link" per thing measured:
 * MPI (skiff_pipe_mpi.c), memcpy (skiff_pipe_memcpy.c), TCP (skiff_pipe_tcp.c).
 * MPI API, libc and POSIX sockets only, so the same files build with MPICH's and Open MPI's mpicc.
 */
#ifndef SKIFF_PIPE_H
#define SKIFF_PIPE_H

#include <stddef.h>
#include <stdio.h>

/* ---- options ---------------------------------------------------------------------------------- */

enum { PIPE_MAX_TRIALS = 100, PIPE_MAX_COLUMN = 16 };
enum pipe_module { PIPE_MPI, PIPE_MEMCPY, PIPE_TCP_CLIENT, PIPE_TCP_SERVER, PIPE_OVERLAY, PIPE_HELP };
enum pipe_mode { PIPE_PINGPONG, PIPE_STREAM, PIPE_BIDIR };
/* --pattern: every rank at once (docs/skiff-pipe.md defines each). */
enum pipe_pattern { PIPE_PAT_NONE, PIPE_PAT_RING, PIPE_PAT_BISECTION, PIPE_PAT_ALLTOALL, PIPE_PAT_NEIGHBOUR2D };
/* One-sided modes (skiff_pipe_rma.c): put and get into the peer's MPI_Win_allocate window, the 8-byte
 * atomics, and the cache-line ping-pong floor under them. */
enum pipe_rma { PIPE_RMA_NONE, PIPE_RMA_PUT, PIPE_RMA_GET, PIPE_RMA_FOP, PIPE_RMA_CAS, PIPE_RMA_CACHELINE };

struct pipe_opts {
    enum pipe_module module;
    enum pipe_mode mode;
    int integrity, nocache, async, quick, silent;
    size_t start, end, pert, soffset, roffset;
    size_t window; /* --nocache: bytes each moving buffer walks through; 0 = 4 x last-level cache */
    long repeats;  /* fixed repeats per trial; 0 = adaptive */
    int trials;    /* timed runs per size, for min/avg/max: 1 .. PIPE_MAX_TRIALS */
    double target; /* seconds per size (all trials together) when adaptive */
    const char *out, *plot, *plot_files, *labels, *host;
    int port;
    int pairs;                 /* --pairs: np/2 pairs at once, rank i with np-1-i */
    enum pipe_pattern pattern; /* --pattern: every rank at once */
    double workload;           /* --workload: microseconds of calibrated daxpy per transfer; 0 = none */
    int workload_auto;         /* --workload auto: as long as each size's transfer alone (workload = 1) */
    int plot_y;                /* --plot-y: the data-file column charted (default 2, throughput) */
    enum pipe_rma rma;         /* --put, --get, --fop, --cas, --cacheline */
    int nofence;               /* --nofence: lock_all once, flush per transfer, instead of fences */
};

/* Fills o from argv; returns 0, or 2 after a message on stderr (usage error). */
int pipe_parse(int argc, char **argv, struct pipe_opts *o);
void pipe_usage(FILE *f);
const char *pipe_mode_name(const struct pipe_opts *o);
const char *pipe_pattern_name(enum pipe_pattern p);

/* ---- buffers ---------------------------------------------------------------------------------- */

/* Where messages are sent from or received into: page-aligned + offset. Fixed: 1 or 2 slots used in
 * turn (2 when two receives are pending at once). Moving (--nocache): each message takes the next
 * piece of a window larger than the cache, so it comes from memory, not cache. */
struct pipe_buf {
    unsigned char *base;
    size_t len, offset, slot, pos, window;
    int nslots, next_slot;
};

enum { PIPE_GUARD = 64 }; /* bytes after each message that --integrity checks stay untouched */

/* max = largest message; window 0 = fixed slots. Returns 0 or -1 (out of memory, message printed). */
int pipe_buf_init(struct pipe_buf *b, size_t max, size_t offset, size_t window, int nslots);
unsigned char *pipe_buf_next(struct pipe_buf *b, size_t bytes);
void pipe_buf_free(struct pipe_buf *b);
/* The window --nocache uses: o->window, else 4 x the last-level cache. */
size_t pipe_window(const struct pipe_opts *o);

/* ---- integrity pattern ------------------------------------------------------------------------ */

/* The contents of message number rep of `bytes` bytes sent in direction dir (0: rank 0 to 1). */
void pipe_fill(unsigned char *p, size_t bytes, long rep, int dir);
/* Marks p[0 .. bytes + PIPE_GUARD) so that a message not delivered, or written past its end, shows. */
void pipe_clear(unsigned char *p, size_t bytes);
/* 0 if p holds message (bytes, rep, dir) and an intact guard; else 1, with a note on stderr for the
 * first few failures (who names the receiver). */
int pipe_verify(const unsigned char *p, size_t bytes, long rep, int dir, const char *who);
/* Testing only: SKIFF_PIPE_CORRUPT_TEST=1 asks the follower (the receiving side) to flip one byte of
 * the first message of every size, to show that the checker catches it. */
int pipe_corrupt_requested(void);
/* pipe_verify on a message just received, after flipping its middle byte if corrupt and rep == 0. */
int pipe_check_received(unsigned char *p, size_t bytes, long rep, int dir, const char *who, int corrupt);

/* ---- workload (--workload) ------------------------------------------------------------------- */

struct pipe_work {
    double usec;    /* asked for */
    long passes;    /* daxpy passes that take that long on this rank, idle */
    double pass_ns; /* one pass, as calibrated */
    int automatic;  /* --workload auto: passes follow each run's transfer time (pipe_work_match) */
};
/* Times the work before anything is measured (~0.02-0.04 s) and sets w->passes for usec microseconds. */
void pipe_work_calibrate(struct pipe_work *w, double usec);
void pipe_work_do(const struct pipe_work *w);
/* --workload auto: as many passes as take `seconds` (at least 1). */
void pipe_work_match(struct pipe_work *w, double seconds);
/* --workload auto: `runs` runs of the work alone took `seconds`: the pass time the next match uses
 * (the start-up calibration may have run on a busier or slower core than the sizes do). */
void pipe_work_observed(struct pipe_work *w, double seconds, long long runs);

/* ---- links: what is measured ------------------------------------------------------------------ */

/* One run: the leader tells the follower `bytes` and `reps`; reps < 0 ends the session. */
struct pipe_job {
    long long bytes, reps;
};

/* CPU and wall time one process spent over a span (seconds): getrusage(RUSAGE_SELF) for user and
 * system time (all threads of the process), the monotonic clock for wall time. Read before and after
 * a run, never inside the timed loop (skiff_pipe_cpu.c). */
struct pipe_cpu {
    double user, sys, wall;
};
void pipe_cpu_now(struct pipe_cpu *c);
/* *c = now - *c */
void pipe_cpu_since(struct pipe_cpu *c);
void pipe_cpu_add(struct pipe_cpu *sum, const struct pipe_cpu *c);

struct pipe_result {
    double seconds; /* the leader's time for all repeats, after the start handshake; with several
                       flows (--pairs, --pattern) the slowest flow's */
    long failures;  /* --integrity: messages that arrived wrong, both sides together */
    /* cpu[0]: the leader's (rank 0's) CPU over the run, cpu[1]: the follower's (rank 1's); with
     * several flows the mean over all ranks and the rank that used the most CPU. Zero where a side
     * has none (memcpy has no follower). */
    struct pipe_cpu cpu[2];
    double mean_seconds; /* several flows: the mean of the flows' times (else = seconds) */
    double comm_seconds, work_seconds; /* --workload: the same run without work, and the work alone */
};

struct pipe_link {
    void *ctx;
    int leader;
    /* The leader sends job, the follower receives it into job. */
    void (*agree)(void *ctx, struct pipe_job *job);
    struct pipe_result (*run)(void *ctx, const struct pipe_job *job);
    double legs;  /* one-way message times per repeat: 2 for ping-pong, else 1 */
    double dirs;  /* data volume per repeat in messages: 2 for bidirectional, else 1 */
    int check;    /* --integrity: fill and verify every message */
    double flows; /* flows measured at once (pairs, or ranks of a pattern); 0 = one, no extra columns */
    int workload; /* the run reports comm_seconds and work_seconds */
};

/* The follower's side: runs what the leader asks until told to stop. */
void pipe_follow(struct pipe_link *l);

/* ---- results ---------------------------------------------------------------------------------- */

struct pipe_point {
    size_t bytes;
    double gbps_avg, gbps_min, gbps_max; /* Gbit/s, 1e9 bit/s; with several flows the aggregate */
    double usec;                         /* avg one-way (ping-pong) or per-message time */
    /* CPU per unit of the time column (µs, user and system) and busy share of the wall time (%),
     * for cpu[0] and cpu[1] of the results, over all trials of the size together. */
    double user_us[2], sys_us[2], busy[2];
    int flows;                   /* > 0: the two columns below are written */
    double flow_gbps, usec_max;  /* one flow's throughput (from the mean time), the slowest's time */
    int workload;                /* the three columns below are written */
    double comm_us, work_us, overlap; /* per repeat without work, the work alone, overlap in % */
};

/* Leader: measures every size, writes the data file and progress lines; returns the number of
 * points (into *points, malloc'ed) or -1. */
int pipe_sweep_time(struct pipe_link *l, const struct pipe_opts *o, FILE *data, struct pipe_point **points);
/* Leader: every size with --integrity checks; prints failures per size; returns total failures. */
long pipe_sweep_check(struct pipe_link *l, const struct pipe_opts *o);

/* Builds a point from the trials' results: times, CPU, flows and workload columns. */
struct pipe_point pipe_point_of(size_t bytes, const struct pipe_result *res, int n, long reps,
                                const struct pipe_link *l);
void pipe_write_point(FILE *data, const struct pipe_point *p);
void pipe_progress(const struct pipe_point *p);
/* Latency (the smallest size's time, described by time_note), peak and N1/2, then the CPU lines
 * (and the flows' and overlap lines where the points have them). */
void pipe_summary(FILE *f, const struct pipe_point *p, int n, const char *time_note);
/* What the time column means in this mode ("one-way: half the round trip", "per message", ...). */
const char *pipe_time_note(const struct pipe_opts *o);
/* The first line of the summary: what was measured, with what. */
void pipe_header(FILE *f, const struct pipe_opts *o, const char *what, int points);

/* Runs a whole measurement with link l: opens the data file, sweeps, prints the summary, plots.
 * Returns the exit status (0, or 1 on failure / integrity failures). Leader only. */
int pipe_measure(struct pipe_link *l, const struct pipe_opts *o, const char *what);

/* ---- charts ----------------------------------------------------------------------------------- */

/* --plot with --plot-files: overlays existing data files. Exit status. */
int pipe_overlay(const struct pipe_opts *o);
/* --plot after a measurement: the data file just written, labelled label. */
int pipe_plot_one(const struct pipe_opts *o, const char *label);

/* ---- modules ---------------------------------------------------------------------------------- */

int pipe_mpi_main(int argc, char **argv, const struct pipe_opts *o);
int pipe_memcpy_main(const struct pipe_opts *o);
int pipe_tcp_client_main(const struct pipe_opts *o);
int pipe_tcp_server_main(const struct pipe_opts *o);
/* The one-sided modes, called after MPI_Init by pipe_mpi_main (every rank); returns the exit status. */
int pipe_rma_main(const struct pipe_opts *o, const char *what);

#endif
