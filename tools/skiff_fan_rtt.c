/* The fan-out/fan-in round trip (Hoefler's 1:n then n:1): rank 0 sends one message to each of P-1 peers,
 * each answers at once, and the round ends when rank 0 holds every answer. */
#include "skiff_fan.h"

#include <stdlib.h>

/* Rank 0's side of one round. The replies are received with MPI_Recv after all sends, in arrival order
 * (MPI_ANY_SOURCE), so each costs what the model calls o_r: the receive of a message that is usually
 * already there. The sends are nonblocking so that a large --size does not serialise the peers. */
static double root_round(const struct fan_opts *o, int P, char *sbuf, char *rbuf, MPI_Request *req)
{
    int n = (int)o->size;
    double t0 = MPI_Wtime();
    for (int i = 1; i < P; i++)
        MPI_Isend(sbuf, n, MPI_BYTE, i, FAN_TAG_DATA, MPI_COMM_WORLD, &req[i - 1]);
    for (int i = 1; i < P; i++)
        MPI_Recv(rbuf, n, MPI_BYTE, MPI_ANY_SOURCE, FAN_TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fan_waitall(P - 1, req);
    return MPI_Wtime() - t0;
}

static void peer_rounds(const struct fan_opts *o, int rounds, char *buf)
{
    int n = (int)o->size;
    for (int r = 0; r < rounds; r++) {
        MPI_Recv(buf, n, MPI_BYTE, 0, FAN_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, n, MPI_BYTE, 0, FAN_TAG_REPLY, MPI_COMM_WORLD);
    }
}

static void root_rounds(const struct fan_opts *o, int P, struct fan_point *pt)
{
    char *sbuf = fan_alloc(o->size), *rbuf = fan_alloc(o->size);
    MPI_Request *req = fan_alloc((size_t)P * sizeof *req);
    double *t = fan_alloc((size_t)o->repeats * sizeof *t);
    for (int r = 0; r < fan_warmup(o->repeats); r++)
        root_round(o, P, sbuf, rbuf, req);
    for (int r = 0; r < o->repeats; r++)
        t[r] = root_round(o, P, sbuf, rbuf, req);
    pt->rtt = m_stats_of(t, o->repeats);
    free(t);
    free(req);
    free(rbuf);
    free(sbuf);
}

void fan_measure_rtt(const struct fan_opts *o, int P, struct fan_point *pt)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pt->P = P;
    if (rank == 0) {
        root_rounds(o, P, pt);
    } else if (rank < P) {
        char *buf = fan_alloc(o->size);
        peer_rounds(o, fan_warmup(o->repeats) + o->repeats, buf);
        free(buf);
    }
    /* Ranks >= P wait here the whole time; on an oversubscribed node they sleep (skiff) or spin. */
    MPI_Barrier(MPI_COMM_WORLD);
}
