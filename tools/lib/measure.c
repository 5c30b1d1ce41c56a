#define _POSIX_C_SOURCE 200809L /* popen */
#include "measure.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

struct m_stats m_stats_of(double *x, int n)
{
    struct m_stats s = {0, 0, 0, 0, n};
    if (n <= 0)
        return s;
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    s.min = x[0];
    s.max = x[n - 1];
    s.avg = sum / n;
    s.median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    return s;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

int m_sizes(size_t start, size_t end, size_t pert, size_t *out, int max)
{
    size_t all[3 * 2 * 64 + 2];
    int n = 0;
    all[n++] = end;
    if (start == 0)
        all[n++] = 0;
    /* Bases: 1, 2, 3, 4, 6, 8, 12, 16, ... (2^k and 3 * 2^(k-1)). */
    for (size_t p = 1; p <= end && p > 0; p <<= 1) {
        size_t bases[2] = {p, p + p / 2};
        for (int b = 0; b < (p > 1 ? 2 : 1); b++) {
            all[n++] = bases[b];
            if (pert && bases[b] > pert)
                all[n++] = bases[b] - pert;
            if (pert)
                all[n++] = bases[b] + pert;
        }
    }
    qsort(all, (size_t)n, sizeof *all, cmp_size);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (all[i] < start || all[i] > end || (k > 0 && all[i] == all[k - 1]))
            continue;
        all[k++] = all[i];
    }
    for (int i = 0; out && i < k && i < max; i++)
        out[i] = all[i];
    return k;
}

long m_repeats_for(double seconds, long done, double target, long lo, long hi)
{
    double per = done > 0 && seconds > 0 ? seconds / (double)done : 0;
    double want = per > 0 ? target / per : (double)hi;
    long r = want > (double)hi ? hi : (long)want;
    return r < lo ? lo : r;
}

int m_plot(const char *png, const char *title, const char *xlabel, const char *ylabel, const char *const *files,
           const char *const *labels, int nfiles, int xcol, int ycol, int logx, int logy)
{
    FILE *g = popen("gnuplot 2>&1", "w");
    if (!g) {
        fprintf(stderr, "plot: cannot run gnuplot (apt-get install gnuplot-nox)\n");
        return -1;
    }
    fprintf(g, "set terminal pngcairo size 1000,650 noenhanced\nset output '%s'\n", png);
    fprintf(g, "set title '%s'\nset xlabel '%s'\nset ylabel '%s'\nset grid\nset key left top\n", title, xlabel, ylabel);
    if (logx)
        fprintf(g, "set logscale x 2\nset format x '%%.0s%%cB'\n");
    if (logy)
        fprintf(g, "set logscale y\n");
    fprintf(g, "plot ");
    for (int i = 0; i < nfiles; i++)
        fprintf(g, "%s'%s' using %d:%d with linespoints title '%s'", i ? ", " : "", files[i], xcol, ycol,
                labels && labels[i] ? labels[i] : files[i]);
    fprintf(g, "\n");
    int rc = pclose(g);
    if (rc != 0 || access(png, R_OK) != 0) {
        fprintf(stderr, "plot: gnuplot failed to write %s (exit %d)\n", png, rc);
        return -1;
    }
    return 0;
}

const char *m_bytes(size_t n, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (v == (double)(long)v)
        snprintf(buf, len, "%ld %s", (long)v, unit[u]);
    else
        snprintf(buf, len, "%.1f %s", v, unit[u]);
    return buf;
}
