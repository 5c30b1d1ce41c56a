/* skiff-stream's report (rank 0), in STREAM's units: MB/s = 1e6 bytes/s, from the best (minimum) time
 * of runs 2..NTIMES. Two aggregates, because they answer different questions:
 *   sum of ranks  - every rank's own best rate, added up (what the node can deliver at its peak, but the
 *                   ranks' best runs need not coincide);
 *   slowest rank  - all ranks' bytes over the time of the slowest rank of one run, in the run where that
 *                   was smallest (what a bulk-synchronous code that waits for every rank sees). */
#include "stream.h"

#include <stdio.h>

struct kstats {
    double min, avg, max;
};

/* Rank r's times of kernel k, one per run. */
static const double *times_of(const double *all, int r, int k, int ntimes)
{
    return all + ((size_t)r * STREAM_KERNELS + (size_t)k) * (size_t)ntimes;
}

/* Over runs 2..ntimes: the first run pays for cold caches and TLBs and is not counted. */
static struct kstats stats(const double *t, int ntimes)
{
    struct kstats s = {t[1], 0, t[1]};
    for (int i = 1; i < ntimes; i++) {
        s.min = t[i] < s.min ? t[i] : s.min;
        s.max = t[i] > s.max ? t[i] : s.max;
        s.avg += t[i];
    }
    s.avg /= ntimes - 1;
    return s;
}

static double bytes_of(const struct stream_size *sz, int k)
{
    return (double)stream_bytes_per_elem[k] * (double)sz->n;
}

static double slowest_rank_best(const double *all, int np, int k, int ntimes)
{
    double best = 0;
    for (int run = 1; run < ntimes; run++) {
        double slowest = 0;
        for (int r = 0; r < np; r++) {
            double t = times_of(all, r, k, ntimes)[run];
            slowest = t > slowest ? t : slowest;
        }
        best = run == 1 || slowest < best ? slowest : best;
    }
    return best;
}

/* "Copy:" as STREAM prints it, padded so the numbers line up. */
static const char *label(int k, char *buf, size_t len)
{
    snprintf(buf, len, "%s:", stream_names[k]);
    return buf;
}

static double mib(double bytes)
{
    return bytes / (1024.0 * 1024.0);
}

static void header(const struct stream_opts *o, const struct stream_size *sz, int np)
{
    double arr = (double)sz->n * sizeof(double);
    printf("skiff-stream: STREAM (McCalpin's rules) on %d rank%s, each running the kernels on its own arrays at "
           "once\n", np, np == 1 ? "" : "s");
    printf("Array size = %zu doubles per array: %.1f MiB per array, %.1f MiB per rank, %.1f MiB in total\n", sz->n,
           mib(arr), mib(3 * arr), mib(3 * arr * np));
    printf("Last-level cache: %.1f MiB (%s); the default array is 4x that%s\n", mib((double)sz->llc), sz->llc_src,
           sz->capped ? ", reduced to fit half the available memory" : "");
    if (arr < 4.0 * (double)sz->llc)
        printf("note: arrays are smaller than 4x the last-level cache, so the rates include cache effects\n");
    printf("Each kernel ran %d times; the best (minimum) time of runs 2..%d counts\n", o->ntimes, o->ntimes);
    printf("Rates in MB/s = 1e6 bytes/s; bytes per element as STREAM counts them: Copy 16, Scale 16, Add 24, "
           "Triad 24\n");
}

/* STREAM's rule of thumb: a kernel should last at least 20 clock ticks to be timed meaningfully. */
static void granularity(const double *all, int np, int ntimes)
{
    double fastest = -1, tick = MPI_Wtick();
    for (int r = 0; r < np; r++)
        for (int k = 0; k < STREAM_KERNELS; k++) {
            double m = stats(times_of(all, r, k, ntimes), ntimes).min;
            fastest = fastest < 0 || m < fastest ? m : fastest;
        }
    printf("Clock granularity (MPI_Wtick) %.3g s; the fastest kernel took %.0f ticks%s\n", tick, fastest / tick,
           fastest < 20 * tick ? ": WARNING, fewer than 20, use a larger -n" : "");
}

static void per_rank(const struct stream_size *sz, const double *all, int np, int ntimes)
{
    printf("Per rank (each rank's own timing):\n");
    printf("rank Function    Best Rate MB/s  Avg time     Min time     Max time\n");
    for (int r = 0; r < np; r++)
        for (int k = 0; k < STREAM_KERNELS; k++) {
            struct kstats s = stats(times_of(all, r, k, ntimes), ntimes);
            char l[16];
            printf("%4d %-7s %16.1f %12.6f %12.6f %12.6f\n", r, label(k, l, sizeof l), 1e-6 * bytes_of(sz, k) / s.min,
                   s.avg, s.min, s.max);
        }
}

static void aggregate(const struct stream_size *sz, const double *all, int np, int ntimes)
{
    printf("Aggregate over %d rank%s:\n", np, np == 1 ? "" : "s");
    printf("Function    Sum-of-ranks MB/s  Slowest-rank MB/s\n");
    for (int k = 0; k < STREAM_KERNELS; k++) {
        double sum = 0;
        for (int r = 0; r < np; r++)
            sum += 1e-6 * bytes_of(sz, k) / stats(times_of(all, r, k, ntimes), ntimes).min;
        double slowest = 1e-6 * bytes_of(sz, k) * np / slowest_rank_best(all, np, k, ntimes);
        char l[16];
        printf("%-7s %21.1f %18.1f\n", label(k, l, sizeof l), sum, slowest);
    }
    printf("Sum-of-ranks: every rank's best rate, added up (the ranks' best runs need not coincide).\n");
    printf("Slowest-rank: all ranks' bytes / the slowest rank's time, in the run where that time was smallest.\n");
}

void stream_report(const struct stream_opts *o, const struct stream_size *sz, const double *all, int np)
{
    header(o, sz, np);
    granularity(all, np, o->ntimes);
    if (o->verbose)
        per_rank(sz, all, np, o->ntimes);
    aggregate(sz, all, np, o->ntimes);
}
