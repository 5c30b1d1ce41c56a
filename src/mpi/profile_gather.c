/* At MPI_Finalize the ranks' tables go to rank 0 through the library's own collectives on
 * MPI_COMM_WORLD: they bypass the MPI_* entry points, so this traffic is never recorded. Only the
 * calls a rank made travel (a dozen records of a few hundred bytes, typically), so rank 0 holds
 * little even for a large job. */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/error.h"
#include "mpi/profile_table.h"

/* The calls this rank made, as records; *n of them (none: a valid empty array). */
static struct skiff_prof_rec *pack(const struct skiff_prof_stat *table, uint64_t *n)
{
    struct skiff_prof_rec *recs = malloc(SKIFF_PC_COUNT * sizeof *recs);
    *n = 0;
    for (int id = 0; recs && id < SKIFF_PC_COUNT; id++)
        if (table[id].calls)
            recs[(*n)++] = (struct skiff_prof_rec){(uint64_t)id, table[id]};
    return recs;
}

/* Rank 0's memory for the job: a failure here would leave the other ranks waiting in the gather, so it
 * ends the job instead (a few bytes per rank: only a process already out of memory gets here). */
static void *root_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        skiff_abort_job(1, "out of memory gathering the profile at MPI_Finalize");
    return p;
}

/* Rank 0: where each rank's records land, and room for them all. */
static void plan(struct skiff_prof_job *job, size_t *counts, size_t *displs)
{
    size_t total = 0;
    for (int r = 0; r < job->nranks; r++) {
        job->first[r] = total;
        displs[r] = total * sizeof *job->recs;
        counts[r] = (size_t)job->head[r].nrecs * sizeof *job->recs;
        total += (size_t)job->head[r].nrecs;
    }
    job->recs = root_alloc(total, sizeof *job->recs);
}

int skiff_prof_gather(const struct skiff_prof_stat *table, double wall, double mpi, struct skiff_prof_job *job)
{
    struct skiff_comm *w = &skiff_comm_world;
    int root = w->rank == 0, n = w->size;
    struct skiff_prof_head mine = {wall, mpi, 0};
    /* A rank out of memory still takes part, with no records, so that no rank waits forever. */
    struct skiff_prof_rec *recs = pack(table, &mine.nrecs);
    size_t *counts = NULL, *displs = NULL;
    *job = (struct skiff_prof_job){.nranks = n};
    if (root)
        job->head = root_alloc((size_t)n, sizeof *job->head);
    int rc = skiff_coll_gather(&mine, sizeof mine, job->head, 0, w);
    if (!rc && root) {
        job->first = root_alloc((size_t)n, sizeof *job->first);
        counts = root_alloc((size_t)n, sizeof *counts);
        displs = root_alloc((size_t)n, sizeof *displs);
        plan(job, counts, displs);
    }
    if (!rc)
        rc = skiff_coll_gatherv(recs, (size_t)mine.nrecs * sizeof *recs, job->recs, counts, displs, 0, w);
    free(recs);
    free(counts);
    free(displs);
    if (rc)
        skiff_prof_job_free(job);
    return rc;
}

void skiff_prof_job_free(struct skiff_prof_job *job)
{
    free(job->head);
    free(job->first);
    free(job->recs);
    *job = (struct skiff_prof_job){0};
}
