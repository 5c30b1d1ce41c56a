/* A collective-heavy program with a fixed amount of work, for skiff-replay's validation (docs/trace.md)
 * and its tests: ITERS iterations (default 200) of
 *   computation (a daxpy over 8192 doubles, WORK times; default 20),
 *   MPI_Allreduce of 1 double, MPI_Bcast of 16 KiB from a rotating root, MPI_Allreduce of 64 KiB of
 *   doubles, MPI_Alltoall of 2 KiB per rank, MPI_Barrier;
 * with SCALE (default 1) the three larger messages are SCALE times larger.
 * Usage: coll_mix [ITERS [WORK [SCALE]]]. Prints the loop's time on rank 0 (max over ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 200, work = argc > 2 ? atoi(argv[2]) : 20;
    int scale = argc > 3 && atoi(argv[3]) > 0 ? atoi(argv[3]) : 1;
    enum { N = 8192 };
    const int BC = 16384 * scale, AR = 8192 * scale, A2A = 2048 * scale;
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    double *ar = malloc(AR * sizeof *ar), *ar2 = malloc(AR * sizeof *ar2);
    char *bc = malloc(BC), *s = malloc((size_t)A2A * size), *r = malloc((size_t)A2A * size);
    if (!x || !y || !ar || !ar2 || !bc || !s || !r)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < N; i++)
        x[i] = i, y[i] = 1;
    for (int i = 0; i < AR; i++)
        ar[i] = rank + i;
    for (int i = 0; i < A2A * size; i++)
        s[i] = (char)i;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), one = 1, sum;
    for (int it = 0; it < iters; it++) {
        for (int w = 0; w < work; w++)
            for (int i = 0; i < N; i++)
                y[i] += 1e-9 * x[i];
        MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Bcast(bc, BC, MPI_BYTE, it % size, MPI_COMM_WORLD);
        MPI_Allreduce(ar, ar2, AR, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Alltoall(s, A2A, MPI_BYTE, r, A2A, MPI_BYTE, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_mix: %d ranks, %d iterations, loop %.6f s (y[1] = %.3f)\n", size, iters, tmax, y[1]);
    free(x), free(y), free(ar), free(ar2), free(bc), free(s), free(r);
    MPI_Finalize();
    return 0;
}
