/* Charts through tools/lib's m_plot: throughput (column 2) against size (column 1), log x. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "skiff_pipe.h"

#include "measure.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_FILES = 32 };

/* Splits a comma-separated list in place; returns the count, -1 if more than max. */
static int split(char *s, char **out, int max)
{
    int n = 0;
    for (char *p = s; p; n++) {
        if (n == max)
            return -1;
        out[n] = p;
        p = strchr(p, ',');
        if (p)
            *p++ = 0;
    }
    return n;
}

/* The y axis of each column (docs/skiff-pipe.md, "The data file"); columns 12-16 depend on the mode. */
static const char *ylabel(int col)
{
    static const char *names[] = {
        "", "", "throughput (Gbit/s)", "min throughput (Gbit/s)", "max throughput (Gbit/s)", "time (us)",
        "rank 0 user CPU per message (us)", "rank 0 system CPU per message (us)", "rank 0 CPU busy (% of wall time)",
        "rank 1 user CPU per message (us)", "rank 1 system CPU per message (us)", "rank 1 CPU busy (% of wall time)"};
    return col < (int)(sizeof names / sizeof names[0]) ? names[col] : "data-file column (see docs/skiff-pipe.md)";
}

static int plot(const char *png, const char *const *files, const char *const *labels, int n, int col)
{
    /* times and CPU per message span decades over the sizes: log y (gnuplot leaves out zeros) */
    int logy = col == 5 || col == 6 || col == 7 || col == 9 || col == 10 || col == 13;
    return m_plot(png, "skiff-pipe", "message size (bytes)", ylabel(col), files, labels, n, 1, col, 1, logy) ? 1 : 0;
}

int pipe_overlay(const struct pipe_opts *o)
{
    char *files_s = strdup(o->plot_files), *labels_s = o->labels ? strdup(o->labels) : NULL;
    char *files[MAX_FILES], *labels[MAX_FILES];
    int n = files_s ? split(files_s, files, MAX_FILES) : -1;
    int nl = labels_s ? split(labels_s, labels, MAX_FILES) : n;
    int rc = 2;
    if (n < 0)
        fprintf(stderr, "skiff-pipe: --plot-files takes at most %d files\n", MAX_FILES);
    else if (nl != n)
        fprintf(stderr, "skiff-pipe: --labels has %d entries for %d files\n", nl, n);
    else
        rc = plot(o->plot, (const char *const *)files, labels_s ? (const char *const *)labels : NULL, n, o->plot_y);
    free(files_s);
    free(labels_s);
    return rc;
}

int pipe_plot_one(const struct pipe_opts *o, const char *label)
{
    const char *files[1] = {o->out}, *labels[1] = {label};
    return plot(o->plot, files, labels, 1, o->plot_y);
}
