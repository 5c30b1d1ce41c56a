/* MPI-5.0's Fortran registration calls: skiff knows its Fortran layout (gfortran's), so the getters answer
 * before MPI_Init, in between and after MPI_Finalize, agree with the datatypes themselves, and the setters
 * report MPI_ERR_ABI. MPICH 4.0 and Open MPI 4.1 predate MPI-5.0: under them the test says so. */
#include "testutil.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 5

static void check_info(void)
{
    MPI_Info info = MPI_INFO_NULL;
    CHECK_MPI(MPI_Abi_get_fortran_info(&info));
    CHECK_MSG(info != MPI_INFO_NULL, "MPI_Abi_get_fortran_info gave MPI_INFO_NULL: skiff knows its layout");
    static const struct {
        const char *key;
        MPI_Datatype type;
    } sizes[] = {{"mpi_logical_size", MPI_LOGICAL},
                 {"mpi_integer_size", MPI_INTEGER},
                 {"mpi_real_size", MPI_REAL},
                 {"mpi_double_precision_size", MPI_DOUBLE_PRECISION}};
    for (int k = 0; k < 4; k++) {
        char v[32];
        int len = (int)sizeof v, flag = 0, size = -1;
        CHECK_MPI(MPI_Info_get_string(info, sizes[k].key, &len, v, &flag));
        CHECK_MSG(flag, "key %s missing", sizes[k].key);
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (initialized) {
            MPI_Type_size(sizes[k].type, &size);
            CHECK_MSG(atoi(v) == size, "%s is %s but the datatype has %d bytes", sizes[k].key, v, size);
        }
    }
    char v[32];
    int len = (int)sizeof v, flag = 0;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_real16_supported", &len, v, &flag));
    CHECK_MSG(flag && strcmp(v, "true") == 0, "mpi_real16_supported is '%s'", flag ? v : "(missing)");
    len = (int)sizeof v;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_real2_supported", &len, v, &flag));
    CHECK_MSG(flag && strcmp(v, "false") == 0, "mpi_real2_supported is '%s'", flag ? v : "(missing)");
    MPI_Info_free(&info);
}

static void check_booleans(void)
{
    for (int size = 1; size <= 16; size *= 2) {
        unsigned char t[16], f[16], want_t[16] = {1}, zero[16] = {0};
        memset(t, 0xee, sizeof t);
        memset(f, 0xee, sizeof f);
        int is_set = 0;
        CHECK_MPI(MPI_Abi_get_fortran_booleans(size, t, f, &is_set));
        CHECK_MSG(is_set, "LOGICAL of %d bytes: is_set false", size);
        CHECK_MSG(memcmp(t, want_t, (size_t)size) == 0 && memcmp(f, zero, (size_t)size) == 0,
                  "LOGICAL of %d bytes: .TRUE./.FALSE. not 1/0", size);
        CHECK_MSG(t[size % 16] == 0xee || size == 16, "LOGICAL of %d bytes: wrote past the value", size);
    }
    unsigned char t[4] = {1}, f[4] = {0};
    int ec = -1;
    MPI_Error_class(MPI_Abi_set_fortran_booleans(4, t, f), &ec);
    CHECK_MSG(ec == MPI_ERR_ABI, "set_fortran_booleans: class %d, want MPI_ERR_ABI", ec);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Error_class(MPI_Abi_set_fortran_info(info), &ec);
    CHECK_MSG(ec == MPI_ERR_ABI, "set_fortran_info: class %d, want MPI_ERR_ABI", ec);
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    check_info(); /* before MPI_Init: allowed, like MPI_Get_version */
    tu_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_info();
    check_booleans();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return tu_finish("abi_fortran");
}

#else
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("abi_fortran: MPI %d.%d predates the MPI-5.0 ABI's Fortran calls: nothing to test\n", MPI_VERSION,
               MPI_SUBVERSION);
    MPI_Finalize();
    return 0;
}
#endif
