/* How a collective sees a user buffer: as contiguous bytes. For contiguous datatypes that is the
 * user's memory itself (no copy); for others a packed copy, unpacked again when the call is done.
 * The v-variants get per-rank byte counts and displacements in the same terms. */
#ifndef SKIFF_MPI_COLL_STAGE_H
#define SKIFF_MPI_COLL_STAGE_H

#include <stddef.h>

#include "core/datatype.h"
#include "mpi/coll_counts.h"

struct skiff_stage {
    char *data;               /* what the algorithm reads or writes */
    void *tmp;                /* packed copy, or NULL */
    void *user;
    size_t count;             /* elements */
    const struct skiff_type *t;
};

/* Data to send: count elements at buf. */
int skiff_stage_send(struct skiff_stage *s, const void *buf, size_t count, const struct skiff_type *t);
/* Room to receive count elements for buf. With keep >= 0, element block `keep` (of block_count
 * elements) already in buf is packed into its place first (MPI_IN_PLACE blocks). */
int skiff_stage_recv(struct skiff_stage *s, void *buf, size_t count, const struct skiff_type *t, int keep,
                     size_t block_count);
/* Unpacks into the user's buffer if asked, and frees the copy. */
void skiff_stage_done(struct skiff_stage *s, int unpack);

struct skiff_vstage {
    char *data;
    void *tmp;
    void *user;
    size_t *bc, *bd;          /* bytes and byte displacements per rank, in data */
    struct skiff_cnts counts;
    struct skiff_dsps displs;
    int n;
    const struct skiff_type *t;
};

/* mode: 0 receive (nothing packed), 1 send (all blocks packed), 2 receive but pack block `keep`.
 * The caller has checked the counts (none negative). */
int skiff_vstage_init(struct skiff_vstage *v, const void *buf, struct skiff_cnts counts, struct skiff_dsps displs,
                      int n, const struct skiff_type *t, int mode, int keep);
void skiff_vstage_done(struct skiff_vstage *v, int unpack);

#endif
