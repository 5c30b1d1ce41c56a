/* skiff-stream: mpiexec -n N skiff-stream [-n ELEMS] [-t NTIMES] [-v]
 * Every rank runs STREAM on its own arrays at the same time; rank 0 reports per-rank and aggregate rates
 * and whether every rank's results validate. docs/stream.md has the rules followed and the formats. */
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>

static double *alloc_times(size_t n)
{
    double *t = calloc(n, sizeof *t);
    if (!t) {
        fprintf(stderr, "skiff-stream: out of memory for %zu timings\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return t;
}

/* Runs the benchmark and gathers every rank's times on rank 0 (NULL elsewhere). */
static double *measure(const struct stream_opts *o, struct stream_arrays *s, int rank, int np)
{
    size_t per_rank = (size_t)STREAM_KERNELS * (size_t)o->ntimes;
    double *mine = alloc_times(per_rank), *all = rank == 0 ? alloc_times(per_rank * (size_t)np) : NULL;
    stream_run(s, o->ntimes, mine, MPI_COMM_WORLD);
    MPI_Gather(mine, (int)per_rank, MPI_DOUBLE, all, (int)per_rank, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    free(mine);
    return all;
}

/* Every rank checks its own arrays; the job fails if any rank's do not validate. */
static int validate(const struct stream_opts *o, const struct stream_arrays *s, int rank, int np)
{
    int bad = stream_validate(s, o->ntimes, rank), nbad = 0;
    MPI_Allreduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && nbad == 0)
        printf("Solution Validates: avg error less than 1.000000e-13 on all three arrays, on every rank\n"
               "validation passed\n");
    else if (rank == 0)
        printf("validation FAILED on %d of %d ranks\n", nbad, np);
    return nbad != 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    struct stream_opts o;
    int rc = stream_parse(argc, argv, rank, &o);
    if (rc != 0) {
        /* Only rank 0 explains a bad option; the others must not exit (and so end the job) first. */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    struct stream_size sz = stream_choose_size(&o, MPI_COMM_WORLD);
    struct stream_arrays s;
    stream_alloc(&s, sz.n);
    double *all = measure(&o, &s, rank, np);
    if (rank == 0)
        stream_report(&o, &sz, all, np);
    rc = validate(&o, &s, rank, np);
    free(all);
    stream_free(&s);
    if (rc) {
        fflush(stdout); /* every rank fails together (an allreduce said so): rank 0's report comes first */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rc;
}
