/* skiff-fan: Hoefler's 1:n / n:1 round trip and the LogP/LogGP parameters that predict it.
 *
 * Written against the MPI API, libc and tools/lib only, so the same files build with MPICH's and
 * Open MPI's mpicc. Method and output format: docs/skiff-fan.md.
 */
#ifndef SKIFF_TOOLS_FAN_H
#define SKIFF_TOOLS_FAN_H

#include <mpi.h>
#include <stddef.h>

#include "measure.h"

/* Tags of the tool's own messages: one per purpose, so a stray message can never match a wrong step. */
enum { FAN_TAG_DATA = 11, FAN_TAG_REPLY = 12, FAN_TAG_READY = 13, FAN_TAG_ACK = 14 };

struct fan_opts {
    size_t size;      /* bytes of each small message (fan and LogP small-message parameters) */
    int repeats;      /* timed fan round trips per P, and samples per LogP parameter */
    int quick;        /* fewer repeats, bursts and G sizes: seconds instead of tens of seconds */
    int quiet;        /* -q: nothing on stdout; the data file has everything */
    const char *out;  /* data file */
    const char *plot; /* PNG chart, or NULL */
};

/* The LogP/LogGP parameters in seconds (G in seconds per byte). rtt, o_s, o_r and timer are means of
 * the middle half of their samples; g and G come from medians of bursts. */
struct fan_logp {
    double rtt;       /* ping-pong round trip of one small message */
    double o_s, o_r;  /* sender and receiver overhead */
    double o_isend;   /* time per MPI_Isend inside a burst (informational: a second view of o_s) */
    double g;         /* gap between consecutive small messages of a long burst */
    double G;         /* gap per byte of large messages (slope of streaming time vs size) */
    double L;         /* rtt/2 - o_s - o_r, clamped at 0 */
    int L_clamped;    /* the subtraction was negative */
    int G_fallback;   /* the slope was not positive: G is the largest size's time per byte instead */
    double timer;     /* cost of one MPI_Wtime call, included in o_s and o_r */
};

/* One point of the fan curve, in seconds. */
struct fan_point {
    int P;
    struct m_stats rtt;
    double model;
};

/* Parses argv (every rank does, with the same result). Returns 0, 1 after --help, -1 on a bad option
 * (message on stderr from rank 0). */
int fan_parse(int argc, char **argv, int rank, struct fan_opts *o);

/* Collective over MPI_COMM_WORLD: ranks 0 and 1 measure, the others wait in a barrier. The result is
 * meaningful on rank 0. */
void fan_measure_logp(const struct fan_opts *o, struct fan_logp *lp);

/* The burst and streaming parts of the measurement (ranks 0 and 1 only). rtt: the ping-pong round trip,
 * subtracted from every burst (it is the first message's latency plus the final acknowledgement). */
double fan_measure_g(const struct fan_opts *o, double rtt, double *o_isend);
double fan_measure_G(const struct fan_opts *o, double rtt, int *fallback);

/* Collective over MPI_COMM_WORLD: the fan round trip with the first P ranks, the others in a barrier.
 * Fills the statistics on rank 0. */
void fan_measure_rtt(const struct fan_opts *o, int P, struct fan_point *pt);

/* The model: RTT(P) = 4o + 2L + (P-1) max(g, o) with o = (o_s + o_r) / 2. */
double fan_model_rtt(const struct fan_logp *lp, int P);
/* Predicted time of the n-way dissemination barrier on P ranks: ceil(log_n P) rounds, each
 * o + (n-1) max(g, o) + L. */
double fan_model_barrier(const struct fan_logp *lp, int n, int P);
/* The n in [2, 8] with the smallest predicted barrier time on P ranks (the smallest n on a tie). */
int fan_suggest_barrier_n(const struct fan_logp *lp, int P);
/* Least-squares slope of y against x over n points (0 if the x do not vary). */
double fan_slope(const double *x, const double *y, int n);

/* Rank 0: the data file, the summary on stdout (unless quiet), the chart. Return 0 or -1. */
int fan_write_data(const struct fan_opts *o, const struct fan_logp *lp, const struct fan_point *pts, int n, int np);
void fan_print_summary(const struct fan_opts *o, const struct fan_logp *lp, const struct fan_point *pts, int n,
                       int np);
int fan_plot(const struct fan_opts *o, const struct fan_point *pts, int n);

/* Helpers shared by the measuring files. */
void *fan_alloc(size_t n);
/* Untimed rounds before the timed ones (10 %, at least 5): they fault in buffers and warm the library's
 * queues and the caches. */
int fan_warmup(int repeats);
/* Waits for the given seconds without sleeping (a sleeping core clocks down and loses its caches), but
 * offers the core to other processes all along (sched_yield), then spins 5 us more. */
void fan_spin(double seconds);
/* MPI_Waitall with a status array (MPI_STATUSES_IGNORE trips GCC's -Wstringop-overflow with MPICH). */
void fan_waitall(int n, MPI_Request *requests);

#endif
