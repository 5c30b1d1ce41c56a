/* The profile report, written by rank 0 at MPI_Finalize from every rank's records: time per rank and
 * the imbalance between ranks, a table per call, the busiest calls rank by rank, message sizes; and a
 * few lines on stderr. docs/profiler.md shows a report and explains each column. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/profile_table.h"
#include "util/log.h"

#define TOP_CALLS 5 /* calls broken down per rank, and named in the summary (at most 3 there) */

/* The job's numbers, folded over ranks. */
struct totals {
    const struct skiff_prof_job *job;
    struct skiff_prof_stat all[SKIFF_PC_COUNT]; /* per call, summed over ranks */
    int order[SKIFF_PC_COUNT], nused;           /* the calls made, most time first */
    double *mpi;                                /* per rank: seconds inside MPI */
    uint64_t *calls;                            /* per rank: calls recorded */
    double mpi_sum;
    double call_sum;                            /* the calls' own times, all ranks (threads overlap) */
};

static const struct skiff_prof_stat *rank_stat(const struct skiff_prof_job *job, int r, int id)
{
    const struct skiff_prof_rec *rec = job->recs + job->first[r];
    for (uint64_t i = 0; i < job->head[r].nrecs; i++)
        if (rec[i].id == (uint64_t)id)
            return &rec[i].s;
    return NULL;
}

static const struct skiff_prof_stat *order_base;

static int by_time(const void *a, const void *b)
{
    const struct skiff_prof_stat *x = &order_base[*(const int *)a], *y = &order_base[*(const int *)b];
    if (x->time != y->time)
        return x->time > y->time ? -1 : 1;
    if (x->calls != y->calls)
        return x->calls > y->calls ? -1 : 1;
    return *(const int *)a - *(const int *)b;
}

static int fold(const struct skiff_prof_job *job, struct totals *t)
{
    memset(t, 0, sizeof *t);
    t->job = job;
    t->mpi = calloc((size_t)job->nranks, sizeof *t->mpi);
    t->calls = calloc((size_t)job->nranks, sizeof *t->calls);
    if (!t->mpi || !t->calls)
        return -1;
    for (int r = 0; r < job->nranks; r++) {
        const struct skiff_prof_rec *rec = job->recs + job->first[r];
        for (uint64_t i = 0; i < job->head[r].nrecs; i++) {
            if (rec[i].id >= SKIFF_PC_COUNT)
                continue;
            skiff_prof_stat_add(&t->all[rec[i].id], &rec[i].s);
            t->call_sum += rec[i].s.time;
            t->calls[r] += rec[i].s.calls;
        }
        /* With threads in MPI at once the calls' times add up to more than the rank's time in MPI,
         * which is the wall time at least one thread was inside a call. */
        t->mpi[r] = job->head[r].mpi;
        t->mpi_sum += t->mpi[r];
    }
    for (int id = 0; id < SKIFF_PC_COUNT; id++)
        if (t->all[id].calls)
            t->order[t->nused++] = id;
    order_base = t->all; /* qsort has no context argument in C11 */
    qsort(t->order, (size_t)t->nused, sizeof *t->order, by_time);
    return 0;
}

static double pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* ---- sections ---------------------------------------------------------------------------------- */

static void write_header(FILE *f, const struct totals *t, const char *jobname)
{
    fprintf(f, "skiff profile report (SKIFF_PROFILE=1; docs/profiler.md explains every column)\n");
    fprintf(f, "job %s, %d rank%s\n", jobname, t->job->nranks, t->job->nranks == 1 ? "" : "s");
    fprintf(f, "wall time: from MPI_Init to the start of MPI_Finalize, on each rank; mpi: time at least one "
               "thread was inside a recorded MPI call; compute: wall - mpi\n");
    fprintf(f, "recorded: every MPI call but %s; a call made inside another (user ops, callbacks) "
               "counts as part of it; MPI_Finalize is counted, not timed\n",
            SKIFF_PROFILE_UNRECORDED);
    fprintf(f, "bytes: count x type size as passed by the caller; MPI_Recv and MPI_Sendrecv*: the bytes "
               "received; MPI_Irecv: the size posted\n");
}

static void write_ranks(FILE *f, const struct totals *t)
{
    const struct skiff_prof_job *job = t->job;
    double lo = 100.0, hi = 0.0, sum = 0.0, mpi_max = 0.0, comp_max = 0.0, comp_sum = 0.0;
    fprintf(f, "\n== Time per rank ==\n");
    fprintf(f, "%-6s %12s %12s %8s %12s %10s\n", "rank", "wall_s", "mpi_s", "mpi_%", "compute_s", "calls");
    for (int r = 0; r < job->nranks; r++) {
        double wall = job->head[r].wall, comp = wall > t->mpi[r] ? wall - t->mpi[r] : 0.0, p = pct(t->mpi[r], wall);
        fprintf(f, "%-6d %12.6f %12.6f %8.2f %12.6f %10llu\n", r, wall, t->mpi[r], p, comp,
                (unsigned long long)t->calls[r]);
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
        sum += p;
        mpi_max = t->mpi[r] > mpi_max ? t->mpi[r] : mpi_max;
        comp_max = comp > comp_max ? comp : comp_max;
        comp_sum += comp;
    }
    double n = job->nranks, mpi_avg = t->mpi_sum / n, comp_avg = comp_sum / n;
    fprintf(f, "mpi_%% over ranks: min %.2f avg %.2f max %.2f\n", lo, sum / n, hi);
    fprintf(f, "imbalance (max/avg over ranks): mpi %.3f compute %.3f\n", mpi_avg > 0 ? mpi_max / mpi_avg : 1.0,
            comp_avg > 0 ? comp_max / comp_avg : 1.0);
}

static void write_stat(FILE *f, const struct skiff_prof_stat *s)
{
    fprintf(f, " %10llu %12.6f %12.3f %12.3f %12.3f %10llu %14llu", (unsigned long long)s->calls, s->time,
            s->calls ? 1e6 * s->time / (double)s->calls : 0.0, 1e6 * s->tmin, 1e6 * s->tmax,
            (unsigned long long)s->msgs, (unsigned long long)s->bytes);
}

static void write_stat_header(FILE *f)
{
    fprintf(f, " %10s %12s %12s %12s %12s %10s %14s", "calls", "total_s", "avg_us", "min_us", "max_us", "msgs",
            "bytes");
}

static void write_calls(FILE *f, const struct totals *t)
{
    fprintf(f, "\n== Calls, all ranks (most time first) ==\n");
    fprintf(f, "%-26s", "call");
    write_stat_header(f);
    fprintf(f, " %7s\n", "mpi_%");
    for (int i = 0; i < t->nused; i++) {
        int id = t->order[i];
        fprintf(f, "%-26s", skiff_prof_names[id]);
        write_stat(f, &t->all[id]);
        fprintf(f, " %7.2f\n", pct(t->all[id].time, t->call_sum));
    }
}

static void write_top_per_rank(FILE *f, const struct totals *t)
{
    static const struct skiff_prof_stat none;
    int top = t->nused < TOP_CALLS ? t->nused : TOP_CALLS;
    fprintf(f, "\n== The %d calls with the most time, per rank ==\n", top);
    fprintf(f, "%-26s %6s", "call", "rank");
    write_stat_header(f);
    fputc('\n', f);
    for (int i = 0; i < top; i++) {
        int id = t->order[i];
        for (int r = 0; r < t->job->nranks; r++) {
            const struct skiff_prof_stat *s = rank_stat(t->job, r, id);
            fprintf(f, "%-26s %6d", skiff_prof_names[id], r);
            write_stat(f, s ? s : &none);
            fputc('\n', f);
        }
    }
}

/* "1024-2047": bucket k >= 1 holds 2^(k-1) .. 2^k - 1 bytes; the last one everything above. */
static void bucket_label(int k, char *out, size_t len)
{
    unsigned long long lo = k ? 1ull << (k - 1) : 0, hi = k ? (1ull << k) - 1 : 0;
    if (k == 0)
        snprintf(out, len, "0");
    else if (k == SKIFF_PROF_BUCKETS - 1)
        snprintf(out, len, "%llu+", lo);
    else
        snprintf(out, len, "%llu-%llu", lo, hi);
}

static int column_width(int id)
{
    int n = (int)strlen(skiff_prof_names[id]);
    return n > 14 ? n : 14;
}

static void write_sizes(FILE *f, const struct totals *t)
{
    int cols[SKIFF_PC_COUNT], ncols = 0;
    for (int i = 0; i < t->nused; i++)
        if (t->all[t->order[i]].msgs)
            cols[ncols++] = t->order[i];
    fprintf(f, "\n== Message sizes: messages per size range in bytes, all ranks ==\n");
    fprintf(f, "%-24s %12s", "bytes", "all");
    for (int c = 0; c < ncols; c++)
        fprintf(f, " %*s", column_width(cols[c]), skiff_prof_names[cols[c]]);
    fputc('\n', f);
    for (int k = 0; k < SKIFF_PROF_BUCKETS; k++) {
        unsigned long long sum = 0;
        for (int c = 0; c < ncols; c++)
            sum += t->all[cols[c]].hist[k];
        if (!sum)
            continue;
        char label[64];
        bucket_label(k, label, sizeof label);
        fprintf(f, "%-24s %12llu", label, sum);
        for (int c = 0; c < ncols; c++)
            fprintf(f, " %*llu", column_width(cols[c]), (unsigned long long)t->all[cols[c]].hist[k]);
        fputc('\n', f);
    }
}

/* ---- stderr ------------------------------------------------------------------------------------- */

static void human_time(double s, char *out, size_t len)
{
    if (s >= 1.0)
        snprintf(out, len, "%.2f s", s);
    else if (s >= 1e-3)
        snprintf(out, len, "%.2f ms", s * 1e3);
    else
        snprintf(out, len, "%.1f us", s * 1e6);
}

static void write_summary(const struct totals *t, const char *path, int written)
{
    const struct skiff_prof_job *job = t->job;
    double lo = 100.0, hi = 0.0, sum = 0.0, wall = 0.0;
    for (int r = 0; r < job->nranks; r++) {
        double p = pct(t->mpi[r], job->head[r].wall);
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
        sum += p;
        wall = job->head[r].wall > wall ? job->head[r].wall : wall;
    }
    char line[1024], when[32];
    human_time(wall, when, sizeof when);
    if (written)
        fprintf(stderr, "skiff profile: report in %s (%d rank%s, %s wall)\n", path, job->nranks,
                job->nranks == 1 ? "" : "s", when);
    fprintf(stderr, "skiff profile: time in MPI over ranks: min %.1f%% avg %.1f%% max %.1f%%\n", lo,
            sum / job->nranks, hi);
    int n = snprintf(line, sizeof line, "skiff profile: top calls by time:");
    for (int i = 0; i < t->nused && i < 3 && n < (int)sizeof line; i++) {
        human_time(t->all[t->order[i]].time, when, sizeof when);
        n += snprintf(line + n, sizeof line - (size_t)n, "%s %s %s (%.1f%%)", i ? "," : "",
                      skiff_prof_names[t->order[i]], when, pct(t->all[t->order[i]].time, t->call_sum));
    }
    fprintf(stderr, "%s\n", line);
}

static void write_file(const struct totals *t, const char *path, const char *jobname)
{
    FILE *f = fopen(path, "w");
    if (f) {
        write_header(f, t, jobname);
        write_ranks(f, t);
        write_calls(f, t);
        write_top_per_rank(f, t);
        write_sizes(f, t);
    }
    int written = f && fclose(f) == 0;
    if (!written)
        skiff_error("profile: cannot write %s: %s", path, strerror(errno));
    write_summary(t, path, written);
}

void skiff_prof_report(const struct skiff_prof_job *job, const char *path, const char *jobname)
{
    /* On the heap: a table per call id is tens of KiB, too much for a thread's stack. */
    struct totals *t = malloc(sizeof *t);
    if (t && fold(job, t) == 0)
        write_file(t, path, jobname);
    else
        skiff_error("profile: out of memory writing the report");
    if (t) {
        free(t->mpi);
        free(t->calls);
    }
    free(t);
}
