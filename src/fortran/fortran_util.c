/* The Fortran bindings' shared helpers (fortran_impl.h) and the COMMON blocks behind MPI_BOTTOM,
 * MPI_IN_PLACE, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE, MPI_UNWEIGHTED and
 * MPI_WEIGHTS_EMPTY. A Fortran program's COMMON block of the same name binds to these definitions, so
 * the address a Fortran caller passes is the address compared here. */
#include "fortran_impl.h"

#include <string.h>

/* mpiexec tells skiff's libraries from other MPIs' by this name in the file (tools/mpiexec_deps.c): a
 * rank that never joins is blamed on a foreign libmpi* only when the library lacks it. */
__attribute__((used)) static const char skiff_f_mark[] = "skiff libmpifort: libmpi reads SKIFF_JOB_FD";

SKIFF_F_API MPI_Fint mpi_fortran_bottom_;
SKIFF_F_API MPI_Fint mpi_fortran_in_place_;
SKIFF_F_API MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
SKIFF_F_API MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
SKIFF_F_API MPI_Fint mpi_fortran_errcodes_ignore_[1];
SKIFF_F_API MPI_Fint mpi_fortran_unweighted_[1];
SKIFF_F_API MPI_Fint mpi_fortran_weights_empty_[1];

/* C's MPI_F_STATUS_IGNORE and friends (libmpi's variables, mpi.h) become the addresses of the Fortran
 * objects (mpi_f08's MPI_STATUS_IGNORE is bound to the same symbol), once, when libmpifort is loaded:
 * before main, so before any call. */
__attribute__((constructor)) static void publish_status_ignores(void)
{
    MPI_F_STATUS_IGNORE = mpi_fortran_status_ignore_;
    MPI_F_STATUSES_IGNORE = mpi_fortran_statuses_ignore_;
    MPI_F08_STATUS_IGNORE = (MPI_F08_status *)mpi_fortran_status_ignore_;
    MPI_F08_STATUSES_IGNORE = (MPI_F08_status *)mpi_fortran_statuses_ignore_;
}

void *skiff_f_alloc(size_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

char *skiff_f_string_in(const char *s, size_t len)
{
    size_t first = 0, end = len;
    while (end > 0 && s[end - 1] == ' ')
        end--;
    while (first < end && s[first] == ' ')
        first++;
    char *c = malloc(end - first + 1);
    if (c) {
        memcpy(c, s + first, end - first);
        c[end - first] = '\0';
    }
    return c;
}

char *skiff_f_string_buf(size_t len, long long least)
{
    /* Calls write up to their MPI_MAX_* (the longest is the library version) or, for MPI_Info_get and
     * MPI_Info_get_string, the length the caller gives (least). */
    size_t n = len > MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING;
    if (least > 0 && (unsigned long long)least > n)
        n = (size_t)least;
    return calloc(n + 1, 1);
}

void skiff_f_string_out(const char *c, char *f, size_t len)
{
    size_t n = strlen(c);
    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

int skiff_f_peers(MPI_Comm comm, int send, int neighbor)
{
    int n = 0;
    if (neighbor) {
        int topo = MPI_UNDEFINED;
        if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
            return 0;
        if (topo == MPI_CART) {
            PMPI_Cartdim_get(comm, &n);
            return 2 * n;
        }
        if (topo == MPI_GRAPH) {
            int rank;
            PMPI_Comm_rank(comm, &rank);
            PMPI_Graph_neighbors_count(comm, rank, &n);
            return n;
        }
        if (topo == MPI_DIST_GRAPH) {
            int in, out, weighted;
            PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
            return send ? out : in;
        }
        return 0;
    }
    int inter = 0;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}
