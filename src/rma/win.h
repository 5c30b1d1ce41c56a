/* One-sided communication: windows and the engine that moves their operations (docs/design.md,
 * "One-sided"). skiff_rma_path chooses per target: the origin applies operations itself on a window that
 * is one shared segment (copies, CPU atomics: rma/atomic.c), moves put and get by single copy into
 * Win_create memory on its node (rma/cma.c), moves put and get with the RDMA of the transport that
 * reaches the target (rma/rdma.c), or sends them as messages on the window's private
 * communicator that the target applies in its progress engine. */
#ifndef SKIFF_RMA_WIN_H
#define SKIFF_RMA_WIN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/attr.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "mpi.h"
#include "rma/atomic.h"
#include "rma/seg_barrier.h"

#define SKIFF_WIN_MAGIC 0x77696e64u

struct skiff_info;
struct skiff_rma_in;
struct skiff_rma_out;
struct skiff_rma_lockreq;

/* What the origin's access epoch to a target is (for MPI_ERR_RMA_SYNC checks). */
enum skiff_win_epoch { SKIFF_EPOCH_NONE = 0, SKIFF_EPOCH_FENCE = 1 };

struct skiff_win {
    uint32_t magic;            /* cleared when freed: the handle is refused from then on */
    int flavor;                /* MPI_WIN_FLAVOR_* */
    struct skiff_comm *comm;   /* private duplicate of the user's communicator */
    int rank, size;
    void *base;                /* this process's memory */
    MPI_Aint bytes;            /* its size */
    int disp_unit;
    MPI_Aint *sizes;           /* every rank's size ... */
    int *units;                /* ... and displacement unit (one allgather at creation) */
    MPI_Aint *offsets;         /* where each rank's part starts in the segment */
    void *seg;                 /* SHARED, and ALLOCATE on one node: the segment as this process maps it (its
                                * first line the accumulate lock) */
    size_t seg_bytes;
    void *owned;               /* MPI_WIN_FLAVOR_ALLOCATE across nodes: the memory the window allocated */
    int direct;                /* every part is in seg: operations are copies by the origin */
    int seg_bar;               /* direct, and the fence's barrier is bar, in seg (rma/seg_barrier.c) */
    struct skiff_seg_barrier bar;
    /* Direct window: this process touched the segment with plain loads or stores (a put, a get, the
     * lock word's path) since its last full fence, which a flush then owes; CPU atomics, sequentially
     * consistent each, owe none. */
    int plain;
    /* Win_create within a node: cma[t] when put and get reach rank t's memory (at rbase[t], process
     * pids[t]) with process_vm_writev/readv; NULL when no target can be reached so. */
    unsigned char *cma;
    uint64_t *rbase;
    int *pids;
    /* Win_create, and Win_allocate across nodes, when a transport offers RDMA (rma/rdma.h): this
     * process's registration and the targets' keys; NULL otherwise. */
    struct skiff_rma_rdma *rdma;
    MPI_Errhandler errhandler; /* MPI_ERRORS_ARE_FATAL unless set */
    char name[MPI_MAX_OBJECT_NAME];
    struct skiff_attrs attrs;
    struct skiff_info *info;   /* the hints given (MPI_Win_get_info gives them back), never NULL */
    /* Fence: operations sent to each target and applied here, over the window's life. */
    uint64_t *sent;
    /* Operations sent to each target since its last flush whose completion there no reply of their own
     * shows (puts, accumulates): a flush asks the target only when this is not 0. */
    uint64_t *blind;
    uint64_t applied;
    int epoch;                 /* enum skiff_win_epoch */
    int next_tag;              /* reply tags of this process's operations: 1 and up */
    /* Passive target, origin side: the lock this process holds on each target (0 or MPI_LOCK_*), and
     * whether it holds lock_all. */
    int *locks;
    int lock_all;
    /* Passive target, target side: the holders of this process's lock. */
    int excl_holder;           /* the rank holding it exclusively, or -1 */
    int shared_holders;
    /* Arrived operations, in arrival order; origin operations waiting for a reply or their send; replies
     * this target is sending. */
    struct skiff_rma_in *in_head, *in_tail;
    struct skiff_rma_out *out;
    int nout;
    struct skiff_rma_out *replies;
    unsigned char *blocked;    /* scratch for the apply pass: origins whose stream waits */
    /* General active target: the access group of MPI_Win_start (in_access[t]; naccess -1: no epoch) and
     * the exposure group of MPI_Win_post (nexpose -1: none), as window ranks; posts and completions
     * that arrived from each rank and were not yet taken by a start or a wait. */
    unsigned char *in_access;
    int *access, naccess;
    int *expose, nexpose;
    unsigned *posts, *completes;
    /* MPI_WIN_FLAVOR_DYNAMIC: the memory attached (target displacements are its addresses). */
    struct skiff_win_region {
        uintptr_t base;
        size_t bytes;
    } *regions;
    int nregions, cap_regions;
    MPI_Win handle;
    struct skiff_win *next;    /* live windows, which the progress hook serves */
};

/* NULL for MPI_WIN_NULL and anything that is not a live window. Inline: the first step of every call. */
static inline struct skiff_win *skiff_win_get(MPI_Win h)
{
    if ((uintptr_t)h < 0x1000 || (uintptr_t)h % sizeof(void *))
        return NULL;
    struct skiff_win *w = (struct skiff_win *)(void *)h;
    return w->magic == SKIFF_WIN_MAGIC ? w : NULL;
}

/* Collective over c (an intracommunicator): a window over base (bytes, disp_unit) of flavor CREATE,
 * ALLOCATE (base is allocated, *base_out set) or SHARED (a segment mapped by all; c must be on one node).
 * info may be NULL. */
int skiff_win_make(struct skiff_comm *c, int flavor, void *base, MPI_Aint bytes, int disp_unit,
                   const struct skiff_info *info, void **base_out, struct skiff_win **out);
/* Collective: completes what is pending, runs the attributes' delete callbacks, frees. */
int skiff_win_free(struct skiff_win *w);
/* MPI_Win_shared_query: rank's part of a shared window (MPI_PROC_NULL: the first part of non-zero size). */
int skiff_win_shared_query(struct skiff_win *w, int rank, MPI_Aint *size, int *disp_unit, void *baseptr);

/* Dynamic windows: attach and detach memory (an MPI error code). */
int skiff_win_attach(struct skiff_win *w, void *base, size_t bytes);
int skiff_win_detach(struct skiff_win *w, const void *base);

/* Applies the window's error handler (or MPI_COMM_WORLD's for a window that is not valid). */
int skiff_win_fail(MPI_Win h, int rc);

/* The kinds of operation an origin sends. */
enum skiff_rma_kind {
    SKIFF_RMA_PUT = 1,
    SKIFF_RMA_GET,
    SKIFF_RMA_ACC,      /* Accumulate */
    SKIFF_RMA_GACC,     /* Get_accumulate, Fetch_and_op */
    SKIFF_RMA_CAS,      /* Compare_and_swap */
    SKIFF_RMA_LOCK,     /* control: not counted by fence */
    SKIFF_RMA_UNLOCK,
    SKIFF_RMA_FLUSH,
    SKIFF_RMA_POST,     /* target to origin: MPI_Win_post */
    SKIFF_RMA_COMPLETE, /* origin to target: MPI_Win_complete, after its operations */
};

/* One operation as the MPI layer checked it. origin: count elements of ot at oaddr (PUT, ACC, GACC, CAS:
 * the data sent; GET: where the data lands). result: GACC/CAS's result buffer (rcount of rt). compare:
 * CAS's compare value (one element of ot). Target: tcount elements of tt at displacement disp. */
struct skiff_rma_op {
    int kind;
    const void *oaddr;
    size_t ocount;
    const struct skiff_type *ot;
    void *raddr;
    size_t rcount;
    const struct skiff_type *rt;
    const void *compare;
    int target;
    MPI_Aint disp;
    size_t tcount;
    const struct skiff_type *tt;
    MPI_Op op;
    struct skiff_request *user; /* Rput, Rget, ...: completed when the origin's part is done, or NULL */
};

/* Starts op (the caller checked it; target is not MPI_PROC_NULL). */
int skiff_rma_issue(struct skiff_win *w, const struct skiff_rma_op *op);
/* Where bytes at disp in target's part of a direct window are, or NULL when they are not all in it (or
 * the window is not direct). Inline: every fast path's first step. */
static inline char *skiff_rma_direct_addr(const struct skiff_win *w, int target, MPI_Aint disp, size_t bytes)
{
    long long start;
    if (!w->direct || __builtin_mul_overflow((long long)disp, w->units[target], &start) || start < 0 ||
        bytes > (size_t)w->sizes[target] || start > w->sizes[target] - (long long)bytes)
        return NULL;
    return (char *)w->seg + w->offsets[target] + start;
}

/* One element of the predefined type t at disp in target's part, by one atomic step with no message
 * (skiff_rma_atomic_elem's arguments): 1 when done, 0 when this is not such a case (not a direct window,
 * out of range, misaligned, or a type without a lock-free form) and nothing was done. Inline, like the
 * next one: the whole of a fetch_and_op, accumulate or compare_and_swap fast path after its checks. */
static inline int skiff_rma_atomic_one(struct skiff_win *w, int target, MPI_Aint disp, const struct skiff_type *t,
                                       MPI_Op op, const void *in, const void *cmp, void *out)
{
    char *addr = skiff_rma_direct_addr(w, target, disp, t->size);
    if (!addr)
        return 0;
    int cls = skiff_rma_atomic_class(t->basic, t->size);
    if (!cls || !skiff_rma_atomic_aligned(addr, t->size))
        return 0;
    if (!cmp && t->size == 8 && skiff_rma_atomic8_quick(addr, cls, op, in, out))
        return 1;
    skiff_rma_atomic_elem(addr, t->size, cls, op, t->basic, in, cmp, out);
    return 1;
}

/* Put (get 0) or get (1) of count elements of the predefined contiguous type t between buf and disp in
 * target's part, as one copy: 1 when done, 0 when not such a case (not a direct window, out of range)
 * and nothing was done. A plain copy: the next flush owes a fence (skiff_rma_flush_direct). */
static inline int skiff_rma_copy_one(struct skiff_win *w, int get, int target, MPI_Aint disp,
                                     const struct skiff_type *t, size_t count, void *buf)
{
    size_t bytes;
    char *addr;
    if (__builtin_mul_overflow(count, t->size, &bytes) || !(addr = skiff_rma_direct_addr(w, target, disp, bytes)))
        return 0;
    w->plain = 1;
    if (bytes == 8) /* one word, the commonest small put: a load and a store, not a call */
        memmove(get ? buf : addr, get ? addr : buf, 8);
    else
        memmove(get ? buf : addr, get ? addr : buf, bytes);
    return 1;
}

/* MPI_Win_fence. */
int skiff_rma_fence(struct skiff_win *w, int assert);
/* locks[] holds the type, with this bit when the lock was taken with MPI_MODE_NOCHECK (never asked for). */
#define SKIFF_LOCK_NOCHECK 0x10000
/* Passive target: lock (MPI_LOCK_*), unlock, flush (target, or -1: every target this process locked). */
int skiff_rma_lock(struct skiff_win *w, int type, int target, int nocheck);
int skiff_rma_unlock(struct skiff_win *w, int target);
int skiff_rma_flush(struct skiff_win *w, int target);

/* A flush on a direct window, where every operation is complete at the target when its call returns
 * (inline: MPI_Win_flush's fast path). Only plain copies still owe a seq_cst fence: a put's stores
 * must be ordered before this process's later loads, not only its later stores (a release would do
 * for those), or two processes that each put then flush then read what the other put could both read
 * the old values (Dekker's pattern), which the flush's "complete at the target" rules out. After
 * atomics alone (a fetch_and_op loop) there is nothing to fence: each was a seq_cst step of its own. */
static inline void skiff_rma_flush_direct(struct skiff_win *w)
{
    if (w->plain) {
        atomic_thread_fence(memory_order_seq_cst);
        w->plain = 0;
    }
}

/* General active target; ranks are window ranks (n of them). wait: block (MPI_Win_wait) or not
 * (MPI_Win_test); returns 1 when the exposure epoch has ended. */
int skiff_rma_post(struct skiff_win *w, const int *ranks, int n, int nocheck);
int skiff_rma_start(struct skiff_win *w, const int *ranks, int n, int nocheck);
int skiff_rma_complete(struct skiff_win *w);
int skiff_rma_wait(struct skiff_win *w, int block);

/* How an operation reaches a target: the one place per-transport capabilities will decide. */
enum skiff_rma_path_kind { SKIFF_RMA_PATH_MESSAGE = 0, SKIFF_RMA_PATH_DIRECT, SKIFF_RMA_PATH_CMA, SKIFF_RMA_PATH_RDMA };
int skiff_rma_path(const struct skiff_win *w, int target);

/* MPI_Finalize: windows the program never freed are forgotten (their memory released). */
void skiff_rma_finalize(void);

#endif
