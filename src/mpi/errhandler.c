/* Error handlers and error strings. */
#include <stdio.h>
#include <string.h>

#include "mpi/mpi_impl.h"

static int valid_handler(MPI_Errhandler eh)
{
    return eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN || eh == MPI_ERRORS_ABORT;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_set_errhandler);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !valid_handler(errhandler))
        rc = skiff_err(MPI_ERR_ERRHANDLER, "invalid error handler %p", (void *)errhandler);
    if (rc)
        return skiff_fail(comm, rc);
    c->errhandler = errhandler;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_set_errhandler)

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_get_errhandler);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (rc)
        return skiff_fail(comm, rc);
    *errhandler = c->errhandler;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_get_errhandler)

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Errhandler_free);
    SKIFF_REQUIRE_INIT();
    if (!valid_handler(*errhandler))
        return skiff_fail(MPI_COMM_WORLD,
                          skiff_err(MPI_ERR_ERRHANDLER, "invalid error handler %p", (void *)*errhandler));
    /* Predefined handlers live for the whole run: freeing one only clears the caller's handle. */
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Errhandler_free)

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    SKIFF_ENTER(MPI_Error_string);
    if (skiff_err_string(errorcode, string) != 0) {
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "unknown error code %d", errorcode);
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_ARG, "%d is not an MPI error code", errorcode));
    }
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Error_string)

int PMPI_Error_class(int errorcode, int *errorclass)
{
    char tmp[MPI_MAX_ERROR_STRING];
    SKIFF_ENTER(MPI_Error_class);
    if (skiff_err_string(errorcode, tmp) != 0)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_ARG, "%d is not an MPI error code", errorcode));
    *errorclass = skiff_err_class(errorcode);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Error_class)
