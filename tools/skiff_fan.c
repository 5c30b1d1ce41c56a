/* skiff-fan: mpiexec -n N skiff-fan [options]. The LogP parameters between ranks 0 and 1, then the
 * fan-out/fan-in round trip for P = 2..N, then rank 0 writes the measured curve beside the model's.
 * docs/skiff-fan.md has the method and the formats. */
#include "skiff_fan.h"

#include <stdio.h>
#include <stdlib.h>

/* Rank 0: predictions, data file, summary, chart. Returns the exit status. */
static int report(const struct fan_opts *o, const struct fan_logp *lp, struct fan_point *pts, int np)
{
    int n = np - 1;
    for (int i = 0; i < n; i++)
        pts[i].model = fan_model_rtt(lp, pts[i].P);
    if (fan_write_data(o, lp, pts, n, np) != 0)
        return 1;
    fan_print_summary(o, lp, pts, n, np);
    if (o->plot && fan_plot(o, pts, n) != 0)
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    struct fan_opts o;
    int rc = fan_parse(argc, argv, rank, &o);
    if (rc == 0 && np < 2) {
        if (rank == 0)
            fprintf(stderr, "skiff-fan: needs at least 2 ranks: mpiexec -n N skiff-fan (N >= 2)\n");
        rc = -1;
    }
    if (rc != 0) {
        /* Only rank 0 explains; the others must not exit (and so end the job) before it has. */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    struct fan_logp lp;
    fan_measure_logp(&o, &lp);
    struct fan_point *pts = fan_alloc((size_t)(np - 1) * sizeof *pts);
    for (int P = 2; P <= np; P++)
        fan_measure_rtt(&o, P, &pts[P - 2]);
    rc = rank == 0 ? report(&o, &lp, pts, np) : 0;
    free(pts);
    MPI_Finalize();
    return rc;
}
