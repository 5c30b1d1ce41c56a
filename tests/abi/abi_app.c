/* A program of the MPI-5.0 standard ABI: built against tests/abi/mpi_abi_ref.h (written from the MPI
 * Forum's reference header, not skiff's mpi.h) and linked with -lmpi_abi (tests/abi/abi_lib.sh). It checks
 * that handles, datatypes, ops, statuses, wildcards and error classes mean on skiff what the ABI says:
 * a ring of doubles received with MPI_ANY_SOURCE, an allreduce and a bcast of ints, type sizes, a bad
 * rank answered with MPI_ERR_RANK, and MPI_Abi_get_version / MPI_Abi_get_info. */
#include <stdio.h>
#include <stdlib.h>

#include "mpi_abi_ref.h"

static int failures;

#define EXPECT(cond)                                                                                     \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            fprintf(stderr, "FAIL [abi_app] %s:%d: %s\n", __FILE__, __LINE__, #cond);                    \
            failures++;                                                                                  \
        }                                                                                                \
    } while (0)

static void ring(int rank, int size)
{
    double out[3] = {rank + 0.5, rank * 2.0, -1.0}, in[3] = {0, 0, 0};
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[2];
    int left = (rank + size - 1) % size, right = (rank + 1) % size, n = -1;
    EXPECT(MPI_Irecv(in, 3, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &rq[0]) == MPI_SUCCESS);
    EXPECT(MPI_Isend(out, 3, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &rq[1]) == MPI_SUCCESS);
    EXPECT(MPI_Waitall(2, rq, st) == MPI_SUCCESS);
    EXPECT(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL);
    EXPECT(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 7);
    EXPECT(MPI_Get_count(&st[0], MPI_DOUBLE, &n) == MPI_SUCCESS && n == 3);
    EXPECT(in[0] == left + 0.5 && in[1] == left * 2.0 && in[2] == -1.0);
}

static void collectives(int rank, int size)
{
    int v = rank + 1, sum = 0, root_value = rank == 0 ? 4242 : 0;
    EXPECT(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(sum == size * (size + 1) / 2);
    EXPECT(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(sum == size);
    EXPECT(MPI_Bcast(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(root_value == 4242);
}

static void constants(int size)
{
    int s = 0, cmp = -1, flag = 0, *tag_ub = NULL, cls = -1;
    EXPECT(MPI_Type_size(MPI_LONG_LONG, &s) == MPI_SUCCESS && s == 8);
    EXPECT(MPI_Type_size(MPI_CHAR, &s) == MPI_SUCCESS && s == 1);
    EXPECT(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT);
    EXPECT(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &cmp) == MPI_SUCCESS &&
           cmp == (size == 1 ? 202 /* MPI_CONGRUENT */ : MPI_UNEQUAL));
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS && flag && *tag_ub >= 32767);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    int rc = MPI_Send(&s, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    EXPECT(rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_RANK);
    rc = MPI_Send(&s, 1, MPI_INT, MPI_PROC_NULL, -7, MPI_COMM_WORLD);
    EXPECT(rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TAG);
    EXPECT(MPI_Send(&s, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
}

static void abi_version(void)
{
    int major = -1, minor = -1, flag = 0, len = MPI_MAX_INFO_VAL;
    char v[MPI_MAX_INFO_VAL];
    MPI_Info info = MPI_INFO_NULL;
    EXPECT(MPI_Abi_get_version(&major, &minor) == MPI_SUCCESS);
    EXPECT(major == MPI_ABI_VERSION && minor == MPI_ABI_SUBVERSION);
    EXPECT(MPI_Abi_get_info(&info) == MPI_SUCCESS && info != MPI_INFO_NULL);
    EXPECT(MPI_Info_get_string(info, "mpi_aint_size", &len, v, &flag) == MPI_SUCCESS && flag);
    EXPECT(flag && atoi(v) == (int)sizeof(MPI_Aint));
    EXPECT(MPI_Info_free(&info) == MPI_SUCCESS && info == MPI_INFO_NULL);
}

int main(int argc, char **argv)
{
    int rank = -1, size = 0;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    EXPECT(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS);
    EXPECT(MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS && size >= 1);
    ring(rank, size);
    collectives(rank, size);
    constants(size);
    abi_version();
    if (failures)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Finalize();
    if (rank == 0)
        printf("OK abi_app %d ranks\n", size);
    return 0;
}
