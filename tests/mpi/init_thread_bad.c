/* MPI_Init_thread with a required level that is none of the four (argv[1] "level"), or with provided
 * NULL ("provided"): the program's mistake, fatal before MPI_Init as in Open MPI (MPICH accepts any
 * value and clamps). The job must end with a message naming the call and the value. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int provided = -1;
    if (argc > 1 && strcmp(argv[1], "provided") == 0)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, NULL);
    else
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE + 1, &provided);
    printf("NOT-ABORTED: MPI_Init_thread returned (provided %d)\n", provided);
    MPI_Finalize();
    return 0;
}
