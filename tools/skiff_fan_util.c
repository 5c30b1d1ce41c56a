/* Small helpers shared by skiff-fan's measuring files. */
#define _POSIX_C_SOURCE 200809L /* sched_yield */
#include "skiff_fan.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *fan_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "skiff-fan: out of memory (%zu bytes)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* Touch every page now, so that no page fault lands inside a timed region. */
    memset(p, 0x5a, n ? n : 1);
    return p;
}

int fan_warmup(int repeats)
{
    return repeats / 10 > 5 ? repeats / 10 : 5;
}

void fan_spin(double seconds)
{
    /* Yielding: with more ranks than cores, the rank that must send to us may be waiting for this very
     * core; a plain spin would keep it off until the scheduler's tick. */
    double end = MPI_Wtime() + seconds;
    while (MPI_Wtime() < end)
        sched_yield();
    /* Then a few microseconds without system calls, so the receive starts on a core that is computing. */
    end = MPI_Wtime() + 5e-6;
    while (MPI_Wtime() < end)
        ;
}

void fan_waitall(int n, MPI_Request *requests)
{
    /* Through a volatile, the compiler cannot see MPICH's (MPI_Status *)1 and warn about it. */
    MPI_Status *volatile ignore = MPI_STATUSES_IGNORE;
    MPI_Waitall(n, requests, ignore);
}
