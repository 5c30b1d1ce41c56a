/* The profiler's numbers: one record per call id on each rank, and the whole job's records as rank 0
 * holds them at MPI_Finalize. Shared by the recorder (profile.c), the gather (profile_gather.c) and
 * the report (profile_report.c). */
#ifndef SKIFF_PROFILE_TABLE_H
#define SKIFF_PROFILE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/profile_calls.h"

/* Message sizes in power-of-two ranges: bucket 0 holds empty messages, bucket k (k >= 1) sizes
 * 2^(k-1) .. 2^k - 1; the last bucket also everything larger. */
#define SKIFF_PROF_BUCKETS 36

static inline int skiff_prof_bucket(size_t bytes)
{
    int k = bytes ? 64 - __builtin_clzll((unsigned long long)bytes) : 0;
    return k < SKIFF_PROF_BUCKETS ? k : SKIFF_PROF_BUCKETS - 1;
}

/* One call on one rank (or summed over ranks). Times in seconds. */
struct skiff_prof_stat {
    uint64_t calls;
    uint64_t msgs, bytes;
    double time, tmin, tmax;
    uint64_t hist[SKIFF_PROF_BUCKETS];
};

/* Folds b into a (a may be empty). */
static inline void skiff_prof_stat_add(struct skiff_prof_stat *a, const struct skiff_prof_stat *b)
{
    if (!b->calls)
        return;
    a->tmin = !a->calls || b->tmin < a->tmin ? b->tmin : a->tmin;
    a->tmax = b->tmax > a->tmax ? b->tmax : a->tmax;
    a->calls += b->calls;
    a->msgs += b->msgs;
    a->bytes += b->bytes;
    a->time += b->time;
    for (int i = 0; i < SKIFF_PROF_BUCKETS; i++)
        a->hist[i] += b->hist[i];
}

/* What travels from each rank: a head, then one record per call the rank made. */
struct skiff_prof_head {
    double wall;   /* MPI_Init entry to MPI_Finalize entry */
    double mpi;    /* of it, the time at least one thread was inside a recorded call */
    uint64_t nrecs;
};

struct skiff_prof_rec {
    uint64_t id; /* enum skiff_prof_call */
    struct skiff_prof_stat s;
};

/* The job at rank 0: rank r's records are recs[first[r] .. first[r] + head[r].nrecs). */
struct skiff_prof_job {
    int nranks;
    struct skiff_prof_head *head;
    size_t *first;
    struct skiff_prof_rec *recs;
};

extern const char *const skiff_prof_names[SKIFF_PC_COUNT];

/* Every rank's table to rank 0 (through the library's own collectives, so not recorded). On rank 0
 * fills job (free with skiff_prof_job_free); returns 0, or an MPI error code. */
int skiff_prof_gather(const struct skiff_prof_stat *table, double wall, double mpi, struct skiff_prof_job *job);
void skiff_prof_job_free(struct skiff_prof_job *job);

/* Rank 0: writes the report to path and the summary to stderr; jobname goes into the header. */
void skiff_prof_report(const struct skiff_prof_job *job, const char *path, const char *jobname);

#endif
