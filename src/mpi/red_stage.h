/* Reductions on non-contiguous datatypes. The reduction algorithms run on an array of a basic type;
 * a derived type made of one predefined type, with a predefined op, reduces the basic elements it
 * holds. When its data is not one run of memory, the data is gathered into such an array first and
 * the result scattered back after: by the blocking call itself, or by steps of the schedule of a
 * nonblocking or persistent one (so every start of a persistent one gathers afresh). */
#ifndef SKIFF_MPI_RED_STAGE_H
#define SKIFF_MPI_RED_STAGE_H

#include <stddef.h>

#include "coll/sched.h"
#include "mpi/coll_check.h"

/* Whether red (after skiff_ck_reduction) needs its data staged. */
static inline int skiff_red_staged(const struct skiff_red *red)
{
    return !red->t->contiguous && !red->t->predefined;
}

/* One gather or scatter: n user elements at user, as basic elements at data. */
struct skiff_red_pk {
    char *user;
    size_t n, scale; /* scale: basic elements per user element */
    char *data, *tmp; /* tmp: packed bytes, when the basic type itself has gaps (MPI_DOUBLE_INT) */
    const struct skiff_type *t, *b;
};

/* What a blocking call staged: freed (and the result scattered back if ok) by skiff_red_unstage. */
struct skiff_red_stage {
    void *mem;
    struct skiff_red_pk out; /* n == 0: nothing to scatter back */
};

/* Replaces *sendbuf and *recvbuf by staged copies (MPI_IN_PLACE stays MPI_IN_PLACE, with recvbuf's
 * data staged) and sets red->shift to 0. in: the elements sendbuf holds; out: the elements of the
 * result this rank gets (0 for none); keep: recvbuf's data is read even without MPI_IN_PLACE (rank 0
 * of MPI_Exscan keeps what its recvbuf had). An MPI error code (memory). */
int skiff_red_stage(struct skiff_red *red, const void **sendbuf, void **recvbuf, size_t in, size_t out, int keep,
                    struct skiff_red_stage *st);
void skiff_red_unstage(struct skiff_red_stage *st, int ok);

/* The same in a schedule: gathering steps in a round of their own before the algorithm; after the
 * algorithm is built, skiff_red_plan_done adds the scattering (u NULL: nothing to scatter). */
void skiff_red_plan(struct skiff_sched *s, struct skiff_red *red, const void **sendbuf, void **recvbuf, size_t in,
                    size_t out, int keep, struct skiff_red_pk **u);
void skiff_red_plan_done(struct skiff_sched *s, struct skiff_red_pk *u);

#endif
