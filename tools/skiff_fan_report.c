/* skiff-fan's output: the data file and the summary on stdout. The LogP block is written by one function
 * to both, so the file's comment lines and the terminal always say the same. */
#include "skiff_fan.h"

#include <stdio.h>
#include <string.h>

#define US(x) ((x) * 1e6)

/* The library's version, first line only (some libraries return several). */
static const char *library(char *buf, int len)
{
    int n = 0;
    MPI_Get_library_version(buf, &n);
    buf[n < len ? n : len - 1] = '\0';
    buf[strcspn(buf, "\r\n")] = '\0';
    return buf;
}

static void header(FILE *f, const char *pre, const struct fan_opts *o, int np)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], sz[32];
    fprintf(f, "%sskiff-fan: fan-out/fan-in round trip of %s messages, %d repeats per P, np=%d\n", pre,
            m_bytes(o->size, sz, sizeof sz), o->repeats, np);
    fprintf(f, "%slibrary: %s\n", pre, library(lib, (int)sizeof lib));
}

/* One "name value unit (note)" line per parameter: the checker and humans read the same text. */
static void logp_block(FILE *f, const char *pre, const struct fan_logp *lp)
{
    fprintf(f, "%sLogP parameters (method: docs/skiff-fan.md; rtt, o_s, o_r, timer: mean of the middle half of the\n"
               "%ssamples; g, G: medians), times in us, G in ns/byte\n", pre, pre);
    fprintf(f, "%srtt %.4f us (ping-pong round trip)\n", pre, US(lp->rtt));
    fprintf(f, "%so_s %.4f us (MPI_Send to a posted receive)\n", pre, US(lp->o_s));
    fprintf(f, "%so_r %.4f us (MPI_Recv of an arrived message)\n", pre, US(lp->o_r));
    fprintf(f, "%so %.4f us ((o_s + o_r) / 2)\n", pre, US((lp->o_s + lp->o_r) / 2));
    fprintf(f, "%sg %.4f us (gap between small messages of a burst)\n", pre, US(lp->g));
    fprintf(f, "%sG %.5f ns/byte (%s)\n", pre, lp->G * 1e9,
            lp->G_fallback ? "slope not positive: time per byte of the largest size" : "slope of time vs size");
    fprintf(f, "%sL %.4f us (%s)\n", pre, US(lp->L),
            lp->L_clamped ? "rtt/2 - o_s - o_r was negative: clamped to 0" : "rtt/2 - o_s - o_r");
    fprintf(f, "%so_isend %.4f us (time per MPI_Isend in a burst, for comparison with o_s)\n", pre,
            US(lp->o_isend));
    fprintf(f, "%stimer %.4f us (one MPI_Wtime call, included in o_s and o_r)\n", pre, US(lp->timer));
}

static void barrier_line(FILE *f, const char *pre, const struct fan_logp *lp, int np)
{
    int k = fan_suggest_barrier_n(lp, np);
    fprintf(f, "%ssuggested SKIFF_BARRIER_N=%d (predicted dissemination barrier at P=%d:", pre, k, np);
    for (int n = 2; n <= 8; n++)
        fprintf(f, " n=%d %.3f", n, US(fan_model_barrier(lp, n, np)));
    fprintf(f, " us)\n");
}

int fan_write_data(const struct fan_opts *o, const struct fan_logp *lp, const struct fan_point *pts, int n, int np)
{
    FILE *f = fopen(o->out, "w");
    if (!f) {
        perror(o->out);
        return -1;
    }
    header(f, "# ", o, np);
    logp_block(f, "# ", lp);
    fprintf(f, "# model: RTT(P) = 4o + 2L + (P-1) max(g, o)\n");
    barrier_line(f, "# ", lp, np);
    fprintf(f, "# columns: P rtt_min rtt_avg rtt_median model (us)\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%d %.4f %.4f %.4f %.4f\n", pts[i].P, US(pts[i].rtt.min), US(pts[i].rtt.avg),
                US(pts[i].rtt.median), US(pts[i].model));
    if (fclose(f) != 0) {
        perror(o->out);
        return -1;
    }
    return 0;
}

void fan_print_summary(const struct fan_opts *o, const struct fan_logp *lp, const struct fan_point *pts, int n,
                       int np)
{
    if (o->quiet)
        return;
    header(stdout, "", o, np);
    logp_block(stdout, "  ", lp);
    printf("%4s %11s %11s %11s %11s %8s\n", "P", "min(us)", "avg(us)", "median(us)", "model(us)", "error");
    for (int i = 0; i < n; i++) {
        double med = pts[i].rtt.median, err = med > 0 ? (pts[i].model - med) / med : 0;
        printf("%4d %11.3f %11.3f %11.3f %11.3f %+7.1f%%\n", pts[i].P, US(pts[i].rtt.min), US(pts[i].rtt.avg),
               US(med), US(pts[i].model), 100 * err);
    }
    printf("(error = (model - median) / median; model: RTT(P) = 4o + 2L + (P-1) max(g, o))\n");
    barrier_line(stdout, "", lp, np);
    printf("data: %s\n", o->out);
}
