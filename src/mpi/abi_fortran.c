/* MPI-5.0's Fortran registration calls. A Fortran binding built on the C ABI asks what the library
 * assumes of the Fortran compiler, and tells it when the library does not know. skiff knows: its Fortran
 * datatypes are laid out as gfortran lays them out (default LOGICAL, INTEGER and REAL of 4 bytes, DOUBLE
 * PRECISION of 8, .TRUE. = 1 and .FALSE. = 0 in every LOGICAL kind), and its reductions on LOGICAL
 * rely on that. So the getters always answer (the info object is never MPI_INFO_NULL, is_set is
 * always true), and the setters return MPI_ERR_ABI, as the standard says a setter does once the
 * values are known. A compiler whose .TRUE. is not 1 (ifort's default is -1) needs its
 * -fpscomp logicals option or equivalent with skiff. Callable before MPI_Init and after MPI_Finalize. */
#include <stdio.h>
#include <string.h>

#include "core/datatype.h"
#include "mpi/mpi_impl.h"

/* The optional Fortran types, with the info key that says whether skiff supports each. */
static const struct {
    const char *key;
    MPI_Datatype type;
} optional[] = {
    {"mpi_logical1_supported", MPI_LOGICAL1},   {"mpi_logical2_supported", MPI_LOGICAL2},
    {"mpi_logical4_supported", MPI_LOGICAL4},   {"mpi_logical8_supported", MPI_LOGICAL8},
    {"mpi_logical16_supported", MPI_LOGICAL16}, {"mpi_integer1_supported", MPI_INTEGER1},
    {"mpi_integer2_supported", MPI_INTEGER2},   {"mpi_integer4_supported", MPI_INTEGER4},
    {"mpi_integer8_supported", MPI_INTEGER8},   {"mpi_integer16_supported", MPI_INTEGER16},
    {"mpi_real2_supported", MPI_REAL2},         {"mpi_real4_supported", MPI_REAL4},
    {"mpi_real8_supported", MPI_REAL8},         {"mpi_real16_supported", MPI_REAL16},
    {"mpi_complex4_supported", MPI_COMPLEX4},   {"mpi_complex8_supported", MPI_COMPLEX8},
    {"mpi_complex16_supported", MPI_COMPLEX16}, {"mpi_complex32_supported", MPI_COMPLEX32},
    {"mpi_double_complex_supported", MPI_DOUBLE_COMPLEX},
};

/* The default kinds' sizes, from the datatypes themselves so the two cannot disagree. */
static const struct {
    const char *key;
    MPI_Datatype type;
} sizes[] = {
    {"mpi_logical_size", MPI_LOGICAL},
    {"mpi_integer_size", MPI_INTEGER},
    {"mpi_real_size", MPI_REAL},
    {"mpi_double_precision_size", MPI_DOUBLE_PRECISION},
};

/* A predefined type is supported when it has a type behind it (MPI_REAL2 and MPI_COMPLEX4 only have
 * their ABI handles: no compiler here has a 2-byte REAL). */
static size_t type_size(MPI_Datatype dt)
{
    const struct skiff_type *t = skiff_type_get(dt);
    return t ? t->size : 0;
}

static int fill(struct skiff_info *in)
{
    char v[24];
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        snprintf(v, sizeof v, "%zu", type_size(sizes[k].type));
        if (skiff_info_set(in, sizes[k].key, v))
            return MPI_ERR_NO_MEM;
    }
    for (size_t k = 0; k < sizeof optional / sizeof optional[0]; k++)
        if (skiff_info_set(in, optional[k].key, type_size(optional[k].type) ? "true" : "false"))
            return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

int PMPI_Abi_get_fortran_info(MPI_Info *info)
{
    SKIFF_ENTER(MPI_Abi_get_fortran_info);
    int rc = skiff_check_ptr(info, "info");
    if (rc)
        return skiff_fail_world(rc);
    struct skiff_info *in = skiff_info_new();
    if (!in || fill(in)) {
        if (in)
            skiff_info_free(in);
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory for the Fortran info object"));
    }
    *info = skiff_info_handle(in);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Abi_get_fortran_info)

int PMPI_Abi_set_fortran_info(MPI_Info info)
{
    SKIFF_ENTER(MPI_Abi_set_fortran_info);
    int rc = skiff_check_info(info);
    if (!rc)
        rc = skiff_err(MPI_ERR_ABI, "the Fortran type sizes are already known (skiff's Fortran datatypes are laid out "
                       "as gfortran lays them out: see MPI_Abi_get_fortran_info)");
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Abi_set_fortran_info)

/* A LOGICAL kind's size: a power of two; skiff has LOGICAL kinds of 1 to 16 bytes. */
static int check_logical_size(int logical_size)
{
    if (logical_size > 0 && (logical_size & (logical_size - 1)) == 0)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ARG, "logical_size %d is not a power of two", logical_size);
}

int PMPI_Abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false, int *is_set)
{
    SKIFF_ENTER(MPI_Abi_get_fortran_booleans);
    int rc = check_logical_size(logical_size);
    if (!rc && !(rc = skiff_check_ptr(logical_true, "logical_true")) &&
        !(rc = skiff_check_ptr(logical_false, "logical_false")))
        rc = skiff_check_ptr(is_set, "is_set");
    if (rc)
        return skiff_fail_world(rc);
    *is_set = logical_size <= 16;
    if (*is_set) {
        /* .TRUE. is the integer 1 of that size, .FALSE. all zero bytes: write them as the host stores an
         * integer (little-endian here, as gfortran does). */
        unsigned char one[16] = {0};
        memset(logical_false, 0, (size_t)logical_size);
        one[0] = 1;
        memcpy(logical_true, one, (size_t)logical_size);
    }
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Abi_get_fortran_booleans)

int PMPI_Abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false)
{
    SKIFF_ENTER(MPI_Abi_set_fortran_booleans);
    int rc = check_logical_size(logical_size);
    if (!rc && !(rc = skiff_check_ptr(logical_true, "logical_true")))
        rc = skiff_check_ptr(logical_false, "logical_false");
    if (!rc)
        rc = skiff_err(MPI_ERR_ABI, "the LOGICAL values are already known (.TRUE. = 1, .FALSE. = 0, as gfortran has "
                       "them: see MPI_Abi_get_fortran_booleans)");
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Abi_set_fortran_booleans)
