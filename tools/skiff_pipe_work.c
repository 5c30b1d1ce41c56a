/* --workload: a known amount of computation between a transfer's nonblocking start and its wait.
 * The work is daxpy (y += a x) over two arrays of 512 doubles (8 KiB, in the L1 cache, so it competes
 * for the core but not for the memory bandwidth the transfer needs), repeated a calibrated number of
 * passes: no sleeping, no system calls. Each rank calibrates itself once, before anything is timed. */
#include "skiff_pipe.h"

#include "walltime.h"

enum { WORK_N = 512 };
static const double CALIBRATE_SECONDS = 0.02;

static double x[WORK_N], y[WORK_N];
static volatile double sink; /* one read of the result, so no pass can be optimised away */

static void passes(long n)
{
    const double a = 1e-9;
    for (long p = 0; p < n; p++)
        for (int i = 0; i < WORK_N; i++)
            y[i] += a * x[i];
    sink = y[WORK_N - 1];
}

void pipe_work_do(const struct pipe_work *w)
{
    passes(w->passes);
}

void pipe_work_calibrate(struct pipe_work *w, double usec)
{
    for (int i = 0; i < WORK_N; i++) {
        x[i] = 1.0 + i;
        y[i] = 0.5 * i;
    }
    passes(64); /* warm: caches, clock speed */
    long n = 16;
    double s;
    for (;;) {
        double t0 = m_walltime();
        passes(n);
        s = m_walltime() - t0;
        if (s >= CALIBRATE_SECONDS || n > (1l << 40))
            break;
        n *= 2;
    }
    double per_us = (double)n / (s * 1e6);
    w->usec = usec;
    w->passes = (long)(usec * per_us + 0.5);
    if (w->passes < 1)
        w->passes = 1;
    w->pass_ns = 1e3 / per_us;
}

void pipe_work_match(struct pipe_work *w, double seconds)
{
    w->passes = (long)(seconds * 1e9 / w->pass_ns + 0.5);
    if (w->passes < 1)
        w->passes = 1;
}

void pipe_work_observed(struct pipe_work *w, double seconds, long long runs)
{
    double passes = (double)w->passes * (double)runs;
    if (w->automatic && passes >= 64 && seconds > 0)
        w->pass_ns = seconds * 1e9 / passes;
}
