/* What skiff-pipe tells: the data file (NetPIPE's columns), progress lines, and the summary. */
#include "skiff_pipe.h"

#include "measure.h"

#include <stdlib.h>

/* Below the clock's resolution a run would divide by zero; 1 ns is the finest any clock here has. */
static const double MIN_SECONDS = 1e-9;

struct pipe_point pipe_point_of(size_t bytes, double *secs, int n, long reps, const struct pipe_link *l)
{
    double gbps[PIPE_MAX_TRIALS], usec_sum = 0;
    n = n < PIPE_MAX_TRIALS ? n : PIPE_MAX_TRIALS;
    for (int t = 0; t < n; t++) {
        double s = secs[t] > MIN_SECONDS ? secs[t] : MIN_SECONDS;
        double per_msg = s / ((double)reps * l->legs);
        gbps[t] = (double)bytes * 8.0 * l->dirs / per_msg / 1e9;
        usec_sum += per_msg * 1e6;
    }
    struct m_stats st = m_stats_of(gbps, n);
    struct pipe_point p = {bytes, st.avg, st.min, st.max, n > 0 ? usec_sum / n : 0};
    return p;
}

void pipe_write_point(FILE *data, const struct pipe_point *p)
{
    fprintf(data, "%10zu %12.6g %12.6g %12.6g %12.6g\n", p->bytes, p->gbps_avg, p->gbps_min, p->gbps_max, p->usec);
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
    return notes[o->mode];
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
