/* Error classes, codes and strings the program adds and removes (MPI_Add_error_* and MPI-4.1's
 * MPI_Remove_error_*). Local calls: each process numbers its own, from MPI_ERR_LASTCODE + 1 up, and
 * MPI_LASTUSEDCODE on MPI_COMM_WORLD follows the largest. MPI-4.1 lets them be called at any time, before
 * MPI_Init and after MPI_Finalize too (sessions may come and go around them), so none requires MPI_Init. */
#include <string.h>

#include "mpi/mpi_impl.h"

static int out_of_values(void)
{
    return skiff_err(MPI_ERR_NO_MEM, "out of memory (or of error values) for a new error class or code");
}

/* A value MPI_Add_error_class or MPI_Add_error_code gave and no Remove call took back; what names it
 * as the standard spells it ("errorcode", "errorclass"). */
static int check_added(int code, const char *what)
{
    if (SKIFF_LIKELY(skiff_err_user_class(code) >= 0))
        return MPI_SUCCESS;
    if (code >= 0 && code <= MPI_ERR_LASTCODE)
        return skiff_err(MPI_ERR_ARG, "%s %d is one of MPI's own (<= MPI_ERR_LASTCODE %d): only values added by "
                         "MPI_Add_error_class or MPI_Add_error_code can be changed", what, code, MPI_ERR_LASTCODE);
    return skiff_err(MPI_ERR_ARG, "%s %d was not added by MPI_Add_error_class or MPI_Add_error_code, or was "
                     "removed", what, code);
}

int PMPI_Add_error_class(int *errorclass)
{
    SKIFF_ENTER(MPI_Add_error_class);
    int rc = skiff_check_ptr(errorclass, "errorclass");
    if (!rc && skiff_err_user_add(0, errorclass) != 0)
        rc = out_of_values();
    return rc ? skiff_fail_world(rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Add_error_class)

/* errorclass: a predefined class other than MPI_SUCCESS, or an added class (not an added code). */
static int check_class(int errorclass)
{
    if (errorclass > MPI_SUCCESS && errorclass <= MPI_ERR_ABI)
        return MPI_SUCCESS;
    if (skiff_err_user_is_class(errorclass))
        return MPI_SUCCESS;
    if (skiff_err_user_class(errorclass) >= 0)
        return skiff_err(MPI_ERR_ARG, "errorclass %d is an added error code (of class %d), not a class", errorclass,
                         skiff_err_user_class(errorclass));
    return skiff_err(MPI_ERR_ARG, "errorclass %d is not an error class (MPI's are 1..%d; added ones come from "
                     "MPI_Add_error_class)", errorclass, MPI_ERR_ABI);
}

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    SKIFF_ENTER(MPI_Add_error_code);
    int rc = check_class(errorclass);
    if (!rc)
        rc = skiff_check_ptr(errorcode, "errorcode");
    if (!rc && skiff_err_user_add(errorclass, errorcode) != 0)
        rc = out_of_values();
    return rc ? skiff_fail_world(rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Add_error_code)

int PMPI_Add_error_string(int errorcode, const char *string)
{
    SKIFF_ENTER(MPI_Add_error_string);
    int rc = check_added(errorcode, "errorcode");
    if (!rc)
        rc = skiff_check_ptr(string, "string");
    size_t len = rc ? 0 : strnlen(string, MPI_MAX_ERROR_STRING);
    if (!rc && len >= MPI_MAX_ERROR_STRING)
        rc = skiff_err(MPI_ERR_ARG, "string is longer than MPI_MAX_ERROR_STRING - 1 (%d) characters",
                       MPI_MAX_ERROR_STRING - 1);
    if (!rc && skiff_err_user_set_string(errorcode, string) != 0)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for an error string of %zu characters", len);
    return rc ? skiff_fail_world(rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Add_error_string)

int PMPI_Remove_error_class(int errorclass)
{
    SKIFF_ENTER(MPI_Remove_error_class);
    int rc = check_added(errorclass, "errorclass");
    if (!rc && !skiff_err_user_is_class(errorclass))
        rc = skiff_err(MPI_ERR_ARG, "errorclass %d is an added error code (of class %d): remove it with "
                       "MPI_Remove_error_code", errorclass, skiff_err_user_class(errorclass));
    int codes = rc ? 0 : skiff_err_user_live_codes(errorclass);
    if (codes)
        rc = skiff_err(MPI_ERR_ARG, "error class %d still has %d error code%s: remove them first", errorclass,
                       codes, codes == 1 ? "" : "s");
    if (rc)
        return skiff_fail_world(rc);
    skiff_err_user_remove(errorclass); /* with its string, if it has one */
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Remove_error_class)

int PMPI_Remove_error_code(int errorcode)
{
    SKIFF_ENTER(MPI_Remove_error_code);
    int rc = check_added(errorcode, "errorcode");
    if (!rc && skiff_err_user_is_class(errorcode))
        rc = skiff_err(MPI_ERR_ARG, "errorcode %d is an added error class: remove it with MPI_Remove_error_class",
                       errorcode);
    if (!rc && skiff_err_user_has_string(errorcode))
        rc = skiff_err(MPI_ERR_ARG, "error code %d still has its string: remove it first with "
                       "MPI_Remove_error_string", errorcode);
    if (rc)
        return skiff_fail_world(rc);
    skiff_err_user_remove(errorcode);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Remove_error_code)

int PMPI_Remove_error_string(int errorcode)
{
    SKIFF_ENTER(MPI_Remove_error_string);
    int rc = check_added(errorcode, "errorcode");
    if (!rc && !skiff_err_user_has_string(errorcode))
        rc = skiff_err(MPI_ERR_ARG, "error code %d has no string (MPI_Add_error_string gives one)", errorcode);
    if (rc)
        return skiff_fail_world(rc);
    skiff_err_user_set_string(errorcode, NULL);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Remove_error_string)
