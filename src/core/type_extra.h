/* What a datatype carries beside its layout: how it was made (the constructor's arguments, for
 * MPI_Type_get_envelope/get_contents), the name the user gave it, and its cached attributes. Derived
 * types point at theirs (skiff_type.extra); predefined ones, which live in a read-only table, have theirs
 * in a table of their own here. */
#ifndef SKIFF_TYPE_EXTRA_H
#define SKIFF_TYPE_EXTRA_H

#include "mpi.h"

#include "core/attr.h"
#include "core/datatype.h"

/* A datatype a constructor was given: its handle then, and the object, which the record keeps alive
 * (one reference) when it is derived, even after the user frees the handle. */
struct skiff_type_sub {
    MPI_Datatype h;
    const struct skiff_type *t;
};

/* The constructor's arguments, exactly as given. Shared (refs) by a type and the copies of it that
 * MPI_Type_get_contents hands out, which decode the same way. */
struct skiff_type_contents {
    int refs, combiner, ni, na, nd;
    int *ints;
    MPI_Aint *addrs;
    struct skiff_type_sub *types;
    int nl;             /* large counts: made by a large-count (_c) constructor when nl > 0 */
    MPI_Count *lcounts;
};

struct skiff_type_extra {
    struct skiff_type_contents *contents;
    struct skiff_attrs attrs;
    int named;
    char name[MPI_MAX_OBJECT_NAME];
};

/* A piece of a constructor's integer arguments (the count, then an array, ...). */
struct skiff_ints {
    const int *v;
    int n;
};

/* What to record: ints is the concatenation of up to eight pieces (unused ones {NULL, 0}). */
struct skiff_type_record {
    int combiner;
    struct skiff_ints ints[8];
    const MPI_Aint *addrs;
    int na;
    const MPI_Datatype *types;
    int nd;
};

/* t's extra record; NULL if it has none and create is 0, or memory ran out. */
struct skiff_type_extra *skiff_type_extra(const struct skiff_type *t, int create);
/* The handle the user knows t by (a predefined type's ABI value). */
MPI_Datatype skiff_type_user_handle(const struct skiff_type *t);

/* Records how t was made; an MPI error code (out of memory). The types must be live. */
int skiff_type_record(const struct skiff_type *t, const struct skiff_type_record *r);
/* The same for a large-count (_c) constructor, whose counts and displacements are the nl lcounts. */
int skiff_type_record_large(const struct skiff_type *t, const struct skiff_type_record *r, const MPI_Count *lcounts,
                            int nl);
/* MPI_COMBINER_NAMED for predefined types; 0 for a derived one without a record. */
int skiff_type_combiner(const struct skiff_type *t);
/* Predefined, or made by MPI_Type_create_f90_*: never freed, and handed out as itself. */
int skiff_type_fixed(const struct skiff_type *t);
/* A new type equivalent to s (same layout, same decoding), for MPI_Type_get_contents to return. */
int skiff_type_copy_for_user(const struct skiff_type_sub *s, MPI_Datatype *out);

/* The name MPI_Type_get_name gives: the user's, else the standard's for a predefined type, else "". */
const char *skiff_type_name(const struct skiff_type *t);
int skiff_type_set_name(const struct skiff_type *t, const char *name);

/* MPI_Type_free: runs the delete callbacks of t's attributes (last set first). */
int skiff_type_delete_attrs(const struct skiff_type *t);
/* MPI_Type_dup: runs the copy callbacks of from's attributes, caching the copies on to. */
int skiff_type_copy_attrs(const struct skiff_type *from, const struct skiff_type *to);

/* A derived type object goes back to the pool: drops its record (no callbacks run). */
void skiff_type_extra_drop(struct skiff_type *t);

#endif
