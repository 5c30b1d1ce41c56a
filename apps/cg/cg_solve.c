/* CG and Jacobi-preconditioned CG, timing each kind of work separately. */
#include "cg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cg_spmv(const struct cg_matrix *a, const double *x, double *y)
{
    for (int i = 0; i < a->nloc; i++) {
        double s = 0;
        for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            s += a->val[k] * x[a->col[k]];
        y[i] = s;
    }
}

/* Local sums of u.v (and of u.w when w is given), added up over the ranks in one Allreduce. */
static void dots(const double *u, const double *v, const double *w, int n, MPI_Comm comm, double out[2])
{
    double loc[2] = {0, 0};
    for (int i = 0; i < n; i++)
        loc[0] += u[i] * v[i];
    if (w)
        for (int i = 0; i < n; i++)
            loc[1] += u[i] * w[i];
    MPI_Allreduce(loc, out, w ? 2 : 1, MPI_DOUBLE, MPI_SUM, comm);
}

static double tick(double *acc, double since)
{
    double now = MPI_Wtime();
    *acc += now - since;
    return now;
}

/* y = A x for any x of nloc entries: copied into the halo's vector, exchanged, multiplied. */
static void apply(struct cg_matrix *a, struct cg_halo *h, const double *x, double *y, double *t)
{
    double s = MPI_Wtime();
    if (x != h->x)
        memcpy(h->x, x, (size_t)a->nloc * sizeof *x);
    s = tick(&t[CG_T_UPDATE], s);
    cg_halo_exchange(h);
    s = tick(&t[CG_T_HALO], s);
    cg_spmv(a, h->x, y);
    tick(&t[CG_T_SPMV], s);
}

static int inverse_diagonal(const struct cg_matrix *a, double *dinv)
{
    int bad = 0;
    for (int i = 0; i < a->nloc; i++) {
        double d = 0;
        for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            if (a->col[k] == i)
                d += a->val[k];
        bad |= d == 0;
        dinv[i] = d != 0 ? 1 / d : 0;
    }
    return bad;
}

/* The loop. p lives in the halo's vector, so the SpMV of every iteration needs no copy. */
static void iterate(struct cg_matrix *a, struct cg_halo *h, const struct cg_options *o, const double *dinv,
                    double bnorm, double *x, double *r, double *z, double *q, struct cg_result *res)
{
    int n = a->nloc;
    double *p = h->x, *t = res->t, d[2], s = MPI_Wtime();
    for (int i = 0; i < n; i++)
        z[i] = dinv ? dinv[i] * r[i] : r[i], p[i] = z[i];
    s = tick(&t[CG_T_UPDATE], s);
    dots(r, r, dinv ? z : NULL, n, h->comm, d);
    tick(&t[CG_T_REDUCE], s);
    double rz = dinv ? d[1] : d[0];
    res->converged = sqrt(d[0]) / bnorm < o->tol;
    for (res->iterations = 0; !res->converged && res->iterations < o->maxit;) {
        apply(a, h, p, q, t);
        s = MPI_Wtime();
        dots(p, q, NULL, n, h->comm, d);
        s = tick(&t[CG_T_REDUCE], s);
        if (!(d[0] > 0)) { /* also NaN: CG cannot go on, and more iterations would only spread it */
            res->breakdown = 1;
            break;
        }
        double alpha = rz / d[0];
        for (int i = 0; i < n; i++)
            x[i] += alpha * p[i], r[i] -= alpha * q[i];
        if (dinv)
            for (int i = 0; i < n; i++)
                z[i] = dinv[i] * r[i];
        s = tick(&t[CG_T_UPDATE], s);
        dots(r, r, dinv ? z : NULL, n, h->comm, d); /* r.r for the test, r.z for beta: one Allreduce */
        s = tick(&t[CG_T_REDUCE], s);
        res->iterations++;
        res->converged = sqrt(d[0]) / bnorm < o->tol;
        double rz_new = dinv ? d[1] : d[0], beta = rz_new / rz;
        rz = rz_new;
        const double *zz = dinv ? z : r; /* unpreconditioned, z is r */
        for (int i = 0; i < n; i++)
            p[i] = zz[i] + beta * p[i];
        tick(&t[CG_T_UPDATE], s);
    }
}

/* Solves A x = b from x = 0; returns nonzero (every rank) when Jacobi meets a zero diagonal. */
int cg_solve(struct cg_matrix *a, struct cg_halo *h, const struct cg_options *o, const double *b, double *x,
             struct cg_result *res)
{
    int n = a->nloc, bad = 0, anybad = 0;
    size_t len = (size_t)n + 1;
    double *r = calloc(len, sizeof *r), *z = calloc(len, sizeof *z), *q = calloc(len, sizeof *q);
    double *dinv = o->jacobi ? calloc(len, sizeof *dinv) : NULL, d[2];
    if (!r || !z || !q || (o->jacobi && !dinv)) {
        fprintf(stderr, "skiff-cg: out of memory for %d-row vectors\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(res, 0, sizeof *res);
    if (dinv)
        bad = inverse_diagonal(a, dinv);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, h->comm);
    if (!anybad) {
        memset(x, 0, (size_t)n * sizeof *x);
        memcpy(r, b, (size_t)n * sizeof *b);
        dots(b, b, NULL, n, h->comm, d);
        double bnorm = d[0] > 0 ? sqrt(d[0]) : 1;
        MPI_Barrier(h->comm);
        double start = MPI_Wtime();
        iterate(a, h, o, dinv, bnorm, x, r, z, q, res);
        res->t_solve = MPI_Wtime() - start;
        double unused[CG_T_COUNT] = {0};
        apply(a, h, x, q, unused); /* the true residual, not the recurrence's */
        for (int i = 0; i < n; i++)
            r[i] = b[i] - q[i];
        dots(r, r, NULL, n, h->comm, d);
        res->true_residual = sqrt(d[0]) / bnorm;
    }
    free(r), free(z), free(q), free(dinv);
    return anybad;
}
