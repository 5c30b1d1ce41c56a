/* The LogP model's predictions from measured parameters: the fan round trip and the n-way dissemination
 * barrier, and the least-squares slope behind G. Pure arithmetic, no MPI. */
#include "skiff_fan.h"

static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* The mean overhead: the model charges o at both ends of every message, once for each side. */
static double mean_o(const struct fan_logp *lp)
{
    return (lp->o_s + lp->o_r) / 2;
}

/* 4o + 2L is one round trip (two overheads at each end, two latencies); each of the P-1 peers adds one
 * message slot at rank 0, which can start messages no faster than max(g, o) apart. */
double fan_model_rtt(const struct fan_logp *lp, int P)
{
    double o = mean_o(lp);
    return 4 * o + 2 * lp->L + (P - 1) * max2(lp->g, o);
}

/* Rounds of the dissemination barrier: the smallest r with n^r >= P. Integer arithmetic, so exact powers
 * do not round up through log(). */
static int rounds(int n, int P)
{
    int r = 0;
    for (long reach = 1; reach < P; reach *= n)
        r++;
    return r;
}

/* Each round, a rank starts n-1 sends, max(g, o) apart; the last one arrives L later and its receiver
 * spends o taking it: o + (n-1) max(g, o) + L per round (docs/skiff-fan.md). */
double fan_model_barrier(const struct fan_logp *lp, int n, int P)
{
    double o = mean_o(lp);
    return rounds(n, P) * (o + (n - 1) * max2(lp->g, o) + lp->L);
}

int fan_suggest_barrier_n(const struct fan_logp *lp, int P)
{
    int best = 2;
    for (int n = 3; n <= 8; n++)
        if (fan_model_barrier(lp, n, P) < fan_model_barrier(lp, best, P))
            best = n;
    return best;
}

double fan_slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double d = n * sxx - sx * sx;
    return d > 0 ? (n * sxy - sx * sy) / d : 0;
}
