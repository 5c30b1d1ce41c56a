/* skiff-replay TRACE --loggp L,o,g,G[,P] | --params FILE ... [--sweep L=a..b | G=a..b]: a trace that
 * SKIFF_TRACE=1 wrote, replayed under a LogGP model with parameters for pairs within a node and between
 * nodes; predicts the run time, or tabulates and charts it against latency or bandwidth (docs/trace.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "skiff_replay.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: skiff-replay TRACE [--loggp L,o,g,G[,P]] [--intra L,o,g,G] [--inter L,o,g,G]\n"
            "                          [--params FILE | --params intra=FILE --params inter=FILE] [--ppn K]\n"
            "                          [--sweep L=A..B | --sweep G=A..B] [--points N] [-o PREFIX] [-q]\n"
            "  TRACE      the files' prefix (skiff-trace.<job>) or its first file (<prefix>.0)\n"
            "  L,o,g      times: a number with s, ms, us (default) or ns\n"
            "  G          per byte: a number with ns (default), us or s; or a bandwidth: MB/s, GB/s, Mbit, Gbit\n"
            "  --loggp    both classes of pairs; --intra/--inter one class (within a node / between nodes)\n"
            "  --params   skiff-fan's data file (its L, o, g, G lines); intra= or inter= for one class\n"
            "  --ppn K    replay with K consecutive ranks per node instead of the trace's placement\n"
            "  --sweep    predicted time for N points from A to B (log-spaced), varying the parameter of\n"
            "             one class with the other fixed: PREFIX.dat and PREFIX.gp (PREFIX.png if gnuplot runs)\n");
}

/* A time in seconds: "1.5us", "200ns", "2e-6s"; unit-less numbers are microseconds. */
static int parse_time(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v >= 0))
        return -1;
    if (!*end || !strcasecmp(end, "us"))
        *out = v * 1e-6;
    else if (!strcasecmp(end, "ns"))
        *out = v * 1e-9;
    else if (!strcasecmp(end, "ms"))
        *out = v * 1e-3;
    else if (!strcasecmp(end, "s"))
        *out = v;
    else
        return -1;
    return 0;
}

/* G in seconds per byte: "0.1ns" (per byte; unit-less: ns), or a bandwidth "1GB/s", "400Mbit". */
static int parse_gap(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v >= 0))
        return -1;
    if (!*end || !strcasecmp(end, "ns"))
        *out = v * 1e-9;
    else if (!strcasecmp(end, "us"))
        *out = v * 1e-6;
    else if (!strcasecmp(end, "s"))
        *out = v;
    else if (v > 0 && (!strcasecmp(end, "MB/s") || !strcasecmp(end, "MBps")))
        *out = 1.0 / (v * 1e6);
    else if (v > 0 && (!strcasecmp(end, "GB/s") || !strcasecmp(end, "GBps")))
        *out = 1.0 / (v * 1e9);
    else if (v > 0 && (!strcasecmp(end, "Mbit") || !strcasecmp(end, "Mbit/s")))
        *out = 8.0 / (v * 1e6);
    else if (v > 0 && (!strcasecmp(end, "Gbit") || !strcasecmp(end, "Gbit/s")))
        *out = 8.0 / (v * 1e9);
    else
        return -1;
    return 0;
}

static int parse_loggp(const char *arg, struct rp_loggp *p, int *P)
{
    char buf[256], *save, *f[6];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *w = strtok_r(buf, ",", &save); w && n < 6; w = strtok_r(NULL, ",", &save))
        f[n++] = w;
    if (n < 4 || n > 5 || parse_time(f[0], &p->L) || parse_time(f[1], &p->o) || parse_time(f[2], &p->g) ||
        parse_gap(f[3], &p->G)) {
        fprintf(stderr, "skiff-replay: '%s': expected L,o,g,G[,P] (e.g. 5us,1us,0.5us,0.1ns)\n", arg);
        return -1;
    }
    if (n == 5)
        *P = atoi(f[4]);
    return 0;
}

/* skiff-fan's data file: "# L 1.2345 us (...)" lines for L, o, g and "# G 0.123 ns/byte". */
static int parse_params(const char *path, struct rp_loggp *p)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "skiff-replay: cannot read %s\n", path);
        return -1;
    }
    char line[512], name[32], unit[32];
    double v;
    int have = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "# %31s %lf %31s", name, &v, unit) != 3)
            continue;
        double scale = !strcmp(unit, "us") ? 1e-6 : !strcmp(unit, "ns/byte") ? 1e-9 : 0;
        if (!scale)
            continue;
        if (!strcmp(name, "L"))
            p->L = v * scale, have |= 1;
        else if (!strcmp(name, "o"))
            p->o = v * scale, have |= 2;
        else if (!strcmp(name, "g"))
            p->g = v * scale, have |= 4;
        else if (!strcmp(name, "G"))
            p->G = v * scale, have |= 8;
    }
    fclose(f);
    if (have != 15) {
        fprintf(stderr, "skiff-replay: %s: no L, o, g and G lines (skiff-fan's -o file has them)\n", path);
        return -1;
    }
    return 0;
}

static void show(const char *what, const struct rp_loggp *p)
{
    printf("  %-6s L %.3f us  o %.3f us  g %.3f us  G %.4f ns/B (%.1f MB/s)\n", what, p->L * 1e6, p->o * 1e6,
           p->g * 1e6, p->G * 1e9, p->G > 0 ? 1e-6 / p->G : INFINITY);
}

struct sweep {
    char what;   /* 'L' or 'G' */
    double lo, hi;
    int points;
};

static int parse_sweep(const char *arg, struct sweep *sw)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    char *dots = strstr(buf, "..");
    if ((buf[0] != 'L' && buf[0] != 'G') || buf[1] != '=' || !dots)
        goto bad;
    *dots = 0;
    sw->what = buf[0];
    int (*parse)(const char *, double *) = sw->what == 'L' ? parse_time : parse_gap;
    if (parse(buf + 2, &sw->lo) || parse(dots + 2, &sw->hi) || !(sw->lo > 0) || !(sw->hi > 0))
        goto bad;
    return 0;
bad:
    fprintf(stderr, "skiff-replay: --sweep '%s': expected L=A..B or G=A..B (e.g. L=0.5us..50us, G=100MB/s..10GB/s)\n",
            arg);
    return -1;
}

static int do_sweep(const struct rp_trace *t, const struct rp_loggp base[2], const struct sweep *sw,
                    const char *prefix, int quiet)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.dat", prefix);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "skiff-replay: cannot write %s\n", path);
        return -1;
    }
    int lat = sw->what == 'L';
    fprintf(f, "# skiff-replay sweep of %s; the other parameters as given; predicted run time in seconds\n",
            lat ? "L (latency)" : "G (gap per byte)");
    fprintf(f, "# recorded run time %.6f s\n", t->recorded);
    fprintf(f, "# columns: %s intra_varied inter_varied\n", lat ? "L_us" : "G_ns_per_byte MB_per_s");
    if (!quiet)
        printf("%12s %12s %16s %16s\n", lat ? "L (us)" : "G (ns/B)", lat ? "" : "MB/s", "intra varied (s)",
               "inter varied (s)");
    for (int i = 0; i < sw->points; i++) {
        double v = sw->points == 1 ? sw->lo : sw->lo * pow(sw->hi / sw->lo, (double)i / (sw->points - 1));
        double pred[2];
        for (int cls = 0; cls < 2; cls++) {
            struct rp_loggp p[2] = {base[0], base[1]};
            if (lat)
                p[cls].L = v;
            else
                p[cls].G = v;
            struct rp_result res;
            rp_replay(t, p, &res);
            pred[cls] = res.time;
        }
        if (lat)
            fprintf(f, "%.6g %.9f %.9f\n", v * 1e6, pred[0], pred[1]);
        else
            fprintf(f, "%.6g %.6g %.9f %.9f\n", v * 1e9, 1e-6 / v, pred[0], pred[1]);
        if (!quiet && lat)
            printf("%12.4g %12s %16.6f %16.6f\n", v * 1e6, "", pred[0], pred[1]);
        else if (!quiet)
            printf("%12.4g %12.4g %16.6f %16.6f\n", v * 1e9, 1e-6 / v, pred[0], pred[1]);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s.gp", prefix);
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "skiff-replay: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "set terminal pngcairo size 900,600 noenhanced\nset output '%s.png'\n", prefix);
    fprintf(f, "set title 'skiff-replay: predicted run time against %s'\n", lat ? "latency" : "bandwidth");
    fprintf(f, "set logscale x\nset grid\nset key top left\n");
    fprintf(f, "set xlabel '%s'\nset ylabel 'predicted run time (s)'\n",
            lat ? "L (us)" : "bandwidth 1/G (MB/s)");
    int x = lat ? 1 : 2, c0 = lat ? 2 : 3;
    fprintf(f,
            "plot '%s.dat' using %d:%d with linespoints title 'within a node varied', \\\n"
            "     '%s.dat' using %d:%d with linespoints title 'between nodes varied', \\\n"
            "     %.9f with lines dashtype 2 title 'recorded where traced'\n",
            prefix, x, c0, prefix, x, c0 + 1, t->recorded);
    fclose(f);
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "command -v gnuplot >/dev/null 2>&1 && gnuplot '%s.gp' 2>/dev/null", prefix);
    int rc = system(cmd);
    if (!quiet)
        printf("table %s.dat, gnuplot script %s.gp%s\n", prefix, prefix,
               rc == 0 ? ", chart .png beside them" : " (no gnuplot: no chart drawn)");
    return 0;
}

int main(int argc, char **argv)
{
    const char *trace = NULL, *out = "replay";
    struct rp_loggp p[2];
    int have[2] = {0, 0}, P = 0, ppn = 0, quiet = 0, sweeping = 0;
    struct sweep sw = {0, 0, 0, 10};
    memset(p, 0, sizeof p);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int cls = -1;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-q")) {
            quiet = 1;
        } else if (a[0] == '-' && !v) {
            fprintf(stderr, "skiff-replay: %s needs a value\n", a);
            return 2;
        } else if (!strcmp(a, "--loggp") || (cls = !strcmp(a, "--intra") ? 0 : !strcmp(a, "--inter") ? 1 : -1) >= 0) {
            struct rp_loggp q;
            if (parse_loggp(v, &q, &P))
                return 2;
            for (int c = 0; c < 2; c++)
                if (cls < 0 || cls == c)
                    p[c] = q, have[c] = 1;
            i++;
        } else if (!strcmp(a, "--params")) {
            const char *file = v;
            if (!strncmp(v, "intra=", 6))
                cls = 0, file = v + 6;
            else if (!strncmp(v, "inter=", 6))
                cls = 1, file = v + 6;
            struct rp_loggp q;
            if (parse_params(file, &q))
                return 2;
            for (int c = 0; c < 2; c++)
                if (cls < 0 || cls == c)
                    p[c] = q, have[c] = 1;
            i++;
        } else if (!strcmp(a, "--ppn")) {
            ppn = atoi(v);
            if (ppn < 1) {
                fprintf(stderr, "skiff-replay: --ppn %s: expected a positive count\n", v);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--sweep")) {
            if (parse_sweep(v, &sw))
                return 2;
            sweeping = 1;
            i++;
        } else if (!strcmp(a, "--points")) {
            sw.points = atoi(v);
            if (sw.points < 1 || sw.points > 1000) {
                fprintf(stderr, "skiff-replay: --points %s: expected 1 ... 1000\n", v);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "-o")) {
            out = v;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, "skiff-replay: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (!trace) {
            trace = a;
        } else {
            fprintf(stderr, "skiff-replay: one trace at a time (%s, then %s)\n", trace, a);
            return 2;
        }
    }
    if (!trace || !have[0] || !have[1]) {
        fprintf(stderr, "skiff-replay: %s\n",
                !trace ? "no trace named" : "parameters for both classes of pairs are needed (--loggp, --params)");
        usage(stderr);
        return 2;
    }
    struct rp_trace t;
    if (rp_load(trace, &t))
        return 1;
    if (P && P != t.size)
        fprintf(stderr, "skiff-replay: P=%d given, the trace has %d ranks: the trace's count is used\n", P, t.size);
    if (ppn)
        rp_set_ppn(&t, ppn);
    int nodes = 0;
    for (int r = 0; r < t.size; r++) {
        int seen = 0;
        for (int q = 0; q < r; q++)
            seen |= t.rank[q].node == t.rank[r].node;
        nodes += !seen;
    }
    size_t recs = 0;
    for (int r = 0; r < t.size; r++)
        recs += t.rank[r].n;
    if (!quiet) {
        printf("trace %s: %d ranks on %d node(s)%s, %zu records%s\n", trace, t.size, nodes, ppn ? " (--ppn)" : "",
               recs, t.truncated ? ", TRUNCATED (the prediction covers what was recorded)" : "");
        show("intra", &p[0]);
        show("inter", &p[1]);
    }
    int rc = 0;
    if (sweeping) {
        rc = do_sweep(&t, p, &sw, out, quiet);
    } else {
        struct rp_result res;
        rp_replay(&t, p, &res);
        printf("predicted %.9f s  recorded %.9f s  (%+.1f%%)\n", res.time, t.recorded,
               t.recorded > 0 ? 100.0 * (res.time - t.recorded) / t.recorded : 0.0);
        if (!quiet) {
            printf("  last rank to finish: %d; computation and local calls (busiest rank) %.6f s\n", res.last_rank,
                   res.compute);
            printf("  messages within nodes %zu (%zu bytes), between nodes %zu (%zu bytes)\n", res.msgs[0],
                   res.bytes[0], res.msgs[1], res.bytes[1]);
        }
        if (res.blocked) {
            printf("  %d rank(s) could not finish: %s\n", res.blocked, res.why);
            rc = t.truncated ? 0 : 3;
        }
    }
    rp_free(&t);
    return rc;
}
