/* What skiff-pipe tells: the data file (NetPIPE's columns), progress lines, and the summary. */
#include "skiff_pipe.h"

#include "measure.h"

#include <stdlib.h>
#include <string.h>

/* Below the clock's resolution a run would divide by zero; 1 ns is the finest any clock here has. */
static const double MIN_SECONDS = 1e-9;

/* CPU per unit of the time column and busy share of the wall time, from sums over the trials. */
static void cpu_columns(struct pipe_point *p, int side, const struct pipe_cpu *sum, double units)
{
    p->user_us[side] = units > 0 ? sum->user / units * 1e6 : 0;
    p->sys_us[side] = units > 0 ? sum->sys / units * 1e6 : 0;
    p->busy[side] = sum->wall > 0 ? (sum->user + sum->sys) / sum->wall * 100 : 0;
}

struct pipe_point pipe_point_of(size_t bytes, const struct pipe_result *res, int n, long reps,
                                const struct pipe_link *l)
{
    double gbps[PIPE_MAX_TRIALS], usec_sum = 0, mean_sum = 0, max_sum = 0, comm = 0, work = 0;
    double flows = l->flows > 0 ? l->flows : 1, units = (double)reps * l->legs;
    struct pipe_cpu cpu[2] = {{0, 0, 0}, {0, 0, 0}};
    n = n < PIPE_MAX_TRIALS ? n : PIPE_MAX_TRIALS;
    for (int t = 0; t < n; t++) {
        double s = res[t].seconds > MIN_SECONDS ? res[t].seconds : MIN_SECONDS;
        double per_msg = s / units;
        gbps[t] = flows * (double)bytes * 8.0 * l->dirs / per_msg / 1e9;
        mean_sum += (res[t].mean_seconds > MIN_SECONDS ? res[t].mean_seconds : MIN_SECONDS) / units;
        max_sum += per_msg;
        usec_sum += per_msg * 1e6;
        comm += res[t].comm_seconds / (double)reps;
        work += res[t].work_seconds / (double)reps;
        pipe_cpu_add(&cpu[0], &res[t].cpu[0]);
        pipe_cpu_add(&cpu[1], &res[t].cpu[1]);
    }
    struct m_stats st = m_stats_of(gbps, n);
    struct pipe_point p;
    memset(&p, 0, sizeof p);
    p.bytes = bytes;
    p.gbps_avg = st.avg;
    p.gbps_min = st.min;
    p.gbps_max = st.max;
    p.usec = n > 0 ? usec_sum / n : 0;
    cpu_columns(&p, 0, &cpu[0], units * n);
    cpu_columns(&p, 1, &cpu[1], units * n);
    if (l->flows > 0 && n > 0) {
        /* With several flows the time column is the mean flow's time, the aggregate counts every
         * flow's bytes over the slowest flow's time. */
        p.flows = (int)l->flows;
        p.usec = mean_sum / n * 1e6;
        p.flow_gbps = (double)bytes * 8.0 * l->dirs / (mean_sum / n) / 1e9;
        p.usec_max = max_sum / n * 1e6;
    }
    if (l->workload && n > 0) {
        /* per repeat: the transfer alone, the work alone, both (the point's time column) */
        double total = usec_sum / n * l->legs / 1e6;
        comm /= n;
        work /= n;
        p.workload = 1;
        p.comm_us = comm * 1e6;
        p.work_us = work * 1e6;
        double hide = comm < work ? comm : work;
        p.overlap = hide > 0 ? (comm + work - total) / hide * 100 : 0;
    }
    return p;
}

void pipe_write_point(FILE *data, const struct pipe_point *p)
{
    fprintf(data, "%10zu %12.6g %12.6g %12.6g %12.6g", p->bytes, p->gbps_avg, p->gbps_min, p->gbps_max, p->usec);
    for (int s = 0; s < 2; s++)
        fprintf(data, " %10.4g %10.4g %7.2f", p->user_us[s], p->sys_us[s], p->busy[s]);
    if (p->flows)
        fprintf(data, " %12.6g %12.6g", p->flow_gbps, p->usec_max);
    if (p->workload)
        fprintf(data, " %12.6g %12.6g %8.2f", p->comm_us, p->work_us, p->overlap);
    fputc('\n', data);
    fflush(data); /* a run cut short keeps what it measured */
}

void pipe_progress(const struct pipe_point *p)
{
    fprintf(stderr, "%10zu B %10.3f us %10.3f Gbit/s\n", p->bytes, p->usec, p->gbps_avg);
}

const char *pipe_time_note(const struct pipe_opts *o)
{
    if (o->module == PIPE_MEMCPY)
        return "per copy";
    static const char *notes[] = {"one-way: half the round trip", "per message", "per exchange"};
    static const char *pair_notes[] = {"one-way: half the round trip, mean over pairs", "per message, mean over pairs",
                                       "per exchange, mean over pairs"};
    if (o->pattern)
        return "per step, mean over ranks";
    switch (o->rma) {
    case PIPE_RMA_PUT: return o->nofence ? "one-way: half the round trip of put + flag" : "per put + fence";
    case PIPE_RMA_GET: return o->nofence ? "per get + flush" : "per get + fence";
    case PIPE_RMA_FOP: return "per fetch_and_op + flush: a round trip";
    case PIPE_RMA_CAS: return "per compare_and_swap + flush: a round trip";
    case PIPE_RMA_CACHELINE: return "one-way: half the round trip";
    default: break;
    }
    return o->pairs ? pair_notes[o->mode] : notes[o->mode];
}

void pipe_header(FILE *f, const struct pipe_opts *o, const char *what, int points)
{
    char a[32], b[32];
    fprintf(f, "skiff-pipe: %s, %s, %d sizes %s .. %s (pert %zu), ", pipe_mode_name(o), what, points,
            m_bytes(o->start, a, sizeof a), m_bytes(o->end, b, sizeof b), o->pert);
    if (o->integrity)
        fprintf(f, "integrity check");
    else if (o->repeats)
        fprintf(f, "%d trials x %ld repeats", o->trials, o->repeats);
    else
        fprintf(f, "%d trials, adaptive repeats (~%g s per size)", o->trials, o->target);
    fprintf(f, "%s%s, offsets send %zu recv %zu\n", o->async ? ", pre-posted receives" : "",
            o->nocache ? ", buffers beyond the cache" : "", o->soffset, o->roffset);
    fflush(f);
}

/* CPU per message at the latency size and at the peak, per side; flows; overlap. */
static void pipe_summary_more(FILE *f, const struct pipe_point *p, int n, int peak)
{
    static const char *const two[2] = {"rank 0", "rank 1"}, *const many[2] = {"mean", "busiest"};
    const char *const *who = p[0].flows ? many : two;
    for (int s = 0; s < 2; s++)
        fprintf(f, "cpu %-7s %zu B: user %.3f sys %.3f us, busy %.0f%%;  %zu B: user %.3f sys %.3f us, busy %.0f%%\n",
                who[s], p[0].bytes, p[0].user_us[s], p[0].sys_us[s], p[0].busy[s], p[peak].bytes, p[peak].user_us[s],
                p[peak].sys_us[s], p[peak].busy[s]);
    if (p[0].flows)
        fprintf(f, "flows   %10d at once; at %zu B one moves %.3f Gbit/s, the slowest takes %.3f us\n", p[0].flows,
                p[peak].bytes, p[peak].flow_gbps, p[peak].usec_max);
    if (p[0].workload)
        fprintf(f, "overlap %9.1f %%     at %zu B (work %.3f us, transfer %.3f us); %.1f %% at %zu B (work %.3f us, "
                   "transfer %.3f us)\n",
                p[0].overlap, p[0].bytes, p[0].work_us, p[0].comm_us, p[n - 1].overlap, p[n - 1].bytes,
                p[n - 1].work_us, p[n - 1].comm_us);
}

void pipe_summary(FILE *f, const struct pipe_point *p, int n, const char *time_note)
{
    if (n <= 0)
        return;
    int peak = 0;
    for (int i = 1; i < n; i++)
        if (p[i].gbps_avg > p[peak].gbps_avg)
            peak = i;
    int half = 0; /* the first size that reaches half the peak: there is one, the peak itself */
    while (p[half].gbps_avg < p[peak].gbps_avg / 2)
        half++;
    char a[32];
    fprintf(f, "latency %10.3f us      (%zu B, %s)\n", p[0].usec, p[0].bytes, time_note);
    fprintf(f, "peak    %10.3f Gbit/s  at %zu B (%s)\n", p[peak].gbps_avg, p[peak].bytes,
            m_bytes(p[peak].bytes, a, sizeof a));
    fprintf(f, "N1/2    %10zu B       (%s) reaches %.3f Gbit/s, half the peak\n", p[half].bytes,
            m_bytes(p[half].bytes, a, sizeof a), p[half].gbps_avg);
    pipe_summary_more(f, p, n, peak);
}

/* The timed sweep with its file and summary. Returns the exit status. */
static int measure_time(struct pipe_link *l, const struct pipe_opts *o, const char *what)
{
    FILE *data = fopen(o->out, "w");
    if (!data) {
        perror(o->out);
        struct pipe_job stop = {0, -1};
        l->agree(l->ctx, &stop); /* the follower must not wait forever */
        return 1;
    }
    struct pipe_point *points = NULL;
    int n = pipe_sweep_time(l, o, data, &points);
    int rc = fclose(data) != 0 || n <= 0;
    pipe_summary(stdout, points, n, pipe_time_note(o));
    fflush(stdout);
    free(points);
    if (rc == 0 && o->plot)
        rc = pipe_plot_one(o, what);
    return rc;
}

int pipe_measure(struct pipe_link *l, const struct pipe_opts *o, const char *what)
{
    pipe_header(stdout, o, what, m_sizes(o->start, o->end, o->pert, NULL, 0));
    if (o->integrity)
        return pipe_sweep_check(l, o) != 0;
    return measure_time(l, o, what);
}
