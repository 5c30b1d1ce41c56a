/* One-sided latency within a node (issue 17): a quick loop, not a test.
 *   mpiexec -n 2 rma_lat [iters] [reps]
 * On a Win_allocate_shared window in a lock_all epoch, rank 1 times iters of each operation on rank 0's
 * memory (which does nothing meanwhile); reps rounds, min and median per operation in ns:
 *   fop   MPI_Fetch_and_op(MPI_LONG, MPI_SUM) + MPI_Win_flush
 *   cas   MPI_Compare_and_swap(MPI_LONG) + MPI_Win_flush
 *   acc   MPI_Accumulate(1 MPI_LONG, MPI_SUM) + MPI_Win_flush
 *   put   MPI_Put(8 bytes) + MPI_Win_flush
 *   fop2  fop with both ranks adding to the same counter at once (contended)
 * and half the round trip of a ping-pong where each rank puts a counter into the other's part and waits
 * for the answer by loading its own part (pingpong-put), against the same ping-pong with plain atomic
 * stores through MPI_Win_shared_query's pointers (pingpong-store: the cache-line floor). Then on a
 * MPI_Win_create window over malloc'ed memory: put-create and get-create (8 bytes + MPI_Win_flush) while
 * rank 0 waits in MPI_Barrier. */
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(int rank, const char *name, double *t, int reps)
{
    if (rank != 1)
        return;
    qsort(t, (size_t)reps, sizeof *t, cmp);
    printf("%-14s min %8.1f ns  median %8.1f ns\n", name, t[0] * 1e9, t[reps / 2] * 1e9);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 20000, reps = argc > 2 ? atoi(argv[2]) : 7;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    long *mem;
    MPI_Win win;
    MPI_Win_allocate_shared(64, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    long *part[2];
    for (int r = 0; r < 2; r++) {
        MPI_Aint sz;
        int du;
        MPI_Win_shared_query(win, r, &sz, &du, &part[r]);
    }
    for (int i = 0; i < 8; i++)
        mem[i] = 0;
    double *t = malloc(sizeof *t * (size_t)reps);
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    const char *names[5] = {"fop", "cas", "acc", "put", "fop2"};
    for (int kind = 0; kind < 5; kind++) {
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; (rank == 1 || kind == 4) && i < iters; i++) {
                long one = 1, old, cmpv = i, nv = i + 1;
                if (kind == 0)
                    MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
                else if (kind == 1)
                    MPI_Compare_and_swap(&nv, &cmpv, &old, MPI_LONG, 0, 1, win);
                else if (kind == 2)
                    MPI_Accumulate(&one, 1, MPI_LONG, 0, 2, 1, MPI_LONG, MPI_SUM, win);
                else if (kind == 3)
                    MPI_Put(&one, 1, MPI_LONG, 0, 3, 1, MPI_LONG, win);
                else
                    MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 4, MPI_SUM, win);
                MPI_Win_flush(0, win);
            }
            t[r] = (MPI_Wtime() - t0) / iters;
            if (kind == 1 && rank == 1) /* the next round's compares start from 0 again */
                MPI_Put(&(long){0}, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win), MPI_Win_flush(0, win);
        }
        report(rank, names[kind], t, reps);
    }
    for (int mode = 0; mode < 2; mode++) {
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            _Atomic long *mine = (_Atomic long *)&part[rank][5], *theirs = (_Atomic long *)&part[1 - rank][5];
            long base = (long)(mode * reps + r) * iters * 2;
            atomic_store(mine, 0);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (long i = 1; i <= iters; i++) {
                long send = base + 2 * i - (rank == 0), want = base + 2 * i - (rank == 1);
                if (rank == 0) {
                    if (mode)
                        atomic_store(theirs, send);
                    else
                        MPI_Put(&send, 1, MPI_LONG, 1, 5, 1, MPI_LONG, win), MPI_Win_flush(1, win);
                }
                while (atomic_load_explicit(mine, memory_order_acquire) != want)
                    ;
                if (rank == 1) {
                    if (mode)
                        atomic_store(theirs, send);
                    else
                        MPI_Put(&send, 1, MPI_LONG, 0, 5, 1, MPI_LONG, win), MPI_Win_flush(0, win);
                }
            }
            t[r] = (MPI_Wtime() - t0) / iters / 2;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        report(rank, mode ? "pingpong-store" : "pingpong-put", t, reps);
    }
    MPI_Win_unlock_all(win);
    long *cmem = calloc(8, sizeof(long));
    MPI_Win cwin;
    MPI_Win_create(cmem, 8 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &cwin);
    MPI_Win_lock_all(0, cwin);
    for (int kind = 0; kind < 2; kind++) {
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; rank == 1 && i < iters; i++) {
                long v = i;
                if (kind == 0)
                    MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, cwin);
                else
                    MPI_Get(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, cwin);
                MPI_Win_flush(0, cwin);
            }
            t[r] = (MPI_Wtime() - t0) / iters;
        }
        report(rank, kind ? "get-create" : "put-create", t, reps);
    }
    MPI_Win_unlock_all(cwin);
    MPI_Win_free(&cwin);
    free(cmem);
    if (rank == 1) {
        long v[4];
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get(v, 4, MPI_LONG, 0, 0, 4, MPI_LONG, win);
        MPI_Win_unlock(0, win);
        long w4;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get(&w4, 1, MPI_LONG, 0, 4, 1, MPI_LONG, win);
        MPI_Win_unlock(0, win);
        printf("check: fop %ld (expect %ld), acc %ld (expect %ld), fop2 %ld (expect %ld)\n", v[0],
               (long)iters * reps, v[2], (long)iters * reps, w4, 2L * iters * reps);
    }
    free(t);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
