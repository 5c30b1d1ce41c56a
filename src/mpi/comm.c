/* Communicator queries: rank, size, comparison, group, name. */
#include <string.h>

#include "mpi/mpi_impl.h"

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_rank);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(rank, "rank")))
        return skiff_fail(comm, rc);
    *rank = c->rank;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_rank)

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_size);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(size, "size")))
        return skiff_fail(comm, rc);
    *size = c->size;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_size)

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    struct skiff_comm *a = NULL, *b = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_compare);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm1, &a)) || (rc = skiff_check_comm(comm2, &b)) ||
        (rc = skiff_check_ptr(result, "result")))
        return skiff_fail(comm1, rc);
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    /* Different contexts: the same processes in the same order are only congruent. An intercommunicator
     * compares both of its groups, and never matches an intracommunicator. */
    int g = skiff_group_compare(a->group, b->group);
    if (a->remote || b->remote) {
        int r = a->remote && b->remote ? skiff_group_compare(a->remote, b->remote) : MPI_UNEQUAL;
        g = r > g ? r : g; /* MPI_IDENT < MPI_CONGRUENT < MPI_SIMILAR < MPI_UNEQUAL */
    }
    *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_compare)

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_group);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(group, "group")))
        return skiff_fail(comm, rc);
    /* A group of its own, so that MPI_Group_free of this handle makes exactly this handle invalid. */
    struct skiff_group *g = skiff_group_from(c->group->world, c->group->size);
    if (!g)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", c->size));
    g->session = c->session;
    *group = skiff_group_handle(g);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_group)

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_test_inter);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(flag, "flag")))
        return skiff_fail(comm, rc);
    *flag = c->remote != NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_test_inter)

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_set_name);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(comm_name, "comm_name")))
        return skiff_fail(comm, rc);
    /* Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters, as the standard allows. */
    size_t n = strnlen(comm_name, sizeof c->name - 1);
    memcpy(c->name, comm_name, n);
    c->name[n] = '\0';
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_set_name)

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    struct skiff_comm *c = NULL;
    int rc;
    SKIFF_ENTER(MPI_Comm_get_name);
    SKIFF_REQUIRE_INIT();
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_ptr(comm_name, "comm_name")) ||
        (rc = skiff_check_ptr(resultlen, "resultlen")))
        return skiff_fail(comm, rc);
    size_t n = strlen(c->name);
    memcpy(comm_name, c->name, n + 1);
    *resultlen = (int)n;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_get_name)
