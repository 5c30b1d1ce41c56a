/* The size sweep: the leader decides every size and repeat count and tells the follower, so both
 * sides always run the same loop (the follower never needs the options that pick them). */
#include "skiff_pipe.h"

#include "measure.h"

#include <stdlib.h>

enum { REPS_MAX = 10000000, CHECK_REPS = 4, CHECK_REPS_QUICK = 2 };

void pipe_follow(struct pipe_link *l)
{
    struct pipe_job job;
    for (;;) {
        l->agree(l->ctx, &job);
        if (job.reps < 0)
            return;
        l->run(l->ctx, &job);
    }
}

static struct pipe_result run_job(struct pipe_link *l, size_t bytes, long reps)
{
    struct pipe_job job = {(long long)bytes, reps};
    l->agree(l->ctx, &job);
    return l->run(l->ctx, &job);
}

static void stop(struct pipe_link *l)
{
    struct pipe_job job = {0, -1};
    l->agree(l->ctx, &job);
}

/* Runs with growing counts until one run lasts long enough to predict the count that fills a trial;
 * the first runs also warm up (caches, page tables, the library's protocol switch). */
static long calibrate(struct pipe_link *l, size_t bytes, double per_trial, long guess)
{
    long reps = guess;
    for (;;) {
        double s = run_job(l, bytes, reps).seconds;
        if (s >= per_trial / 8 || reps >= REPS_MAX)
            return m_repeats_for(s, reps, per_trial, 1, REPS_MAX);
        reps = m_repeats_for(s, reps, per_trial / 4, 2 * reps, REPS_MAX);
    }
}

/* Before the first size: the first runs after start-up are slow (cold caches and branch predictors,
 * lazily built connections), and the first size gives the latency, so run it untimed for a while. */
static void warm_up(struct pipe_link *l, size_t bytes, double seconds)
{
    double spent = 0;
    for (long reps = 16; spent < seconds && reps < REPS_MAX; reps *= 2)
        spent += run_job(l, bytes, reps).seconds;
}

/* The sizes of the schedule (malloc'ed); -1 on failure. */
static int schedule(const struct pipe_opts *o, size_t **sizes)
{
    int n = m_sizes(o->start, o->end, o->pert, NULL, 0);
    *sizes = malloc((size_t)n * sizeof **sizes);
    if (!*sizes)
        return -1;
    return m_sizes(o->start, o->end, o->pert, *sizes, n);
}

/* One size: repeat count (fixed after a warm-up run, or calibrated), then the timed trials. */
static struct pipe_point measure_size(struct pipe_link *l, const struct pipe_opts *o, size_t bytes, long *guess,
                                      struct pipe_result *res)
{
    long reps = o->repeats;
    if (reps) {
        run_job(l, bytes, reps);
    } else {
        reps = calibrate(l, bytes, o->target / o->trials, *guess);
        *guess = reps / 4 > 1 ? reps / 4 : 1; /* larger sizes need fewer */
    }
    for (int t = 0; t < o->trials; t++)
        res[t] = run_job(l, bytes, reps);
    return pipe_point_of(bytes, res, o->trials, reps, l);
}

int pipe_sweep_time(struct pipe_link *l, const struct pipe_opts *o, FILE *data, struct pipe_point **points)
{
    size_t *sizes;
    int n = schedule(o, &sizes);
    struct pipe_result *secs = malloc((size_t)o->trials * sizeof *secs);
    *points = n > 0 ? malloc((size_t)n * sizeof **points) : NULL;
    if (n < 0 || !secs || !*points) {
        stop(l);
        free(secs);
        free(sizes);
        free(*points);
        *points = NULL;
        return -1;
    }
    long guess = 1;
    warm_up(l, sizes[0], o->target / 2);
    for (int i = 0; i < n; i++) {
        (*points)[i] = measure_size(l, o, sizes[i], &guess, secs);
        pipe_write_point(data, &(*points)[i]);
        if (!o->silent)
            pipe_progress(&(*points)[i]);
    }
    stop(l);
    free(secs);
    free(sizes);
    return n;
}

long pipe_sweep_check(struct pipe_link *l, const struct pipe_opts *o)
{
    size_t *sizes;
    int n = schedule(o, &sizes);
    if (n < 0) {
        stop(l);
        return 1;
    }
    long reps = o->repeats ? o->repeats : o->quick ? CHECK_REPS_QUICK : CHECK_REPS;
    long per_size = reps * (long)(l->legs * l->dirs * (l->flows > 0 ? l->flows : 1)), total = 0;
    for (int i = 0; i < n; i++) {
        long f = run_job(l, sizes[i], reps).failures;
        total += f;
        printf("%10zu B  %ld of %ld messages failed\n", sizes[i], f, per_size);
    }
    stop(l);
    printf("integrity: %ld of %ld messages failed, %d sizes\n", total, per_size * n, n);
    free(sizes);
    return total;
}
