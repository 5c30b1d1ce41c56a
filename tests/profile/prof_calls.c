/* A known sequence of MPI calls for the profiler tests (tests/profile/check_profile.py knows it too):
 *
 *   every rank: MPI_Init, Comm_rank, Comm_size, Op_create, Op_free, Waitall, Finalize once;
 *               10 Barrier; 5 Allreduce of one double with a user op; 3 Sendrecv of 16 bytes around
 *               the ring; 4 Isend and 4 Irecv of one int64 around the ring
 *   rank 0:     100 Send of 1 KiB to rank 1, which makes 100 Recv
 *
 * The user op calls MPI_Type_size: a call made inside another, which the profiler must not count.
 * Nothing else calls MPI (no helpers from testutil.h), so the report's table is exactly this. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int op_calls;

static void sum_doubles(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int size = 0;
    MPI_Type_size(*dt, &size); /* nested inside MPI_Allreduce */
    op_calls++;
    for (int i = 0; i < *len && size == (int)sizeof(double); i++)
        ((double *)inout)[i] += ((const double *)in)[i];
}

static int fail(int rank, const char *what)
{
    printf("FAIL [rank %d] %s\n", rank, what);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

static void point_to_point(int rank)
{
    char buf[1024];
    memset(buf, rank, sizeof buf);
    for (int i = 0; i < 100; i++) {
        if (rank == 0)
            MPI_Send(buf, (int)sizeof buf, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void ring(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char out[16] = {0}, in[16];
    for (int i = 0; i < 3; i++)
        MPI_Sendrecv(out, 16, MPI_CHAR, right, 8, in, 16, MPI_CHAR, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int64_t sv[4] = {1, 2, 3, 4}, rv[4];
    MPI_Request reqs[8];
    for (int i = 0; i < 4; i++) {
        MPI_Irecv(&rv[i], 1, MPI_INT64_T, left, 9 + i, MPI_COMM_WORLD, &reqs[i]);
        MPI_Isend(&sv[i], 1, MPI_INT64_T, right, 9 + i, MPI_COMM_WORLD, &reqs[4 + i]);
    }
    MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return fail(rank, "needs at least 2 ranks");
    point_to_point(rank);
    for (int i = 0; i < 10; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Op op;
    MPI_Op_create(sum_doubles, 1, &op);
    for (int i = 0; i < 5; i++) {
        double x = rank, y = 0;
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
        if (y != size * (size - 1) / 2.0)
            return fail(rank, "allreduce sum is wrong");
    }
    MPI_Op_free(&op);
    ring(rank, size);
    /* Which ranks apply the op depends on the algorithm; the checker wants some nested call somewhere. */
    printf("op_calls %d %d\n", rank, op_calls);
    fflush(stdout);
    MPI_Finalize();
    if (rank == 0)
        printf("OK prof_calls\n");
    return 0;
}
