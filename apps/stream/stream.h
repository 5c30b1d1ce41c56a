/* skiff-stream: McCalpin's STREAM (Copy, Scale, Add, Triad) on every rank at once, with the per-rank and
 * the aggregate rates. Own code, written to STREAM's rules (docs/stream.md); MPI API and libc only. */
#ifndef SKIFF_APPS_STREAM_H
#define SKIFF_APPS_STREAM_H

#include <mpi.h>
#include <stddef.h>

enum { STREAM_KERNELS = 4 };

/* STREAM's constant for Scale and Triad. */
#define STREAM_SCALAR 3.0

struct stream_opts {
    long long n; /* doubles per array; 0: from the last-level cache */
    int ntimes;  /* runs of every kernel; the first is not counted */
    int verbose; /* -v: every rank's rates */
};

struct stream_arrays {
    double *a, *b, *c;
    size_t n;
};

/* How the array size was chosen, for the report. */
struct stream_size {
    size_t n;
    long long llc;       /* bytes of last-level cache assumed */
    const char *llc_src; /* where that number came from */
    int capped;          /* the default was reduced to fit half the available memory */
};

extern const char *const stream_names[STREAM_KERNELS];
/* Bytes one run of kernel k moves per array element, counted as STREAM does (reads + writes). */
extern const int stream_bytes_per_elem[STREAM_KERNELS];

/* Parses argv (every rank, same result). 0 ok, 1 after --help, -1 on a bad option (rank 0 says why). */
int stream_parse(int argc, char **argv, int rank, struct stream_opts *o);

/* Collective: the array length every rank uses (the smallest any rank chose). */
struct stream_size stream_choose_size(const struct stream_opts *o, MPI_Comm comm);

/* Allocates and initialises a = 1, b = 2, c = 0, then a = 2a (STREAM's first pass, which also faults
 * every page in on this rank's core). Aborts the job when memory is short. */
void stream_alloc(struct stream_arrays *s, size_t n);
void stream_free(struct stream_arrays *s);

/* Runs the four kernels ntimes, each after a barrier; times[k * ntimes + run] = this rank's seconds. */
void stream_run(struct stream_arrays *s, int ntimes, double *times, MPI_Comm comm);

/* STREAM's check of the final values against the recomputed scalar sequence. Returns 0 when every array's
 * average error is below the tolerance; prints the failing arrays on stderr otherwise. */
int stream_validate(const struct stream_arrays *s, int ntimes, int rank);

/* Rank 0: the per-rank table (verbose) and the aggregate table from everyone's times
 * (all[rank * 4 * ntimes + k * ntimes + run]). */
void stream_report(const struct stream_opts *o, const struct stream_size *sz, const double *all, int np);

#endif
