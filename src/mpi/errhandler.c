/* Error handlers and error strings. */
#include <stdio.h>
#include <string.h>

#include "mpi/mpi_impl.h"

/* skiff has the predefined handlers only. */
static int check_handler(MPI_Errhandler eh)
{
    if (SKIFF_LIKELY(eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN || eh == MPI_ERRORS_ABORT))
        return MPI_SUCCESS;
    if (eh == MPI_ERRHANDLER_NULL)
        return skiff_err(MPI_ERR_ERRHANDLER, "invalid error handler MPI_ERRHANDLER_NULL");
    return skiff_err(MPI_ERR_ERRHANDLER, "invalid error handler %p (not MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN "
                     "or MPI_ERRORS_ABORT)", (void *)eh);
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_set_errhandler);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_handler(errhandler);
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
    if (!rc)
        rc = skiff_check_ptr(errhandler, "errhandler");
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
    int rc = skiff_check_ptr(errhandler, "errhandler");
    if (rc || (rc = check_handler(*errhandler)))
        return skiff_fail_world(rc);
    /* Predefined handlers live for the whole run: freeing one only clears the caller's handle. */
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Errhandler_free)

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    SKIFF_ENTER(MPI_Error_string);
    int rc = skiff_check_ptr(string, "string");
    if (rc || (rc = skiff_check_ptr(resultlen, "resultlen")))
        return skiff_fail_world(rc);
    if (skiff_err_string(errorcode, string) != 0) {
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "unknown error code %d", errorcode);
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "%d is not an MPI error code", errorcode));
    }
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Error_string)

int PMPI_Error_class(int errorcode, int *errorclass)
{
    char tmp[MPI_MAX_ERROR_STRING];
    SKIFF_ENTER(MPI_Error_class);
    int rc = skiff_check_ptr(errorclass, "errorclass");
    if (rc)
        return skiff_fail_world(rc);
    if (skiff_err_string(errorcode, tmp) != 0)
        return skiff_fail_world(skiff_err(MPI_ERR_ARG, "%d is not an MPI error code", errorcode));
    *errorclass = skiff_err_class(errorcode);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Error_class)
