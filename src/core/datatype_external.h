/* The "external32" data representation (MPI_Pack_external): every basic element big-endian, in the
 * sizes the standard's table gives, whatever this platform's C types are (MPI_LONG is 4 bytes there,
 * MPI_LONG_DOUBLE a 16-byte IEEE binary128). A type's runs (core/datatype.h) are its signature, so a
 * derived type converts element by element in packing order. */
#ifndef SKIFF_DATATYPE_EXTERNAL_H
#define SKIFF_DATATYPE_EXTERNAL_H

#include <stddef.h>

#include "core/datatype.h"

/* The bytes count elements of t take in external32, into *bytes; MPI_SUCCESS, or an MPI error code
 * (a basic type this build cannot convert, or a size beyond an address). */
int skiff_external_size(const struct skiff_type *t, size_t count, size_t *bytes);
/* Converts count elements at buf into out (skiff_external_size bytes). An MPI error code (memory). */
int skiff_external_pack(const void *buf, size_t count, const struct skiff_type *t, void *out);
/* The reverse: skiff_external_size bytes at in into count elements at buf. */
int skiff_external_unpack(const void *in, void *buf, size_t count, const struct skiff_type *t);

#endif
