/* hello — the smallest MPI program, built by the test through the mpicc wrapper
 * (tests/mpi/hello_wrapper.sh), so it includes nothing but <mpi.h> and <stdio.h>. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("Hello from rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
