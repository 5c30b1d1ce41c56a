/* The ucx transport is a module that libmpi opens only when SKIFF_TRANSPORTS names ucx (ucx/module.h):
 * a program that does not ask for it must not carry UCX's libraries, whose memory hooks would replace
 * mmap, madvise and brk for the whole process. Counts this process's mappings of UCX's libraries after
 * MPI_Init; argv[1] says whether there must be none ("absent") or some ("present"). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int ucx_mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, "/libucp.so") || strstr(line, "/libucs.so") || strstr(line, "/libucm.so") ||
             strstr(line, "/libuct.so");
    if (f)
        fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n = ucx_mappings(), want = argc > 1 && !strcmp(argv[1], "present");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if ((n > 0) != want)
        printf("FAIL [rank %d] %d mappings of UCX's libraries, expected %s\n", rank, n, want ? "some" : "none");
    else
        printf("rank %d: UCX's libraries %s, as expected\n", rank, n ? "loaded" : "not loaded");
    MPI_Finalize();
    return 0;
}
