/* The ucx transport is a module that libmpi opens only when SKIFF_TRANSPORTS names ucx (ucx/module.h):
 * a program that does not ask for it must not carry UCX's libraries, whose memory hooks would replace
 * mmap, madvise and brk for the whole process. Counts this process's mappings of UCX's libraries after
 * MPI_Init; argv[1] says whether there must be none ("absent") or some ("present"). argv[2], when given,
 * is the value SKIFF_TRANSPORTS must have in effect after MPI_Init (MPI_T shows what the automatic
 * choice made of "auto": shm,tcp or shm,ucx). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
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

/* SKIFF_TRANSPORTS's value in effect, through MPI_T, into out; 0 or -1. */
static int transports_in_effect(char *out, size_t len)
{
    int provided, index, count;
    MPI_T_cvar_handle h;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return -1;
    int ok = MPI_T_cvar_get_index("SKIFF_TRANSPORTS", &index) == MPI_SUCCESS &&
             MPI_T_cvar_handle_alloc(index, NULL, &h, &count) == MPI_SUCCESS;
    char *buf = ok ? calloc((size_t)count + 1, 1) : NULL;
    ok = buf && MPI_T_cvar_read(h, buf) == MPI_SUCCESS;
    if (ok)
        snprintf(out, len, "%s", buf);
    free(buf);
    MPI_T_finalize();
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n = ucx_mappings(), want = argc > 1 && !strcmp(argv[1], "present");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char tr[64] = "?";
    if ((n > 0) != want)
        printf("FAIL [rank %d] %d mappings of UCX's libraries, expected %s\n", rank, n, want ? "some" : "none");
    else if (argc > 2 && (transports_in_effect(tr, sizeof tr) != 0 || strcmp(tr, argv[2]) != 0))
        printf("FAIL [rank %d] SKIFF_TRANSPORTS in effect is '%s', expected '%s'\n", rank, tr, argv[2]);
    else
        printf("rank %d: UCX's libraries %s%s%s, as expected\n", rank, n ? "loaded" : "not loaded",
               argc > 2 ? ", transports " : "", argc > 2 ? argv[2] : "");
    MPI_Finalize();
    return 0;
}
