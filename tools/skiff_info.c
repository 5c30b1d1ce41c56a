/* skiff-info: what this MPI library is and every setting it reads, with the value in force.
 * Written against the MPI API alone (MPI_T for the settings), so it also describes other MPIs. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void print_library(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, major, minor;
    MPI_Get_library_version(version, &len);
    MPI_Get_version(&major, &minor);
    printf("library:  %s\nstandard: MPI %d.%d\n", version, major, minor);
}

/* One line per control variable: name, value in force, what it does. */
static int print_settings(void)
{
    int provided, n;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS || MPI_T_cvar_get_num(&n) != MPI_SUCCESS) {
        printf("settings: not available (MPI_T failed)\n");
        return 1;
    }
    printf("settings (%d, from the environment; docs/configuration.md explains them):\n", n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024], value[4096] = "";
        int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope, count;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_T_cvar_handle h;
        if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &dt, &et, desc, &desc_len, &bind, &scope) !=
            MPI_SUCCESS)
            continue;
        if (dt == MPI_CHAR && bind == MPI_T_BIND_NO_OBJECT &&
            MPI_T_cvar_handle_alloc(i, NULL, &h, &count) == MPI_SUCCESS) {
            if (count < (int)sizeof value)
                MPI_T_cvar_read(h, value);
            MPI_T_cvar_handle_free(&h);
        }
        printf("  %-24s = %-8s %s\n", name, value[0] ? value : "-", desc);
    }
    MPI_T_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: skiff-info\nPrints the MPI library's version and every setting it reads, with its value.\n");
        return 0;
    }
    print_library();
    return print_settings();
}
