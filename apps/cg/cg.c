/* skiff-cg: mpiexec -n N skiff-cg [--mtx FILE | --gen KIND --size M] [--jacobi] [--exchange MODE] ...
 * Solves A x = b, b = A (1, ..., 1), by CG on row blocks with a halo exchange before every SpMV; rank 0
 * reports iterations, the true residual, where the time went, GFLOP/s and bytes moved (docs/cg.md). */
#include "cg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cg_run {
    MPI_Comm comm;
    int rank, np, nodes;
    struct cg_matrix a;
    struct cg_halo h;
    double *b, *x;
    struct cg_result res;
};

/* The ranks in node order, then by rank within the node: block rows then go node by node. */
static void make_comm(const struct cg_options *o, struct cg_run *run)
{
    MPI_Comm node;
    int wrank, wsize, nrank, first, leader;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, wrank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &nrank);
    MPI_Allreduce(&wrank, &first, 1, MPI_INT, MPI_MIN, node);
    leader = nrank == 0;
    MPI_Allreduce(&leader, &run->nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_free(&node);
    if (o->by_nodes)
        MPI_Comm_split(MPI_COMM_WORLD, 0, first * wsize + nrank, &run->comm);
    else
        MPI_Comm_dup(MPI_COMM_WORLD, &run->comm);
    MPI_Comm_rank(run->comm, &run->rank);
    MPI_Comm_size(run->comm, &run->np);
}

/* Matrix, halo, b = A 1 and the solve, on the ranks of comm (MPI_COMM_SELF for the serial check). */
static int setup_and_solve(const struct cg_options *o, MPI_Comm comm, struct cg_run *run)
{
    run->comm = comm;
    if (o->mtx ? cg_read_mtx(o->mtx, comm, &run->a) : cg_generate(o, comm, &run->a)) {
        MPI_Barrier(comm); /* every rank failed: none exits before the one that speaks has said why */
        return 1;
    }
    if (cg_halo_setup(&run->h, &run->a, comm, o->exchange))
        return 1;
    size_t n = (size_t)run->a.nloc + 1;
    run->b = calloc(n, sizeof *run->b);
    run->x = calloc(n, sizeof *run->x);
    if (!run->b || !run->x) {
        fprintf(stderr, "skiff-cg: out of memory for %zu-row vectors\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < run->a.nloc; i++)
        run->h.x[i] = 1;
    cg_halo_exchange(&run->h);
    cg_spmv(&run->a, run->h.x, run->b);
    if (cg_solve(&run->a, &run->h, o, run->b, run->x, &run->res)) {
        if (run->rank == 0)
            fprintf(stderr, "skiff-cg: --jacobi needs a nonzero diagonal, and the matrix has a zero one\n");
        MPI_Barrier(comm); /* every rank failed: none exits before rank 0 has said why */
        return 1;
    }
    return 0;
}

static void free_run(struct cg_run *run)
{
    cg_halo_free(&run->h);
    cg_matrix_free(&run->a);
    free(run->b), free(run->x);
}

static void print_problem(const struct cg_options *o, const struct cg_run *run)
{
    if (o->mtx)
        printf("problem: %s (Matrix Market), %ld rows, %ld nonzeros\n", o->mtx, run->a.n, run->a.nnz_global);
    else
        printf("problem: %s %d^%d, %ld rows, %ld nonzeros\n", cg_gen_name(o->gen), o->size,
               o->gen == CG_GEN_2D5 ? 2 : 3, run->a.n, run->a.nnz_global);
    printf("method: %s, tolerance %.3g, right-hand side b = A*ones, x0 = 0\n", o->jacobi ? "Jacobi-PCG" : "CG",
           o->tol);
    printf("ranks: %d on %d node%s, rows in blocks %s, halo exchange: %s\n", run->np, run->nodes,
           run->nodes == 1 ? "" : "s", o->by_nodes ? "node by node, then by core" : "by rank",
           cg_exchange_name(o->exchange));
}

static void report(const struct cg_options *o, struct cg_run *run)
{
    static const char *names[CG_T_COUNT] = {"spmv", "halo exchange", "reductions", "vector updates"};
    double t[CG_T_COUNT + 1], tmax[CG_T_COUNT + 1], tsum[CG_T_COUNT + 1];
    long long halo = 0;
    memcpy(t, run->res.t, sizeof run->res.t);
    t[CG_T_COUNT] = run->res.t_solve;
    MPI_Reduce(t, tmax, CG_T_COUNT + 1, MPI_DOUBLE, MPI_MAX, 0, run->comm);
    MPI_Reduce(t, tsum, CG_T_COUNT + 1, MPI_DOUBLE, MPI_SUM, 0, run->comm);
    MPI_Reduce(&run->h.bytes_sent, &halo, 1, MPI_LONG_LONG, MPI_SUM, 0, run->comm);
    if (run->rank != 0)
        return;
    double n = (double)run->a.n, nnz = (double)run->a.nnz_global, it = run->res.iterations;
    double flops = it * (2 * nnz + (o->jacobi ? 13 : 10) * n);
    double mem = it * (12 * nnz + 20 * n + (o->jacobi ? 128 : 96) * n), solve = tmax[CG_T_COUNT];
    print_problem(o, run);
    printf("iterations: %d (%s)\n", run->res.iterations,
           run->res.converged   ? "converged"
           : run->res.breakdown ? "NOT converged: p.Ap <= 0, the matrix is not positive definite"
                                : "NOT converged");
    printf("true residual ||b-Ax||/||b||: %.3e\n", run->res.true_residual);
    printf("time [s]          max-rank      mean   share\n");
    printf("  solve         %10.6f %10.6f  100.0%%\n", solve, tsum[CG_T_COUNT] / run->np);
    for (int k = 0; k < CG_T_COUNT; k++)
        printf("  %-14s%10.6f %10.6f  %5.1f%%\n", names[k], tmax[k], tsum[k] / run->np,
               tsum[CG_T_COUNT] > 0 ? 100 * tsum[k] / tsum[CG_T_COUNT] : 0);
    printf("GFLOP/s: %.3f (%.4g flops)\n", solve > 0 ? flops / solve * 1e-9 : 0, flops);
    printf("bytes moved: halo %lld B per SpMV, %.4g B in the solve; memory (estimate) %.4g B, %.3f GB/s\n",
           halo, (double)halo * it, mem, solve > 0 ? mem / solve * 1e-9 : 0);
}

/* Rank 0 solves the same problem alone and compares iteration count and solution. */
static int check(const struct cg_options *o, struct cg_run *run)
{
    double *xall = NULL;
    int *counts = NULL, *displs = NULL, ok = 1;
    if (run->rank == 0) {
        xall = calloc((size_t)run->a.n, sizeof *xall);
        counts = calloc((size_t)run->np, sizeof *counts);
        displs = calloc((size_t)run->np, sizeof *displs);
        for (int p = 0; p < run->np; p++)
            cg_block(run->a.n, run->np, p, &displs[p], &counts[p]);
    }
    MPI_Gatherv(run->x, run->a.nloc, MPI_DOUBLE, xall, counts, displs, MPI_DOUBLE, 0, run->comm);
    if (run->rank == 0) {
        struct cg_run serial = {.nodes = 1, .np = 1};
        ok = !setup_and_solve(o, MPI_COMM_SELF, &serial);
        double diff = 0, norm = 0, err = 0;
        for (long i = 0; ok && i < run->a.n; i++) {
            diff += (xall[i] - serial.x[i]) * (xall[i] - serial.x[i]), norm += serial.x[i] * serial.x[i];
            err += (xall[i] - 1) * (xall[i] - 1);
        }
        diff = sqrt(diff / (norm > 0 ? norm : 1));
        err = sqrt(err / (double)run->a.n); /* b = A 1, so the exact solution is all ones */
        int dit = run->res.iterations - serial.res.iterations;
        printf("check: serial solve %d iterations, true residual %.3e; parallel %d; ||x-x_serial||/||x_serial|| "
               "%.3e; ||x-1||/||1|| %.3e\n",
               serial.res.iterations, serial.res.true_residual, run->res.iterations, diff, err);
        /* Sums in another order can move the last iteration by one; more would be a bug. */
        const char *why = !ok ? "serial solve failed" : !run->res.converged ? "not converged"
                        : !(run->res.true_residual < o->tol) ? "true residual not below the tolerance"
                        : abs(dit) > 1 ? "iteration counts differ by more than one"
                        : !(diff < 1e-6) ? "solution differs from the serial one"
                        : !(err < 1e-4) ? "solution is not the exact one (all ones)" : NULL;
        ok = why == NULL;
        if (ok)
            printf("OK skiff-cg check\n");
        else
            printf("FAIL skiff-cg check: %s\n", why);
        free_run(&serial);
        free(xall), free(counts), free(displs);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, run->comm);
    return !ok;
}

static int write_mtx(const struct cg_options *o)
{
    int rank, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        struct cg_matrix a = {0};
        cg_generate(o, MPI_COMM_SELF, &a);
        rc = cg_write_mtx(o->write_mtx, &a, o->write_general);
        if (!rc)
            printf("wrote %s: %ld rows, %ld nonzeros (%s)\n", o->write_mtx, a.n, a.nnz_global,
                   o->write_general ? "general" : "symmetric");
        cg_matrix_free(&a);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

int main(int argc, char **argv)
{
    struct cg_options o;
    struct cg_run run = {0};
    int rank, rc;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rc = cg_parse_options(argc, argv, &o, rank);
    if (rc) {
        /* Only rank 0 explains a bad option; the others must not exit (and so end the job) first. */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    if (o.write_mtx) {
        rc = write_mtx(&o);
        MPI_Finalize();
        return rc;
    }
    make_comm(&o, &run);
    MPI_Comm comm = run.comm;
    rc = setup_and_solve(&o, comm, &run);
    if (!rc) {
        report(&o, &run);
        rc = o.check ? check(&o, &run) : !run.res.converged;
    }
    free_run(&run);
    MPI_Comm_free(&comm);
    if (rc) {
        /* Every rank has the same rc (an allreduce or a bcast decided it) but only rank 0 reports, on a
         * buffered stdout: its report must be out before any rank's failure code ends the job. */
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rc;
}
