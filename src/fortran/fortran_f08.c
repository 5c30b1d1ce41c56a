/* Choice buffers of the mpi_f08 module: the C descriptor of a TYPE(*), DIMENSION(..) argument becomes
 * the address the C call takes. A contiguous array (or a scalar, MPI_BOTTOM, MPI_IN_PLACE) is passed as
 * it is. A non-contiguous section is copied into a contiguous temporary for a blocking call (the
 * elements in array element order, which is what the standard says the call sees), and refused for a
 * call whose buffer outlives it: a copy could not be written back when a nonblocking receive completes,
 * so MPI_SUBARRAYS_SUPPORTED is .FALSE. (MPICH builds a datatype from the descriptor instead). */
#include "fortran_f08.h"
#include "fortran_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Copies the elements of d, in array element order, into the contiguous flat (to_flat) or back. */
static void walk(const CFI_cdesc_t *d, char *flat, int to_flat)
{
    size_t n = d->elem_len;
    CFI_index_t idx[CFI_MAX_RANK] = {0};
    for (int r = 0; r < d->rank; r++)
        if (d->dim[r].extent <= 0)
            return;
    for (;;) {
        char *e = d->base_addr;
        for (int r = 0; r < d->rank; r++)
            e += idx[r] * d->dim[r].sm;
        if (to_flat)
            memcpy(flat, e, n);
        else
            memcpy(e, flat, n);
        flat += n;
        int r = 0;
        while (r < d->rank && ++idx[r] == d->dim[r].extent)
            idx[r++] = 0;
        if (r == d->rank)
            return;
    }
}

static size_t elements(const CFI_cdesc_t *d)
{
    size_t n = 1;
    for (int r = 0; r < d->rank; r++)
        n *= d->dim[r].extent > 0 ? (size_t)d->dim[r].extent : 0;
    return n;
}

/* One added error code of class MPI_ERR_BUFFER, made on the first refusal; its string is replaced at
 * each refusal with one naming the call, the rank and the section, so that MPI_Error_string (and the
 * fatal handler's message) says what happened. */
static pthread_mutex_t refused_lock = PTHREAD_MUTEX_INITIALIZER;
static int refused_code = -1;

static int refused(const char *call, const CFI_cdesc_t *d)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char msg[MPI_MAX_ERROR_STRING];
    snprintf(msg, sizeof msg,
             "%s (rank %d): the buffer is a non-contiguous array section (rank %d, %zu elements of %zu "
             "bytes) and the call keeps its buffer (nonblocking, persistent or one-sided): skiff's "
             "mpi_f08 copies sections for blocking calls only (MPI_SUBARRAYS_SUPPORTED is .FALSE.); pass "
             "a contiguous array or describe the section with a derived datatype",
             call, rank, (int)d->rank, elements(d), (size_t)d->elem_len);
    pthread_mutex_lock(&refused_lock);
    if (refused_code < 0 && PMPI_Add_error_code(MPI_ERR_BUFFER, &refused_code) != MPI_SUCCESS)
        refused_code = -1;
    int code = refused_code < 0 ? MPI_ERR_BUFFER : refused_code;
    if (refused_code >= 0)
        PMPI_Add_error_string(code, msg);
    pthread_mutex_unlock(&refused_lock);
    return code;
}

static int fail(int code, MPI_Comm comm, MPI_Win win, MPI_Fint *ierr)
{
    if (win != MPI_WIN_NULL)
        PMPI_Win_call_errhandler(win, code);
    else
        PMPI_Comm_call_errhandler(comm, code);
    if (ierr)
        *ierr = code;
    return code;
}

int skiff_f08_buf_in(struct skiff_f08_buf *b, const CFI_cdesc_t *d, enum skiff_f08_mode mode,
                     const char *call, MPI_Comm comm, MPI_Win win, MPI_Fint *ierr)
{
    b->addr = d->base_addr;
    b->tmp = NULL;
    b->desc = d;
    if (d->rank == 0 || mode == SKIFF_F08_ADDRESS || CFI_is_contiguous(d))
        return 0;
    if (mode == SKIFF_F08_KEEP) {
        return fail(refused(call, d), comm, win, ierr);
    }
    b->tmp = skiff_f_alloc(elements(d), d->elem_len);
    if (!b->tmp)
        return fail(MPI_ERR_NO_MEM, comm, win, ierr);
    walk(d, b->tmp, 1);
    b->addr = b->tmp;
    return 0;
}

void skiff_f08_buf_out(struct skiff_f08_buf *b, int writes)
{
    if (!b->tmp)
        return;
    if (writes)
        walk(b->desc, b->tmp, 0);
    free(b->tmp);
    b->tmp = NULL;
}

/* MPI_SIZEOF (mpi_f08 and mpi: the specific MPI_Sizeof_f08ts): the size of one element of x, which
 * the descriptor carries for any intrinsic type and kind. Called by the Fortran wrapper only. */
void skiff_f08_sizeof(int p, const CFI_cdesc_t *x, MPI_Fint *size, MPI_Fint *ierr);
void skiff_f08_sizeof(int p, const CFI_cdesc_t *x, MPI_Fint *size, MPI_Fint *ierr)
{
    (void)p; /* no C call behind it, so MPI_ and PMPI_ are the same */
    *size = (MPI_Fint)x->elem_len;
    if (ierr)
        *ierr = MPI_SUCCESS;
}
