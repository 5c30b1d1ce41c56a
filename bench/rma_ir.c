/* skiff bench/rma_ir.c — the calls of skiff-pipe's one-sided modes on a direct window, for instruction
 * counts (valgrind --tool=callgrind), where their wall-clock time is too close to the cache-line floor
 * and too noisy on a shared machine to compare two builds.
 *
 * One rank, an MPI_Win_allocate window (shared memory, the direct path) on MPI_COMM_WORLD; N rounds of:
 *   notify  the calls of one notified put's one-way trip (skiff-pipe --put --nofence): MPI_Put of 8 bytes,
 *           MPI_Win_flush, MPI_Accumulate(MPI_REPLACE) of the 8-byte flag, MPI_Win_flush (the sender);
 *           MPI_Fetch_and_op(MPI_NO_OP) of the flag, MPI_Win_flush, MPI_Win_sync (the receiver, whose
 *           poll finds the flag set the first time)
 *   fence   MPI_Put of 8 bytes, MPI_Win_fence (skiff-pipe --put): with one rank the barrier has no
 *           partner, so this counts the call's own path, not the waiting
 * Nothing ever waits, so the count is the same in every run.
 *
 *   rma_ir N notify|fence
 *
 * Per round: (Ir at 2N - Ir at N) / N, which cancels MPI_Init, the window and MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int fence = argc > 2 && strcmp(argv[2], "fence") == 0;
    MPI_Init(&argc, &argv);
    long long *base = NULL, data = 42, flag = 0, got = 0, none = 0;
    MPI_Win win;
    MPI_Win_allocate(128, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (fence)
        MPI_Win_fence(0, win);
    else
        MPI_Win_lock_all(0, win);
    for (int i = 0; i < n; i++) {
        MPI_Put(&data, 8, MPI_BYTE, 0, 0, 8, MPI_BYTE, win);
        if (fence) {
            MPI_Win_fence(0, win);
            continue;
        }
        MPI_Win_flush(0, win);
        flag++;
        MPI_Accumulate(&flag, 1, MPI_LONG_LONG, 0, 64, 1, MPI_LONG_LONG, MPI_REPLACE, win);
        MPI_Win_flush(0, win);
        MPI_Fetch_and_op(&none, &got, MPI_LONG_LONG, 0, 64, MPI_NO_OP, win);
        MPI_Win_flush(0, win);
        MPI_Win_sync(win);
    }
    if (fence)
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    else
        MPI_Win_unlock_all(win);
    printf("rma_ir %d %s %lld\n", n, fence ? "fence" : "notify", got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return got == (fence ? 0 : n) ? 0 : 1;
}
