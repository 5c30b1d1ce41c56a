/* Statuses as Fortran 77 arrays of MPI_F_STATUS_SIZE integers: source, tag and error at the ABI's
 * indices, then the hidden fields in order, so a status survives the round trip whole (MPI_Get_count
 * still reads it); also mpi_f08's TYPE(MPI_Status). Unprofiled, like the handle conversions. */
#include <string.h>

#include "mpi/mpi_impl.h"

#define HIDDEN (sizeof ((MPI_Status *)0)->MPI_internal / sizeof(int))
_Static_assert(MPI_F_ERROR + 1 + HIDDEN == MPI_F_STATUS_SIZE && MPI_F_SOURCE == 0 && MPI_F_TAG == 1,
               "a Fortran status is source, tag, error, then the hidden fields");

/* Set by libmpifort when it is loaded (fortran_util.c); null without it. */
MPI_Fint *MPI_F_STATUS_IGNORE = NULL;
MPI_Fint *MPI_F_STATUSES_IGNORE = NULL;
MPI_F08_status *MPI_F08_STATUS_IGNORE = NULL;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = NULL;

/* A null pointer, or one of the Fortran "ignore" objects: there is no status to convert (erroneous). */
static int check_one(const void *p, const char *name)
{
    if (p && (p == MPI_F_STATUS_IGNORE || p == MPI_F_STATUSES_IGNORE))
        return skiff_err(MPI_ERR_ARG, "%s is MPI_F_STATUS_IGNORE or MPI_F_STATUSES_IGNORE: there is no status "
                                      "to convert", name);
    return skiff_check_ptr(p, name);
}

static int check(const void *from, const char *from_name, const void *to, const char *to_name)
{
    int rc = check_one(from, from_name);
    return skiff_fail_world(rc ? rc : check_one(to, to_name));
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Status_c2f";
    int rc = check(c_status, "c_status", f_status, "f_status");
    if (rc)
        return rc;
    f_status[MPI_F_SOURCE] = c_status->MPI_SOURCE;
    f_status[MPI_F_TAG] = c_status->MPI_TAG;
    f_status[MPI_F_ERROR] = c_status->MPI_ERROR;
    for (size_t i = 0; i < HIDDEN; i++)
        f_status[MPI_F_ERROR + 1 + i] = c_status->MPI_internal[i];
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Status_c2f)

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Status_f2c";
    int rc = check(f_status, "f_status", c_status, "c_status");
    if (rc)
        return rc;
    c_status->MPI_SOURCE = f_status[MPI_F_SOURCE];
    c_status->MPI_TAG = f_status[MPI_F_TAG];
    c_status->MPI_ERROR = f_status[MPI_F_ERROR];
    for (size_t i = 0; i < HIDDEN; i++)
        c_status->MPI_internal[i] = f_status[MPI_F_ERROR + 1 + i];
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Status_f2c)

/* TYPE(MPI_Status) of mpi_f08 (MPI_F08_status in C): the same MPI_Fints in the same order as the Fortran 77
 * array, so the conversions are copies field by field. */
_Static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint) &&
                   offsetof(MPI_F08_status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
                   offsetof(MPI_F08_status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
                   offsetof(MPI_F08_status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
               "an MPI_F08_status is laid out as a Fortran 77 status array");

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Status_c2f08";
    int rc = check(c_status, "c_status", f08_status, "f08_status");
    if (rc)
        return rc;
    f08_status->MPI_SOURCE = c_status->MPI_SOURCE;
    f08_status->MPI_TAG = c_status->MPI_TAG;
    f08_status->MPI_ERROR = c_status->MPI_ERROR;
    for (size_t i = 0; i < HIDDEN; i++)
        f08_status->MPI_internal[i] = c_status->MPI_internal[i];
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Status_c2f08)

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Status_f082c";
    int rc = check(f08_status, "f08_status", c_status, "c_status");
    if (rc)
        return rc;
    c_status->MPI_SOURCE = f08_status->MPI_SOURCE;
    c_status->MPI_TAG = f08_status->MPI_TAG;
    c_status->MPI_ERROR = f08_status->MPI_ERROR;
    for (size_t i = 0; i < HIDDEN; i++)
        c_status->MPI_internal[i] = f08_status->MPI_internal[i];
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Status_f082c)

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Status_f2f08";
    int rc = check(f_status, "f_status", f08_status, "f08_status");
    if (!rc)
        memcpy(f08_status, f_status, sizeof *f08_status);
    return rc;
}
SKIFF_ALIAS(MPI_Status_f2f08)

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    SKIFF_MT_GUARD();
    skiff_call = "MPI_Status_f082f";
    int rc = check(f08_status, "f08_status", f_status, "f_status");
    if (!rc)
        memcpy(f_status, f08_status, sizeof *f08_status);
    return rc;
}
SKIFF_ALIAS(MPI_Status_f082f)
