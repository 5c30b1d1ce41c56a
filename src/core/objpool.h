/* Pools for objects the user holds by pointer (communicators, groups, ops, MPI_T control variable handles).
 *
 * A released object goes back to its pool, never to the C library, until MPI_Finalize: a handle the user
 * kept after freeing it then still points at readable memory whose magic is zero, so the validity check
 * refuses it instead of reading freed memory. Every object is zeroed when it is handed out. */
#ifndef SKIFF_OBJPOOL_H
#define SKIFF_OBJPOOL_H

#include <stddef.h>

struct skiff_objpool_chunk;
struct skiff_objpool_slot;

struct skiff_objpool {
    size_t size;                       /* bytes of one object */
    struct skiff_objpool_slot *free;   /* released slots */
    struct skiff_objpool_chunk *chunks;
};

#define SKIFF_OBJPOOL_INIT(type) {sizeof(type), NULL, NULL}

/* A zeroed object, or NULL when memory is exhausted. */
void *skiff_objpool_get(struct skiff_objpool *p);
/* Zeroes obj and keeps it for the next skiff_objpool_get. */
void skiff_objpool_put(struct skiff_objpool *p, void *obj);
/* Calls fn on every object handed out and not put back (to release what they own at MPI_Finalize). */
void skiff_objpool_foreach(struct skiff_objpool *p, void (*fn)(void *obj));
/* Gives every object back to the C library (MPI_Finalize). */
void skiff_objpool_destroy(struct skiff_objpool *p);

#endif
