/* The argument checks the collective calls share: blocking (coll.c), nonblocking (coll_nb.c) and
 * persistent (coll_persist.c) forms of one collective check exactly the same things. */
#ifndef SKIFF_MPI_COLL_CHECK_H
#define SKIFF_MPI_COLL_CHECK_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "mpi.h"
#include "mpi/coll_counts.h"

/* Checks a (count, datatype) pair of a collective. */
int skiff_ck_block(MPI_Count count, MPI_Datatype dt, const struct skiff_type **t);

/* One side of a transfer: count, datatype, and the buffer of count elements. */
int skiff_ck_side(const void *buf, MPI_Count count, MPI_Datatype dt, const char *name, const struct skiff_type **t);

int skiff_ck_root(const struct skiff_comm *c, int root);

/* MPI forbids aliasing an output buffer with another argument; the same address for both buffers is
 * the usual slip for MPI_IN_PLACE, and is all that is tested: partly overlapping buffers are rarer, and
 * with non-contiguous datatypes may legally interleave. NULL is MPI_BOTTOM, where the datatypes say
 * where data goes. names: "sendbuf and recvbuf"; fix: what to do instead. */
int skiff_ck_alias(const void *a, const void *b, int nonempty, const char *names, const char *fix);

#define SEND_RECV "sendbuf and recvbuf"
#define FIX_SENDBUF "pass MPI_IN_PLACE as sendbuf instead"
#define FIX_RECVBUF "pass MPI_IN_PLACE as recvbuf instead"

/* What a rooted call (gather, scatter, reduce) knows once its common checks pass. */
struct skiff_rooted {
    struct skiff_comm *c;
    int is_root;
    int in_place; /* the root gave MPI_IN_PLACE for its own block */
};

/* The checks every rooted call starts with. own: the buffer of this rank's block (sendbuf; recvbuf
 * for scatter), which only the root may give as MPI_IN_PLACE; all: the root's buffer for every
 * rank's blocks, which never may be. */
int skiff_ck_rooted(MPI_Comm comm, int root, const void *own, const void *all, int scatter, struct skiff_rooted *x);

/* What a reduction runs on: count elements of dt, starting at the data of the buffers. A user op
 * takes the user's datatype as it is; a predefined op on a derived type runs on its basic type, of
 * which an element of the user's type holds scale. */
struct skiff_red {
    size_t count;
    MPI_Datatype dt;
    ptrdiff_t shift; /* from the user's buffer to the first byte of data */
    const struct skiff_type *t; /* the user's datatype */
    size_t scale;
};

int skiff_ck_reduction(MPI_Count count, MPI_Datatype dt, MPI_Op op, struct skiff_red *red);

/* The buffers of a reduction every rank receives from: recvbuf holds out elements, sendbuf in (or is
 * MPI_IN_PLACE: its data is in recvbuf). */
int skiff_ck_red_bufs(const void *sendbuf, const void *recvbuf, size_t in, size_t out, const struct skiff_red *red);

static inline const void *skiff_shifted(const void *buf, const struct skiff_red *red)
{
    return buf == MPI_IN_PLACE || buf == NULL ? buf : (const char *)buf + red->shift;
}

/* The checks of allreduce and scan, where every rank gives and receives count elements. */
int skiff_ck_each_reduces(const void *sendbuf, const void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm, struct skiff_comm **c, struct skiff_red *red);

/* Where a rank's contribution starts: with MPI_IN_PLACE, in recvbuf. */
const void *skiff_red_input(const void *sendbuf, const void *recvbuf, const struct skiff_red *red);

/* Which side of a v-variant gives each rank's count in an array (its entry is named in messages). */
enum skiff_vcounts { V_NONE, V_SEND, V_RECV };

/* A block as sent must match the block the receiver expects for it: sendcount (or sendcounts[i]) and
 * sendtype against recvcount (or recvcounts[i]) and recvtype. */
int skiff_ck_match(size_t sent, size_t expected, enum skiff_vcounts v, int i);

static inline size_t skiff_packed(const struct skiff_type *t, MPI_Count count)
{
    return skiff_type_packed_size(t, (size_t)count);
}

/* One side of a transfer as the user gave it; the checks set t. */
struct skiff_side {
    const void *buf;
    MPI_Count count;
    MPI_Datatype dt;
    const struct skiff_type *t;
};

/* The same for a side with per-rank counts and displacements (an int call's or a _c call's); the checks set
 * t and total. */
struct skiff_vside {
    const void *buf;
    struct skiff_cnts counts;
    struct skiff_dsps displs;
    MPI_Datatype dt;
    const struct skiff_type *t;
    size_t total;
};

int skiff_ck_vside(struct skiff_vside *v, int n, const char *buf_name, const char *counts_name,
                   const char *displs_name);

/* The checks of gather and scatter, which mirror each other: own is this rank's block (gather: sent;
 * scatter: received), all (or v) the root's blocks for every rank. */
int skiff_ck_rooted_blocks(struct skiff_side *own, struct skiff_side *all, struct skiff_vside *v, int root,
                           MPI_Comm comm, int scatter, struct skiff_rooted *x);

/* The checks of allgather and alltoall: every rank receives (never in place) and sends (unless
 * sendbuf is MPI_IN_PLACE) blocks of the same signature. */
int skiff_ck_all_blocks(struct skiff_side *s, struct skiff_side *r, MPI_Comm comm, struct skiff_comm **c);

/* The request pointer of a nonblocking call: checked before anything starts, so an error leaks nothing. */
int skiff_ck_request(MPI_Comm comm, const MPI_Request *request);

/* The profiler's message size for a call with two sides: this rank's block on side a, or on side b
 * when buffer a is MPI_IN_PLACE (the standard then ignores a's count and type). */
size_t skiff_prof_block(const void *a, MPI_Count acount, MPI_Datatype atype, MPI_Count bcount, MPI_Datatype btype);

/* The receive side of allgatherv and alltoallv: every rank's count at its displacement, never in place. */
int skiff_ck_vrecv(struct skiff_vside *r, const char *displs_name, MPI_Comm comm, struct skiff_comm **c);

int skiff_ck_allgatherv(struct skiff_side *s, struct skiff_vside *r, MPI_Comm comm, struct skiff_comm **c);

/* Block signatures are not compared: each pair's counts live on two different ranks. */
int skiff_ck_alltoallv(struct skiff_vside *s, struct skiff_vside *r, MPI_Comm comm, struct skiff_comm **c);

/* counts: each rank's count (MPI_Reduce_scatter), or NULL for `block` elements each (the _block
 * variant). */
int skiff_ck_reduce_scatter(const void *sendbuf, const void *recvbuf, const MPI_Count counts[], MPI_Count block,
                            MPI_Datatype dt, MPI_Op op, const struct skiff_comm *c, struct skiff_red *red);

#endif
