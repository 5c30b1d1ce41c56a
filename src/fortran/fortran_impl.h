/* What the Fortran bindings (generated fortran_bindings.c and the hand-written fortran_hand.c) share:
 * the special addresses Fortran passes (COMMON blocks of mpif.h and the mpi module), strings with hidden
 * lengths, and the export macros. Fortran passes every argument by address; gfortran appends one size_t
 * length per CHARACTER argument after the explicit ones, and calls mpi_send_ for MPI_SEND. */
#ifndef SKIFF_FORTRAN_IMPL_H
#define SKIFF_FORTRAN_IMPL_H

#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>

#define SKIFF_F_API __attribute__((visibility("default")))
/* The other two spellings of a binding: f2c/g77's second underscore and the upper-case name. */
#define SKIFF_F_ALIAS(target, a1, a2)                                                               \
    extern __typeof__(target) a1 __attribute__((alias(#target), visibility("default")));            \
    extern __typeof__(target) a2 __attribute__((alias(#target), visibility("default")));
/* Marks a call bound by hand in fortran_hand.c, so that the generator leaves it alone. */
#define SKIFF_F_HAND(name)

/* The COMMON blocks of mpif.h / the mpi module: their addresses are the special arguments
 * (COMMON /MPI_FORTRAN_BOTTOM/ MPI_BOTTOM gives the symbol mpi_fortran_bottom_). */
extern SKIFF_F_API MPI_Fint mpi_fortran_bottom_;
extern SKIFF_F_API MPI_Fint mpi_fortran_in_place_;
extern SKIFF_F_API MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
extern SKIFF_F_API MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
extern SKIFF_F_API MPI_Fint mpi_fortran_errcodes_ignore_[1];
extern SKIFF_F_API MPI_Fint mpi_fortran_unweighted_[1];
extern SKIFF_F_API MPI_Fint mpi_fortran_weights_empty_[1];

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE become C's. */
static inline void *skiff_f_buf(const void *p)
{
    if (p == (const void *)&mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (p == (const void *)&mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    return (void *)p;
}

static inline int *skiff_f_weights(MPI_Fint *w)
{
    if (w == mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if (w == mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return w;
}

static inline int skiff_f_status_ignore(const MPI_Fint *s)
{
    return s == mpi_fortran_status_ignore_ || s == mpi_fortran_statuses_ignore_;
}

static inline int skiff_f_statuses_ignore(const MPI_Fint *s)
{
    return s == mpi_fortran_statuses_ignore_ || s == mpi_fortran_status_ignore_;
}

/* calloc of at least one element (a zero count is not out of memory). */
void *skiff_f_alloc(size_t n, size_t size);
/* A Fortran CHARACTER input as a C string: trailing (and leading) blanks dropped. */
char *skiff_f_string_in(const char *s, size_t len);
/* A C buffer for a string output of a CHARACTER of length len: room for what any call writes, at least
 * `least` bytes (a count the caller gives the C call; ignored when not positive). */
char *skiff_f_string_buf(size_t len, long long least);
/* Copies a C string result into a CHARACTER of length len, blank-padded (truncated if longer). */
void skiff_f_string_out(const char *c, char *f, size_t len);
/* Alltoallw's number of type array entries: the group's size (remote group of an intercommunicator),
 * or for neighbourhood collectives the in-degree (send = 0) or out-degree (send = 1). */
int skiff_f_peers(MPI_Comm comm, int send, int neighbor);

#endif
