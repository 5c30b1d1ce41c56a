/* The LogGP gaps, from bursts between ranks 0 and 1: g, the time between consecutive small messages when
 * the sender sends as fast as the pair allows, and G, the time per byte of large messages (the slope of
 * the time per message against its size). Every burst goes to receives posted beforehand, and ends with
 * an acknowledgement from the receiver, so it measures delivery, not only the sender's loop. */
#include "skiff_fan.h"

#include <stdlib.h>

enum { G_WINDOW = 8 };
/* Memory a burst may ask the receiver for (a slot per message: overlapping receives are erroneous). */
#define BURST_BUDGET ((size_t)64 << 20)

static const size_t G_SIZES[] = {64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20};
static const size_t G_SIZES_QUICK[] = {64 << 10, 256 << 10, 1 << 20};
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct burst {
    double total; /* first send to the acknowledgement (rank 0) */
    double isend; /* the sender's loop of MPI_Isend calls alone (rank 0) */
};

/* n messages of `size` bytes, 0 -> 1. rbuf holds n slots on rank 1; sbuf is one message on rank 0. */
static struct burst burst(int rank, int n, size_t size, char *sbuf, char *rbuf, MPI_Request *req)
{
    struct burst b = {0, 0};
    if (rank == 1) {
        for (int i = 0; i < n; i++)
            MPI_Irecv(rbuf + (size_t)i * size, (int)size, MPI_BYTE, 0, FAN_TAG_DATA, MPI_COMM_WORLD, &req[i]);
        MPI_Send(NULL, 0, MPI_BYTE, 0, FAN_TAG_READY, MPI_COMM_WORLD);
        fan_waitall(n, req);
        MPI_Send(NULL, 0, MPI_BYTE, 0, FAN_TAG_ACK, MPI_COMM_WORLD);
        return b;
    }
    MPI_Recv(NULL, 0, MPI_BYTE, 1, FAN_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++)
        MPI_Isend(sbuf, (int)size, MPI_BYTE, 1, FAN_TAG_DATA, MPI_COMM_WORLD, &req[i]);
    b.isend = MPI_Wtime() - t0;
    fan_waitall(n, req);
    MPI_Recv(NULL, 0, MPI_BYTE, 1, FAN_TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    b.total = MPI_Wtime() - t0;
    return b;
}

/* Time per message of a burst: the round trip (first message's latency, the acknowledgement's way
 * back) is taken off before dividing; if noise makes that negative, the plain quotient is used. */
static double per_message(double total, double rtt, int n)
{
    return total > rtt ? (total - rtt) / n : total / n;
}

/* The median time per message of `samples` bursts (rank 0), after one untimed burst. */
static double burst_median(int rank, int n, size_t size, int samples, double rtt, double *isend)
{
    char *sbuf = rank == 0 ? fan_alloc(size) : NULL;
    char *rbuf = rank == 1 ? fan_alloc((size_t)n * size) : NULL;
    MPI_Request *req = fan_alloc((size_t)n * sizeof *req);
    double *t = fan_alloc(2 * (size_t)samples * sizeof *t), *ti = t + samples;
    burst(rank, n, size, sbuf, rbuf, req);
    for (int s = 0; s < samples; s++) {
        struct burst b = burst(rank, n, size, sbuf, rbuf, req);
        t[s] = per_message(b.total, rtt, n);
        ti[s] = b.isend / n;
    }
    /* Only rank 0 timed anything. */
    double med = rank == 0 ? m_stats_of(t, samples).median : 0;
    if (isend)
        *isend = rank == 0 ? m_stats_of(ti, samples).median : 0;
    free(t);
    free(req);
    free(rbuf);
    free(sbuf);
    return med;
}

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

double fan_measure_g(const struct fan_opts *o, double rtt, double *o_isend)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Long enough that the pair's queues fill and the sender runs at the steady rate. */
    int n = o->quick ? 256 : 1024;
    if (o->size > 0 && (size_t)n * o->size > BURST_BUDGET)
        n = clamp((int)(BURST_BUDGET / o->size), 16, n);
    return burst_median(rank, n, o->size, clamp(o->repeats / 10, 3, 100), rtt, o_isend);
}

double fan_measure_G(const struct fan_opts *o, double rtt, int *fallback)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const size_t *sizes = o->quick ? G_SIZES_QUICK : G_SIZES;
    int k = o->quick ? NELEM(G_SIZES_QUICK) : NELEM(G_SIZES);
    double x[NELEM(G_SIZES)], y[NELEM(G_SIZES)];
    for (int i = 0; i < k; i++) {
        x[i] = (double)sizes[i];
        y[i] = burst_median(rank, G_WINDOW, sizes[i], clamp(o->repeats / 50, 3, 20), rtt, NULL);
    }
    double G = fan_slope(x, y, k);
    /* Noise can tilt a short line; the largest size's time per byte is then the honest fallback. */
    *fallback = !(G > 0);
    return *fallback ? y[k - 1] / x[k - 1] : G;
}
