/* The LogP parameters that need one message at a time, between ranks 0 and 1: the ping-pong round trip,
 * the sender's overhead o_s, the receiver's overhead o_r, and L from the three (Culler et al., "LogP:
 * towards a realistic model", and Kielmann et al.'s LogGP measurement: docs/skiff-fan.md). Each is the mean
 * of the middle half of its samples, not the plain mean: on a shared machine one preempted sample would
 * otherwise move a sub-microsecond result. */
#include "skiff_fan.h"

#include <stdlib.h>

/* The mean of the middle half of t[0..n), which it sorts. Robust against preempted samples like a median,
 * but it averages over the clock's steps (10 ns on some VMs), which a median of 30-60 ns samples cannot. */
static double middle_mean(double *t, int n)
{
    m_stats_of(t, n);
    int lo = n / 4, hi = n - n / 4;
    double sum = 0;
    for (int i = lo; i < hi; i++)
        sum += t[i];
    return hi > lo ? sum / (hi - lo) : 0;
}

/* What one MPI_Wtime call costs: it sits inside every o_s and o_r sample, so it is reported beside them. */
static double timer_cost(int n, double *t)
{
    for (int i = 0; i < n; i++) {
        double a = MPI_Wtime();
        t[i] = MPI_Wtime() - a;
    }
    return middle_mean(t, n);
}

static double pingpong(const struct fan_opts *o, int rank, char *buf, double *t)
{
    int n = (int)o->size, peer = 1 - rank, w = fan_warmup(o->repeats);
    for (int r = -w; r < o->repeats; r++) {
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, n, MPI_BYTE, peer, FAN_TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_BYTE, peer, FAN_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, n, MPI_BYTE, peer, FAN_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_BYTE, peer, FAN_TAG_DATA, MPI_COMM_WORLD);
        }
        if (r >= 0)
            t[r] = MPI_Wtime() - t0;
    }
    return middle_mean(t, o->repeats);
}

/* o_s: the time MPI_Send takes for a message whose receive is already posted. Rank 1 posts the receive,
 * then says "ready"; only then does rank 0 time its send. Meaningful on rank 0. */
static double send_overhead(const struct fan_opts *o, int rank, char *buf, double *t)
{
    int n = (int)o->size, w = fan_warmup(o->repeats);
    for (int r = -w; r < o->repeats; r++) {
        if (rank == 1) {
            MPI_Request req;
            MPI_Irecv(buf, n, MPI_BYTE, 0, FAN_TAG_DATA, MPI_COMM_WORLD, &req);
            MPI_Send(NULL, 0, MPI_BYTE, 0, FAN_TAG_READY, MPI_COMM_WORLD);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            continue;
        }
        MPI_Recv(NULL, 0, MPI_BYTE, 1, FAN_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t0 = MPI_Wtime();
        MPI_Send(buf, n, MPI_BYTE, 1, FAN_TAG_DATA, MPI_COMM_WORLD);
        if (r >= 0)
            t[r] = MPI_Wtime() - t0;
    }
    return rank == 0 ? middle_mean(t, o->repeats) : 0;
}

/* o_r: the time MPI_Recv takes for a message that has already arrived. Rank 1 asks for the message, then
 * waits `delay`, many round trips, so the message is surely there before it times the receive. It waits
 * in a loop of sched_yield, not a sleep: after a sleep the receive ran 3 times slower here (cold caches);
 * and not a plain spin: oversubscribed, rank 0 may need this core to send, and o_r became a context
 * switch (3 us instead of 0.1 us at np=4 on 2 cores). Measured on rank 1, then sent to rank 0. */
static double recv_overhead(const struct fan_opts *o, int rank, double delay, char *buf, double *t)
{
    int n = (int)o->size, w = fan_warmup(o->repeats);
    for (int r = -w; r < o->repeats; r++) {
        if (rank == 0) {
            MPI_Recv(NULL, 0, MPI_BYTE, 1, FAN_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_BYTE, 1, FAN_TAG_DATA, MPI_COMM_WORLD);
            continue;
        }
        double start = MPI_Wtime();
        MPI_Send(NULL, 0, MPI_BYTE, 0, FAN_TAG_READY, MPI_COMM_WORLD);
        fan_spin(delay - (MPI_Wtime() - start));
        double t0 = MPI_Wtime();
        MPI_Recv(buf, n, MPI_BYTE, 0, FAN_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (r >= 0)
            t[r] = MPI_Wtime() - t0;
    }
    double o_r = rank == 1 ? middle_mean(t, o->repeats) : 0;
    if (rank == 1)
        MPI_Send(&o_r, 1, MPI_DOUBLE, 0, FAN_TAG_ACK, MPI_COMM_WORLD);
    else
        MPI_Recv(&o_r, 1, MPI_DOUBLE, 1, FAN_TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return o_r;
}

/* Rank 0's round trip, given to rank 1 too (it sizes the o_r delay). */
static double share(double v, int rank)
{
    if (rank == 0)
        MPI_Send(&v, 1, MPI_DOUBLE, 1, FAN_TAG_ACK, MPI_COMM_WORLD);
    else
        MPI_Recv(&v, 1, MPI_DOUBLE, 0, FAN_TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return v;
}

/* L = RTT/2 - o_s - o_r: the part of a one-way trip that neither side's CPU spends in the library. On
 * shared memory the overheads can add up to more than half the round trip (the receiver's copy overlaps
 * the sender's return), so the difference is clamped at 0 and the clamp is reported. */
static void derive_L(struct fan_logp *lp)
{
    lp->L = lp->rtt / 2 - lp->o_s - lp->o_r;
    lp->L_clamped = lp->L < 0;
    if (lp->L_clamped)
        lp->L = 0;
}

static void measure_pair(const struct fan_opts *o, int rank, struct fan_logp *lp)
{
    char *buf = fan_alloc(o->size);
    double *t = fan_alloc((size_t)o->repeats * sizeof *t);
    lp->timer = timer_cost(o->repeats, t);
    lp->rtt = share(pingpong(o, rank, buf, t), rank);
    lp->o_s = send_overhead(o, rank, buf, t);
    /* Many round trips, and at least 50 us: with more ranks than cores, rank 0 may have to be woken up and
     * scheduled before it sends, which takes far longer than a round trip between two running ranks. */
    double delay = 20 * lp->rtt > 50e-6 ? 20 * lp->rtt : 50e-6;
    lp->o_r = recv_overhead(o, rank, delay, buf, t);
    lp->g = fan_measure_g(o, lp->rtt, &lp->o_isend);
    lp->G = fan_measure_G(o, lp->rtt, &lp->G_fallback);
    derive_L(lp);
    free(t);
    free(buf);
}

void fan_measure_logp(const struct fan_opts *o, struct fan_logp *lp)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    *lp = (struct fan_logp){0};
    if (rank <= 1)
        measure_pair(o, rank, lp);
    MPI_Barrier(MPI_COMM_WORLD);
}
