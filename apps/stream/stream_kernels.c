/* STREAM's arrays and its four kernels, exactly as McCalpin's stream.c defines them:
 *   Copy  c = a         Scale b = s*c         Add  c = a + b         Triad a = b + s*c
 * in that order, so each run's output feeds the next and the final values can be checked. */
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>

const char *const stream_names[STREAM_KERNELS] = {"Copy", "Scale", "Add", "Triad"};
const int stream_bytes_per_elem[STREAM_KERNELS] = {2 * sizeof(double), 2 * sizeof(double), 3 * sizeof(double),
                                                   3 * sizeof(double)};

/* Page-aligned, so every rank's arrays start the same way relative to pages and cache lines. */
static double *array(size_t n)
{
    size_t align = 4096, bytes = (n * sizeof(double) + align - 1) / align * align;
    double *p = aligned_alloc(align, bytes);
    if (!p) {
        fprintf(stderr, "skiff-stream: cannot allocate %zu bytes (try a smaller -n)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

void stream_alloc(struct stream_arrays *s, size_t n)
{
    s->n = n;
    s->a = array(n);
    s->b = array(n);
    s->c = array(n);
    /* Written here, by the rank that will use them: the pages land in this rank's memory. */
    for (size_t j = 0; j < n; j++) {
        s->a[j] = 1.0;
        s->b[j] = 2.0;
        s->c[j] = 0.0;
    }
    for (size_t j = 0; j < n; j++)
        s->a[j] = 2.0 * s->a[j];
}

void stream_free(struct stream_arrays *s)
{
    free(s->a);
    free(s->b);
    free(s->c);
}

static void copy(double *restrict c, const double *restrict a, size_t n)
{
    for (size_t j = 0; j < n; j++)
        c[j] = a[j];
}

static void scale(double *restrict b, const double *restrict c, size_t n)
{
    for (size_t j = 0; j < n; j++)
        b[j] = STREAM_SCALAR * c[j];
}

static void add(double *restrict c, const double *restrict a, const double *restrict b, size_t n)
{
    for (size_t j = 0; j < n; j++)
        c[j] = a[j] + b[j];
}

static void triad(double *restrict a, const double *restrict b, const double *restrict c, size_t n)
{
    for (size_t j = 0; j < n; j++)
        a[j] = b[j] + STREAM_SCALAR * c[j];
}

static void kernel(struct stream_arrays *s, int k)
{
    switch (k) {
    case 0:
        copy(s->c, s->a, s->n);
        break;
    case 1:
        scale(s->b, s->c, s->n);
        break;
    case 2:
        add(s->c, s->a, s->b, s->n);
        break;
    default:
        triad(s->a, s->b, s->c, s->n);
        break;
    }
}

void stream_run(struct stream_arrays *s, int ntimes, double *times, MPI_Comm comm)
{
    for (int run = 0; run < ntimes; run++) {
        for (int k = 0; k < STREAM_KERNELS; k++) {
            /* All ranks start each kernel together, so they compete for memory as a parallel code would. */
            MPI_Barrier(comm);
            double t0 = MPI_Wtime();
            kernel(s, k);
            times[k * ntimes + run] = MPI_Wtime() - t0;
        }
    }
}
