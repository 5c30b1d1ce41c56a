/* The mpi_f08 module's C side (gen_f08.py says how the bindings are made): the alias of a binding under
 * its mpi_f08 name, and the choice buffers that arrive as C descriptors (ISO_Fortran_binding.h). */
#ifndef SKIFF_FORTRAN_F08_H
#define SKIFF_FORTRAN_F08_H

#include <ISO_Fortran_binding.h>
#include <mpi.h>

/* mpi_x_f08_ is mpi_x_: the calling conventions are the same (IERROR may be a null pointer). */
#define SKIFF_F08_ALIAS(target, name)                                                               \
    extern __typeof__(target) name __attribute__((alias(#target), visibility("default")));

/* What a non-contiguous array section becomes. */
enum skiff_f08_mode {
    SKIFF_F08_COPY,    /* blocking call: a contiguous temporary, copied back if the call writes it */
    SKIFF_F08_KEEP,    /* the buffer outlives the call (nonblocking, persistent, one-sided): refused */
    SKIFF_F08_ADDRESS, /* only the address matters: the section's first element */
};

struct skiff_f08_buf {
    void *addr;             /* what the C call gets */
    void *tmp;              /* the contiguous copy of a section, or NULL */
    const CFI_cdesc_t *desc;
};

/* Fills b for the descriptor d. Returns 0, or the error code (also stored in *ierr when ierr is not
 * null) after calling the error handler of comm (or win, if not MPI_WIN_NULL) for a section refused in
 * KEEP mode (an added code of class MPI_ERR_BUFFER whose string names call) or a copy that cannot be
 * allocated (MPI_ERR_NO_MEM). */
int skiff_f08_buf_in(struct skiff_f08_buf *b, const CFI_cdesc_t *d, enum skiff_f08_mode mode,
                     const char *call, MPI_Comm comm, MPI_Win win, MPI_Fint *ierr);
/* Copies a temporary back into the section (if writes) and frees it. */
void skiff_f08_buf_out(struct skiff_f08_buf *b, int writes);

#endif
