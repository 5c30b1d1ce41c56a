/* Datatypes. The predefined ones are a table indexed by their ABI handle value. */
#ifndef SKIFF_DATATYPE_H
#define SKIFF_DATATYPE_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct skiff_type {
    size_t size;        /* bytes of data in one element */
    size_t extent;      /* stride between consecutive elements */
    int nbasic;         /* basic elements per element (2 for the pair types) */
    size_t first_size;  /* size of the first basic element (for MPI_Get_elements of pairs) */
    int contiguous;
    const char *name;
};

/* NULL for MPI_DATATYPE_NULL and anything that is not a datatype skiff knows. */
const struct skiff_type *skiff_type_get(MPI_Datatype dt);

#endif
