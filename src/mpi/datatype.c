/* Datatype queries, lifetimes, and counting what a status describes. */
#include <stdio.h>

#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"
#include "core/type_extra.h"

/* A query: a live datatype (committed or not) and somewhere to put the answer. Errors of calls
 * without a communicator go to MPI_COMM_WORLD's handler. */
static int get_query(MPI_Datatype dt, const void *out, const char *name, const struct skiff_type **t)
{
    int rc = skiff_check_dtype(dt, 0, t);
    return skiff_fail_world(rc ? rc : skiff_check_ptr(out, name));
}

/* What the status of a receive says about elements of dt. MPI_STATUS_IGNORE has nothing to say. */
static int get_counted(const MPI_Status *status, MPI_Datatype dt, const void *count, const struct skiff_type **t)
{
    int rc = get_query(dt, count, "count", t);
    if (rc || status)
        return rc;
    return skiff_fail_world(skiff_err(MPI_ERR_ARG, "status is MPI_STATUS_IGNORE (NULL): there is no status to "
                                                   "count from"));
}

/* A query with two answers. */
static int get_query2(MPI_Datatype dt, const void *out1, const char *name1, const void *out2, const char *name2,
                      const struct skiff_type **t)
{
    int rc = get_query(dt, out1, name1, t);
    return rc ? rc : skiff_fail_world(skiff_check_ptr(out2, name2));
}

/* The datatype behind a handle the call updates (commit, free). */
static int get_updated(const MPI_Datatype *datatype, const struct skiff_type **t)
{
    int rc = skiff_check_ptr(datatype, "datatype");
    return skiff_fail_world(rc ? rc : skiff_check_dtype(*datatype, 0, t));
}

/* Whole elements of t in what the status describes; MPI_UNDEFINED if that is not a whole number, or more
 * than max (INT_MAX for the int form). */
static MPI_Count count_of(const MPI_Status *status, const struct skiff_type *t, MPI_Count max)
{
    size_t bytes = skiff_status_bytes(status);
    if (t->size == 0)
        return 0;
    return bytes % t->size || bytes / t->size > (size_t)max ? MPI_UNDEFINED : (MPI_Count)(bytes / t->size);
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Get_count);
    int rc = get_counted(status, datatype, count, &t);
    if (rc)
        return rc;
    *count = (int)count_of(status, t, INT_MAX);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_count)

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Get_count_c);
    int rc = get_counted(status, datatype, count, &t);
    if (rc)
        return rc;
    *count = count_of(status, t, INT64_MAX);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_count_c)

/* Basic elements: a message that ends inside an element of datatype still counts the whole basic
 * elements it delivered. */
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Get_elements);
    int rc = get_counted(status, datatype, count, &t);
    if (rc)
        return rc;
    size_t n = skiff_type_elements(t, skiff_status_bytes(status));
    *count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_elements)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_size);
    int rc = get_query(datatype, size, "size", &t);
    if (rc)
        return rc;
    *size = t->size > INT_MAX ? MPI_UNDEFINED : (int)t->size;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_size)

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_get_name);
    int rc = get_query2(datatype, type_name, "type_name", resultlen, "resultlen", &t);
    if (rc)
        return rc;
    *resultlen = snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", skiff_type_name(t));
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_get_name)

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_get_extent);
    int rc = get_query2(datatype, lb, "lb", extent, "extent", &t);
    if (rc)
        return rc;
    *lb = t->lb;
    *extent = (MPI_Aint)t->extent;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_get_extent)

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_get_true_extent);
    int rc = get_query2(datatype, true_lb, "true_lb", true_extent, "true_extent", &t);
    if (rc)
        return rc;
    *true_lb = t->true_lb;
    *true_extent = (MPI_Aint)t->true_extent;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_get_true_extent)

/* MPI-1 forms of MPI_Type_get_extent, still in real codes. */
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_extent);
    int rc = get_query(datatype, extent, "extent", &t);
    if (rc)
        return rc;
    *extent = (MPI_Aint)t->extent;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_extent)

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_lb);
    int rc = get_query(datatype, displacement, "displacement", &t);
    if (rc)
        return rc;
    *displacement = t->lb;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_lb)

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_ub);
    int rc = get_query(datatype, displacement, "displacement", &t);
    if (rc)
        return rc;
    *displacement = t->lb + (MPI_Aint)t->extent;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_ub)

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_commit);
    int rc = get_updated(datatype, &t);
    if (rc)
        return rc;
    skiff_type_commit(t); /* flattening happened at construction: nothing left to do */
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_commit)

int PMPI_Type_free(MPI_Datatype *datatype)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_free);
    int rc = get_updated(datatype, &t);
    if (rc)
        return rc;
    if (skiff_type_fixed(t))
        return skiff_fail_world(skiff_err(MPI_ERR_TYPE, "cannot free the predefined datatype %s%s", t->name,
                                          t->predefined ? "" : " (made by MPI_Type_create_f90_*)"));
    if ((rc = skiff_type_delete_attrs(t)))
        return skiff_fail_world(rc);
    skiff_type_free(t); /* receives still pending with it keep their own reference */
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_free)

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const struct skiff_type *t = NULL;
    struct skiff_type *n = NULL;
    SKIFF_ENTER(MPI_Type_dup);
    int rc = get_query(oldtype, newtype, "newtype", &t);
    if (rc)
        return rc;
    if ((rc = skiff_type_dup(t, &n)))
        return skiff_fail_world(rc);
    if ((rc = skiff_type_record(n, &(struct skiff_type_record){MPI_COMBINER_DUP, {{0}}, NULL, 0, &oldtype, 1})) ||
        (rc = skiff_type_copy_attrs(t, n))) {
        skiff_type_free(n);
        return skiff_fail_world(rc);
    }
    *newtype = skiff_type_handle(n);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_dup)
