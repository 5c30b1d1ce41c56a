/* Datatype queries and counting what a status describes. */
#include <stdio.h>
#include <string.h>

#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"

static int get_type(MPI_Datatype dt, const struct skiff_type **t)
{
    *t = skiff_type_get(dt);
    if (!*t)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_TYPE, "invalid datatype %s",
                                                    dt == MPI_DATATYPE_NULL ? "(MPI_DATATYPE_NULL)" : "(not a datatype)"));
    return MPI_SUCCESS;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    const struct skiff_type *t;
    SKIFF_ENTER("MPI_Get_count");
    int rc = get_type(datatype, &t);
    if (rc)
        return rc;
    size_t bytes = skiff_status_bytes(status);
    *count = bytes % t->extent ? MPI_UNDEFINED : (int)(bytes / t->extent);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_count)

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    const struct skiff_type *t;
    SKIFF_ENTER("MPI_Get_elements");
    int rc = get_type(datatype, &t);
    if (rc)
        return rc;
    size_t bytes = skiff_status_bytes(status);
    size_t whole = bytes / t->extent, rest = bytes % t->extent;
    /* A pair type cut after its first member still delivered one basic element. */
    size_t n = whole * (size_t)t->nbasic;
    if (rest == 0)
        *count = (int)n;
    else if (t->nbasic == 2 && rest == t->first_size)
        *count = (int)(n + 1);
    else
        *count = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_elements)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    const struct skiff_type *t;
    SKIFF_ENTER("MPI_Type_size");
    int rc = get_type(datatype, &t);
    if (rc)
        return rc;
    *size = (int)t->size;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_size)

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    const struct skiff_type *t;
    SKIFF_ENTER("MPI_Type_get_name");
    int rc = get_type(datatype, &t);
    if (rc)
        return rc;
    *resultlen = snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", t->name);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_get_name)
