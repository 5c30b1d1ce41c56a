/* STREAM's validation (checkSTREAMresults): replay the kernels on one scalar per array, then compare
 * the average absolute error of every array against it. A kernel the compiler dropped, or a run that was
 * cut short, leaves values that differ by far more than rounding. */
#include "stream.h"

#include <math.h>
#include <stdio.h>

/* STREAM's tolerance for 8-byte doubles. */
#define STREAM_EPSILON 1e-13

struct expected {
    double a, b, c;
};

static struct expected replay(int ntimes)
{
    struct expected e = {1.0, 2.0, 0.0};
    e.a = 2.0 * e.a; /* the pass stream_alloc makes after initialising */
    for (int k = 0; k < ntimes; k++) {
        e.c = e.a;
        e.b = STREAM_SCALAR * e.c;
        e.c = e.a + e.b;
        e.a = e.b + STREAM_SCALAR * e.c;
    }
    return e;
}

static double avg_error(const double *x, size_t n, double want)
{
    double sum = 0;
    for (size_t j = 0; j < n; j++)
        sum += fabs(x[j] - want);
    return sum / (double)n;
}

/* 1 when the array's relative average error is out of tolerance (said on stderr). */
static int check(const char *name, const double *x, size_t n, double want, int rank)
{
    double err = avg_error(x, n, want) / fabs(want);
    if (!(err <= STREAM_EPSILON)) {
        fprintf(stderr, "skiff-stream: rank %d: Failed Validation on array %s[]: relative average error %e "
                        "(expected value %e, tolerance %e)\n",
                rank, name, err, want, STREAM_EPSILON);
        return 1;
    }
    return 0;
}

int stream_validate(const struct stream_arrays *s, int ntimes, int rank)
{
    struct expected e = replay(ntimes);
    int bad = check("a", s->a, s->n, e.a, rank);
    bad |= check("b", s->b, s->n, e.b, rank);
    bad |= check("c", s->c, s->n, e.c, rank);
    return bad;
}
