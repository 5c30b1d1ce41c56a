/* Groups: size, rank, comparison, rank translation, and building new groups from old ones. */
#include "mpi/mpi_impl.h"

int PMPI_Group_size(MPI_Group group, int *size)
{
    struct skiff_group *g = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_size);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_group(group, &g)) || (rc = skiff_check_ptr(size, "size")))
        return skiff_fail_world(rc);
    *size = g->size;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Group_size)

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    struct skiff_group *g = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_rank);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_group(group, &g)) || (rc = skiff_check_ptr(rank, "rank")))
        return skiff_fail_world(rc);
    *rank = g->rank;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Group_rank)

int PMPI_Group_free(MPI_Group *group)
{
    struct skiff_group *g = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_free);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_ptr(group, "group")) || (rc = skiff_check_group(*group, &g)))
        return skiff_fail_world(rc);
    skiff_group_free(g); /* MPI_GROUP_EMPTY is never destroyed */
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Group_free)

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    struct skiff_group *a = NULL, *b = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_compare);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_group(group1, &a)) || (rc = skiff_check_group(group2, &b)) ||
        (rc = skiff_check_ptr(result, "result")))
        return skiff_fail_world(rc);
    *result = skiff_group_compare(a, b);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Group_compare)

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
    struct skiff_group *a = NULL, *b = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_translate_ranks);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_group(group1, &a)) || (rc = skiff_check_group(group2, &b)) ||
        (rc = skiff_check_array(n, ranks1, "ranks1")) || (rc = skiff_check_array(n, ranks2, "ranks2")) ||
        (rc = skiff_group_translate(a, n, ranks1, b, ranks2)))
        return skiff_fail_world(rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Group_translate_ranks)

/* Hands a group built by core/group.c to the user (newgroup was checked before it was built). */
static int give(int rc, struct skiff_group *g, MPI_Group *newgroup)
{
    if (rc)
        return skiff_fail_world(rc);
    *newgroup = skiff_group_handle(g);
    return MPI_SUCCESS;
}

/* The checks before building a group from group: its handle, the n-element array and the result pointer.
 * A negative n is left to core/group.c, which names it. */
static int check_build(MPI_Group group, int n, const void *array, const char *name, MPI_Group *newgroup,
                       struct skiff_group **g)
{
    int rc;
    if ((rc = skiff_check_group(group, g)) || (rc = skiff_check_array(n, array, name)))
        return rc;
    return skiff_check_ptr(newgroup, "newgroup");
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    struct skiff_group *g = NULL, *out = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_incl);
    SKIFF_REQUIRE_INIT();
    if (!(rc = check_build(group, n, ranks, "ranks", newgroup, &g)))
        rc = skiff_group_incl(g, n, ranks, &out);
    return give(rc, out, newgroup);
}
SKIFF_ALIAS(MPI_Group_incl)

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    struct skiff_group *g = NULL, *out = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_excl);
    SKIFF_REQUIRE_INIT();
    if (!(rc = check_build(group, n, ranks, "ranks", newgroup, &g)))
        rc = skiff_group_excl(g, n, ranks, &out);
    return give(rc, out, newgroup);
}
SKIFF_ALIAS(MPI_Group_excl)

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    struct skiff_group *g = NULL, *out = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_range_incl);
    SKIFF_REQUIRE_INIT();
    if (!(rc = check_build(group, n, ranges, "ranges", newgroup, &g)))
        rc = skiff_group_range(g, n, (const int(*)[3])ranges, 0, &out);
    return give(rc, out, newgroup);
}
SKIFF_ALIAS(MPI_Group_range_incl)

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    struct skiff_group *g = NULL, *out = NULL;
    int rc;
    SKIFF_ENTER(MPI_Group_range_excl);
    SKIFF_REQUIRE_INIT();
    if (!(rc = check_build(group, n, ranges, "ranges", newgroup, &g)))
        rc = skiff_group_range(g, n, (const int(*)[3])ranges, 1, &out);
    return give(rc, out, newgroup);
}
SKIFF_ALIAS(MPI_Group_range_excl)

static int setop(MPI_Group group1, MPI_Group group2, enum skiff_group_setop op, MPI_Group *newgroup)
{
    struct skiff_group *a = NULL, *b = NULL, *out = NULL;
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_group(group1, &a);
    if (!rc && !(rc = skiff_check_group(group2, &b)) && !(rc = skiff_check_ptr(newgroup, "newgroup")))
        rc = skiff_group_setop(a, b, op, &out);
    return give(rc, out, newgroup);
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    SKIFF_ENTER(MPI_Group_union);
    return setop(group1, group2, SKIFF_GROUP_UNION, newgroup);
}
SKIFF_ALIAS(MPI_Group_union)

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    SKIFF_ENTER(MPI_Group_intersection);
    return setop(group1, group2, SKIFF_GROUP_INTERSECTION, newgroup);
}
SKIFF_ALIAS(MPI_Group_intersection)

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    SKIFF_ENTER(MPI_Group_difference);
    return setop(group1, group2, SKIFF_GROUP_DIFFERENCE, newgroup);
}
SKIFF_ALIAS(MPI_Group_difference)
