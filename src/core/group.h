/* Process groups: an ordered list of job ranks that never changes once built. Every holder has its own group
 * (each user handle, each communicator), so freeing one handle makes exactly that handle invalid. The set
 * operations here are pure: they read groups and build new ones, so they are tested without processes
 * (tests/unit/test_group.c). */
#ifndef SKIFF_GROUP_H
#define SKIFF_GROUP_H

#include <stdint.h>

#include "mpi.h"

#define SKIFF_GROUP_MAGIC 0x67727570u

struct skiff_group {
    uint32_t magic;
    int size;
    int rank;    /* this process's rank in the group, MPI_UNDEFINED if it is not a member */
    int *world;  /* group rank -> job rank */
    const void *session; /* the MPI-4 session it derives from (its buffered sends' buffer), or NULL */
};

/* MPI_GROUP_EMPTY: every empty result is this one object, which is never freed. */
extern struct skiff_group skiff_group_empty;

/* NULL for MPI_GROUP_NULL and anything that is not a live group. */
struct skiff_group *skiff_group_get(MPI_Group h);
MPI_Group skiff_group_handle(struct skiff_group *g);

/* A new group of the n job ranks in world[], or the empty group; NULL if out of memory. */
struct skiff_group *skiff_group_from(const int *world, int n);
/* Clears the magic (the handle is refused from then on); the empty group stays. */
void skiff_group_free(struct skiff_group *g);

/* The rank of job rank w in g, or MPI_UNDEFINED. */
int skiff_group_rank_of(const struct skiff_group *g, int w);

/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. */
int skiff_group_compare(const struct skiff_group *a, const struct skiff_group *b);

/* The operations below return an MPI error code (with a message naming the values) and set *out. */
int skiff_group_incl(const struct skiff_group *g, int n, const int *ranks, struct skiff_group **out);
int skiff_group_excl(const struct skiff_group *g, int n, const int *ranks, struct skiff_group **out);
/* ranges[i] = {first, last, stride}; exclude selects MPI_Group_range_excl. */
int skiff_group_range(const struct skiff_group *g, int n, const int ranges[][3], int exclude,
                      struct skiff_group **out);

enum skiff_group_setop { SKIFF_GROUP_UNION, SKIFF_GROUP_INTERSECTION, SKIFF_GROUP_DIFFERENCE };
int skiff_group_setop(const struct skiff_group *a, const struct skiff_group *b, enum skiff_group_setop op,
                      struct skiff_group **out);

/* ranks_b[i] = the rank in b of process ranks_a[i] of a (MPI_UNDEFINED if absent, MPI_PROC_NULL kept). */
int skiff_group_translate(const struct skiff_group *a, int n, const int *ranks_a, const struct skiff_group *b,
                          int *ranks_b);

/* The job ranks of g's processes whose record (stride ints each, ending in color then key) has this
 * color, in (key, rank) order, as MPI_Comm_split orders them: how many, or -1 out of memory. */
int skiff_group_pick(const struct skiff_group *g, const int *rec, int stride, int color, int *world);

void skiff_group_finalize(void);

#endif
