/* The measuring loops' common parts, shared by skiff-pipe, skiff-fan, skiff-map and the benchmarks.
 *
 * Written against the MPI API and libc only, so every tool built on it also builds with MPICH's and
 * Open MPI's mpicc (scripts compile the files of tools/lib beside the tool). Nothing here is skiff-internal.
 */
#ifndef SKIFF_TOOLS_MEASURE_H
#define SKIFF_TOOLS_MEASURE_H

#include <stddef.h>
#include <stdio.h>

/* ---- statistics over repeated samples --------------------------------------------------------- */

struct m_stats {
    double min, max, avg, median;
    int n;
};

/* Sorts x in place. n may be 0 (all fields 0). */
struct m_stats m_stats_of(double *x, int n);

/* ---- message sizes ---------------------------------------------------------------------------- */

/* NetPIPE's schedule: sizes from start to end, each "base" point (1, 2, 3, 4, 6, 8, 12, 16, 24, ...:
 * powers of two and the midpoints between them) together with base-pert and base+pert when pert > 0
 * (perturbations expose effects that only hit exact powers of two). Ascending, no duplicates, all in
 * [start, end]. Returns how many; writes at most max entries (call with NULL, 0 to count). */
int m_sizes(size_t start, size_t end, size_t pert, size_t *out, int max);

/* ---- repeat counts ---------------------------------------------------------------------------- */

/* How many repeats of an operation that took `seconds` for `done` repeats fill `target` seconds,
 * clamped to [lo, hi]. */
long m_repeats_for(double seconds, long done, double target, long lo, long hi);

/* ---- output ----------------------------------------------------------------------------------- */

/* Writes a gnuplot chart (PNG) of one or more whitespace-separated data files: column xcol against
 * ycol, one line per file labelled labels[i] (file name if NULL). logx/logy pick log scales.
 * Returns 0, or -1 with a message on stderr (gnuplot missing or failing). */
int m_plot(const char *png, const char *title, const char *xlabel, const char *ylabel, const char *const *files,
           const char *const *labels, int nfiles, int xcol, int ycol, int logx, int logy);

/* Human-readable bytes ("8 B", "64 KiB", "1.5 MiB") into buf. */
const char *m_bytes(size_t n, char *buf, size_t len);

#endif
