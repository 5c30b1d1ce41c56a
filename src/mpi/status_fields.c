/* Statuses filled by hand (a generalized request's query function, a layered library) and read
 * through calls instead of fields (MPI-4.1's getters, for bindings that cannot see the struct). The
 * hidden fields are skiff's (core/pt2pt.h): byte count, cancelled flag. Local calls: no MPI_Init needed. */
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"

static int need_status(const void *status)
{
    return skiff_fail_world(status ? MPI_SUCCESS
                                    : skiff_err(MPI_ERR_ARG, "status is NULL (MPI_STATUS_IGNORE): there is no "
                                                "status to read or write"));
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    SKIFF_ENTER(MPI_Status_set_cancelled);
    int rc = need_status(status);
    if (!rc)
        status->MPI_internal[SKIFF_ST_CANCELLED] = flag != 0;
    return rc;
}
SKIFF_ALIAS(MPI_Status_set_cancelled)

/* The three public fields: a setter and a getter each. */
#define STATUS_FIELD(Name, field)                                                                        \
    int PMPI_Status_set_##Name(MPI_Status *status, int Name)                                             \
    {                                                                                                    \
        SKIFF_ENTER(MPI_Status_set_##Name);                                                              \
        int rc = need_status(status);                                                                    \
        if (!rc)                                                                                         \
            status->field = Name;                                                                        \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(MPI_Status_set_##Name)                                                                   \
    int PMPI_Status_get_##Name(const MPI_Status *status, int *Name)                                      \
    {                                                                                                    \
        SKIFF_ENTER(MPI_Status_get_##Name);                                                              \
        int rc = need_status(status);                                                                    \
        if (!rc && (rc = skiff_fail_world(skiff_check_ptr(Name, #Name))) == MPI_SUCCESS)                 \
            *Name = status->field;                                                                       \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(MPI_Status_get_##Name)

STATUS_FIELD(source, MPI_SOURCE)
STATUS_FIELD(tag, MPI_TAG)
STATUS_FIELD(error, MPI_ERROR)
