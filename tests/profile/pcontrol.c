/* MPI_Pcontrol drives the built-in profiler (tests/profile/check_pcontrol.py reads what it wrote):
 *   Pcontrol(0), 50 x MPI_Comm_size   not recorded
 *   Pcontrol(1), 7 x MPI_Comm_size    recorded
 *   Pcontrol(2)                       each rank writes a partial report: 7 MPI_Comm_size, no MPI_Pcontrol yet
 *   5 x MPI_Comm_size, Pcontrol(0), 3 x MPI_Comm_size (not recorded), MPI_Finalize
 * The job's report at MPI_Finalize then has 12 MPI_Comm_size and 1 MPI_Pcontrol (the level-2 one: level 0
 * ends recording inside its own call, level 1 starts it after its own call began) per rank. */
#include <mpi.h>
#include <stdio.h>

static int sizes(int n)
{
    int size = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = MPI_Comm_size(MPI_COMM_WORLD, &size);
    return rc;
}

int main(int argc, char **argv)
{
    int rank = -1, rc = MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rc |= MPI_Pcontrol(0);
    rc |= sizes(50);
    rc |= MPI_Pcontrol(1);
    rc |= sizes(7);
    rc |= MPI_Pcontrol(2);
    rc |= sizes(5);
    rc |= MPI_Pcontrol(0);
    rc |= sizes(3);
    if (rc != MPI_SUCCESS)
        fprintf(stderr, "FAIL [rank %d] an MPI call failed\n", rank);
    MPI_Finalize();
    if (rank == 0 && rc == MPI_SUCCESS)
        printf("OK pcontrol\n");
    return rc != MPI_SUCCESS;
}
