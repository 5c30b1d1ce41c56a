/* Error handlers on communicators (predefined and user-made, with the MPI-1 names), and error strings. */
#include <stdio.h>
#include <string.h>

#include "core/errhandler.h"
#include "mpi/mpi_impl.h"

/* The body of every *_create_errhandler (and MPI-1's Errhandler_create): fn_name names the argument. */
int skiff_errhandler_create(const void *fn, const char *fn_name, int kind, MPI_Errhandler *errhandler)
{
    int rc = skiff_check_ptr(fn, fn_name);
    if (!rc)
        rc = skiff_check_ptr(errhandler, "errhandler");
    if (rc)
        return skiff_fail_world(rc);
    *errhandler = skiff_eh_create(kind, (skiff_eh_fn)fn);
    if (*errhandler == MPI_ERRHANDLER_NULL)
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory for an error handler"));
    return MPI_SUCCESS;
}

/* Comm_set_errhandler and MPI-1's Errhandler_set. */
static int set_comm_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct skiff_comm *c = NULL;
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_eh_check(errhandler, SKIFF_EH_COMM);
    if (rc)
        return skiff_fail(comm, rc);
    skiff_eh_attach(&c->errhandler, errhandler);
    return MPI_SUCCESS;
}

/* Comm_get_errhandler and MPI-1's Errhandler_get. */
static int get_comm_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct skiff_comm *c = NULL;
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_check_ptr(errhandler, "errhandler");
    if (rc)
        return skiff_fail(comm, rc);
    /* The caller gets a handle of its own, which it gives back with MPI_Errhandler_free. */
    skiff_eh_retain(c->errhandler);
    *errhandler = c->errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Comm_create_errhandler);
    SKIFF_REQUIRE_INIT();
    return skiff_errhandler_create((const void *)comm_errhandler_fn, "comm_errhandler_fn", SKIFF_EH_COMM, errhandler);
}
SKIFF_ALIAS(MPI_Comm_create_errhandler)

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    SKIFF_ENTER(MPI_Comm_set_errhandler);
    return set_comm_errhandler(comm, errhandler);
}
SKIFF_ALIAS(MPI_Comm_set_errhandler)

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Comm_get_errhandler);
    return get_comm_errhandler(comm, errhandler);
}
SKIFF_ALIAS(MPI_Comm_get_errhandler)

/* MPI_SUCCESS once the handler ran (MPI_ERRORS_RETURN included, as MPICH and Open MPI do); a fatal
 * handler does not come back. */
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_call_errhandler);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (rc)
        return skiff_fail(comm, rc);
    MPI_Comm h = c->handle;
    skiff_eh_invoke(c->errhandler, SKIFF_EH_COMM, &h, skiff_comm_label(c), errorcode);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_call_errhandler)

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Errhandler_free);
    /* Callable at any time (MPI-4.1): a session's handler may be freed with no session or MPI_Init live. */
    int rc = skiff_check_ptr(errhandler, "errhandler");
    if (!rc && !skiff_eh_user(*errhandler))
        rc = skiff_eh_check(*errhandler, SKIFF_EH_COMM); /* a predefined one, or the message why not */
    if (rc)
        return skiff_fail_world(rc);
    /* Drops the caller's reference: objects still using the handler keep it alive. Predefined handlers
     * live for the whole run: freeing one only clears the caller's handle. */
    skiff_eh_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Errhandler_free)

/* The MPI-1 names (removed in MPI-3), still called by old codes: the same calls under their own names. */
int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Errhandler_create);
    SKIFF_REQUIRE_INIT();
    return skiff_errhandler_create((const void *)function, "function", SKIFF_EH_COMM, errhandler);
}
SKIFF_ALIAS(MPI_Errhandler_create)

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    SKIFF_ENTER(MPI_Errhandler_get);
    return get_comm_errhandler(comm, errhandler);
}
SKIFF_ALIAS(MPI_Errhandler_get)

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    SKIFF_ENTER(MPI_Errhandler_set);
    return set_comm_errhandler(comm, errhandler);
}
SKIFF_ALIAS(MPI_Errhandler_set)

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
