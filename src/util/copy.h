/* Copies for the data path. */
#ifndef SKIFF_COPY_H
#define SKIFF_COPY_H

#include <stddef.h>

/* Copy whose stores bypass the cache: for the pieces of a large message landing in a buffer that
 * will not be read again soon, this saves the read-for-ownership of every destination line (half
 * the memory traffic of a plain copy). Falls back to memcpy where the CPU lacks streaming stores. */
void skiff_copy_stream(void *dst, const void *src, size_t n);

/* Messages at least this large are written with streaming stores (larger than a core's L2). */
#define SKIFF_STREAM_MIN (1u << 20)

#endif
