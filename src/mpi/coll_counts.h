/* The per-rank counts and displacements of the v and w collectives as the call gave them: the int calls'
 * int arrays, or the large-count (_c) calls' MPI_Count counts and MPI_Aint displacements. One body serves
 * both forms and reads an entry through skiff_cnt_at or skiff_dsp_at, so an int call's arrays are neither
 * copied nor converted (the int path pays one predictable branch per entry). An array the user gave as
 * NULL is {NULL, NULL} in either form, and skiff_cnts_ptr/skiff_dsps_ptr give NULL for the checks to
 * report. */
#ifndef SKIFF_MPI_COLL_COUNTS_H
#define SKIFF_MPI_COLL_COUNTS_H

#include <stddef.h>

#include "mpi.h"

struct skiff_cnts {
    const int *i;
    const MPI_Count *l;
};

struct skiff_dsps {
    const int *i;
    const MPI_Aint *l;
};

static inline struct skiff_cnts skiff_icnts(const int *counts)
{
    return (struct skiff_cnts){counts, NULL};
}

static inline struct skiff_cnts skiff_lcnts(const MPI_Count *counts)
{
    return (struct skiff_cnts){NULL, counts};
}

static inline struct skiff_dsps skiff_idsps(const int *displs)
{
    return (struct skiff_dsps){displs, NULL};
}

static inline struct skiff_dsps skiff_ldsps(const MPI_Aint *displs)
{
    return (struct skiff_dsps){NULL, displs};
}

static inline MPI_Count skiff_cnt_at(struct skiff_cnts a, int k)
{
    return a.l ? a.l[k] : (MPI_Count)a.i[k];
}

static inline MPI_Aint skiff_dsp_at(struct skiff_dsps a, int k)
{
    return a.l ? a.l[k] : (MPI_Aint)a.i[k];
}

static inline const void *skiff_cnts_ptr(struct skiff_cnts a)
{
    return a.l ? (const void *)a.l : (const void *)a.i;
}

static inline const void *skiff_dsps_ptr(struct skiff_dsps a)
{
    return a.l ? (const void *)a.l : (const void *)a.i;
}

/* skiff_check_counts (mpi_impl.h) on either form: n counts, each >= 0, an MPI_Count printed whole. */
int skiff_check_cnts(int n, struct skiff_cnts a, const char *name, size_t *total);

/* The profiler's message sizes: the sum of every rank's block, or the block of this rank alone (what
 * MPI_IN_PLACE leaves a rank sending); 0 for invalid arguments, which the call's checks report. */
size_t skiff_prof_cnts(struct skiff_cnts counts, MPI_Datatype dt, MPI_Comm comm);
size_t skiff_prof_own_cnt(struct skiff_cnts counts, MPI_Datatype dt, MPI_Comm comm);

#endif
