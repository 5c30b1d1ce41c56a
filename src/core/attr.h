/* Attribute caching on communicators, datatypes and windows: keyvals with their copy and delete callbacks, and each
 * object's list of (keyval, value). A keyval belongs to one kind of object: one made for datatypes is refused
 * on a communicator and the other way round. The predefined attributes (MPI_TAG_UB, ...) are answered by the
 * MPI layer and never stored here. */
#ifndef SKIFF_ATTR_H
#define SKIFF_ATTR_H

#include "mpi.h"

struct skiff_comm;

/* User keyvals start here, clear of the predefined keys (501...) of the standard ABI. */
#define SKIFF_KEYVAL_BASE 0x1000

struct skiff_attr {
    int keyval;
    void *value;
};

/* In the order the attributes were first set; deleted in reverse order. */
struct skiff_attrs {
    int n, cap;
    struct skiff_attr *v;
};

/* All return an MPI error code; a callback's failure becomes one whose message names the keyval. */
int skiff_keyval_create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, void *extra,
                        int *keyval);
/* The user's keyval handle is gone; attributes still set with it keep their callbacks. */
int skiff_keyval_free(int keyval);

int skiff_attr_set(struct skiff_comm *c, int keyval, void *value);
/* *flag = 0 when c holds no attribute for keyval. */
int skiff_attr_get(const struct skiff_comm *c, int keyval, void **value, int *flag);
int skiff_attr_delete(struct skiff_comm *c, int keyval);

/* MPI_Comm_dup: runs every copy callback of from's attributes, caching the copies on to. */
int skiff_attr_copy_all(struct skiff_comm *from, struct skiff_comm *to);
/* MPI_Comm_free: runs the delete callbacks (last set first); stops at the first failure. */
int skiff_attr_delete_all(struct skiff_comm *c);
/* Drops c's list without callbacks (a communicator that never reached the user, MPI_Finalize). */
void skiff_attr_drop_all(struct skiff_comm *c);

/* The same for datatypes: the list l belongs to the datatype whose handle (as the callbacks see it) is h. */
int skiff_type_keyval_create(MPI_Type_copy_attr_function *copy, MPI_Type_delete_attr_function *del, void *extra,
                             int *keyval);
int skiff_type_keyval_free(int keyval);
int skiff_type_attr_set(struct skiff_attrs *l, MPI_Datatype h, int keyval, void *value);
int skiff_type_attr_get(const struct skiff_attrs *l, int keyval, void **value, int *flag);
int skiff_type_attr_delete(struct skiff_attrs *l, MPI_Datatype h, int keyval);
int skiff_type_attr_copy_all(const struct skiff_attrs *from, MPI_Datatype fh, struct skiff_attrs *to);
int skiff_type_attr_delete_all(struct skiff_attrs *l, MPI_Datatype h);
void skiff_attrs_drop(struct skiff_attrs *l);

/* The same for windows (never copied: their copy callback is kept but not called). */
int skiff_win_keyval_create(MPI_Win_copy_attr_function *copy, MPI_Win_delete_attr_function *del, void *extra,
                            int *keyval);
int skiff_win_keyval_free(int keyval);
int skiff_win_attr_set(struct skiff_attrs *l, MPI_Win h, int keyval, void *value);
int skiff_win_attr_get(const struct skiff_attrs *l, int keyval, void **value, int *flag);
int skiff_win_attr_delete(struct skiff_attrs *l, MPI_Win h, int keyval);
int skiff_win_attr_delete_all(struct skiff_attrs *l, MPI_Win h);

void skiff_attr_finalize(void);

#endif
