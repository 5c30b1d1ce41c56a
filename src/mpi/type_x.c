/* The MPI_Count forms of the datatype queries (the _x calls and their MPI-4 _c twins, one body each),
 * setting the element count a status reports (for generalized requests and layered libraries), and
 * address arithmetic. */
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"

/* A query of dt (committed or not) with two answers; errors go to MPI_COMM_WORLD's handler. */
static int query2(MPI_Datatype dt, const void *a, const char *an, const void *b, const char *bn,
                  const struct skiff_type **t)
{
    int rc = skiff_check_dtype(dt, 0, t);
    if (!rc)
        rc = skiff_check_ptr(a, an);
    if (!rc && bn)
        rc = skiff_check_ptr(b, bn);
    return skiff_fail_world(rc);
}

static int type_size(MPI_Datatype datatype, MPI_Count *size)
{
    const struct skiff_type *t = NULL;
    int rc = query2(datatype, size, "size", NULL, NULL, &t);
    if (rc)
        return rc;
    *size = (MPI_Count)t->size;
    return MPI_SUCCESS;
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    SKIFF_ENTER(MPI_Type_size_x);
    return type_size(datatype, size);
}
SKIFF_ALIAS(MPI_Type_size_x)

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    SKIFF_ENTER(MPI_Type_size_c);
    return type_size(datatype, size);
}
SKIFF_ALIAS(MPI_Type_size_c)

static int type_extent(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    const struct skiff_type *t = NULL;
    int rc = query2(datatype, lb, "lb", extent, "extent", &t);
    if (rc)
        return rc;
    *lb = (MPI_Count)t->lb;
    *extent = (MPI_Count)t->extent;
    return MPI_SUCCESS;
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    SKIFF_ENTER(MPI_Type_get_extent_x);
    return type_extent(datatype, lb, extent);
}
SKIFF_ALIAS(MPI_Type_get_extent_x)

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    SKIFF_ENTER(MPI_Type_get_extent_c);
    return type_extent(datatype, lb, extent);
}
SKIFF_ALIAS(MPI_Type_get_extent_c)

static int type_true_extent(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    const struct skiff_type *t = NULL;
    int rc = query2(datatype, true_lb, "true_lb", true_extent, "true_extent", &t);
    if (rc)
        return rc;
    *true_lb = (MPI_Count)t->true_lb;
    *true_extent = (MPI_Count)t->true_extent;
    return MPI_SUCCESS;
}

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    SKIFF_ENTER(MPI_Type_get_true_extent_x);
    return type_true_extent(datatype, true_lb, true_extent);
}
SKIFF_ALIAS(MPI_Type_get_true_extent_x)

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    SKIFF_ENTER(MPI_Type_get_true_extent_c);
    return type_true_extent(datatype, true_lb, true_extent);
}
SKIFF_ALIAS(MPI_Type_get_true_extent_c)

static int get_elements(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const struct skiff_type *t = NULL;
    int rc = query2(datatype, count, "count", NULL, NULL, &t);
    if (!rc && !status)
        rc = skiff_fail_world(skiff_err(MPI_ERR_ARG, "status is MPI_STATUS_IGNORE (NULL): there is no status to "
                                                     "count from"));
    if (rc)
        return rc;
    size_t n = skiff_type_elements(t, skiff_status_bytes(status));
    *count = n == SIZE_MAX ? MPI_UNDEFINED : (MPI_Count)n;
    return MPI_SUCCESS;
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    SKIFF_ENTER(MPI_Get_elements_x);
    return get_elements(status, datatype, count);
}
SKIFF_ALIAS(MPI_Get_elements_x)

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    SKIFF_ENTER(MPI_Get_elements_c);
    return get_elements(status, datatype, count);
}
SKIFF_ALIAS(MPI_Get_elements_c)

/* The packed bytes that hold n basic elements of t: whole elements, then the leading runs of one. */
static int bytes_of(const struct skiff_type *t, size_t n, size_t *bytes)
{
    if (n == 0) {
        *bytes = 0;
        return MPI_SUCCESS;
    }
    if (t->nelems == 0)
        return skiff_err(MPI_ERR_ARG, "count %zu: datatype %s holds no basic elements", n, t->name);
    size_t b = n / t->nelems * t->size, rest = n % t->nelems;
    for (size_t i = 0; i < t->nruns && rest; i++) {
        size_t k = rest < t->runs[i].count ? rest : t->runs[i].count;
        b += k * t->runs[i].size;
        rest -= k;
    }
    *bytes = b;
    return MPI_SUCCESS;
}

static int set_elements(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    const struct skiff_type *t = NULL;
    size_t b = 0;
    int rc = skiff_check_ptr(status, "status");
    if (!rc)
        rc = skiff_check_dtype(datatype, 0, &t);
    if (!rc && count < 0)
        rc = skiff_err(MPI_ERR_COUNT, "invalid count %lld (must be >= 0)", (long long)count);
    if (!rc && t->size && (size_t)count / (t->nelems ? t->nelems : 1) > SIZE_MAX / 2 / t->size)
        rc = skiff_err(MPI_ERR_COUNT, "count %lld is more than a status can describe", (long long)count);
    if (!rc)
        rc = bytes_of(t, (size_t)count, &b);
    if (rc)
        return skiff_fail_world(rc);
    status->MPI_internal[SKIFF_ST_BYTES_LO] = (int)(uint32_t)b;
    status->MPI_internal[SKIFF_ST_BYTES_HI] = (int)(uint32_t)((uint64_t)b >> 32);
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    SKIFF_ENTER(MPI_Status_set_elements);
    return set_elements(status, datatype, count);
}
SKIFF_ALIAS(MPI_Status_set_elements)

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    SKIFF_ENTER(MPI_Status_set_elements_x);
    return set_elements(status, datatype, count);
}
SKIFF_ALIAS(MPI_Status_set_elements_x)

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    SKIFF_ENTER(MPI_Status_set_elements_c);
    return set_elements(status, datatype, count);
}
SKIFF_ALIAS(MPI_Status_set_elements_c)

/* Addresses are integers here (a flat address space): the arithmetic is plain, wrapping as addresses
 * do rather than overflowing as signed integers would. */
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    SKIFF_ENTER(MPI_Aint_add);
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
SKIFF_ALIAS(MPI_Aint_add)

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    SKIFF_ENTER(MPI_Aint_diff);
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
SKIFF_ALIAS(MPI_Aint_diff)
