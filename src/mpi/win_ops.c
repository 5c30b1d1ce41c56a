/* One-sided communication and synchronization: Put, Get, the accumulates, fence, passive target. The
 * checks are here; the engine is src/rma/win.c. */
#include <stdatomic.h>
#include <stdlib.h>

#include "core/op.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "core/request.h"
#include "mpi/mpi_impl.h"
#include "rma/win.h"

static int check_win(MPI_Win h, struct skiff_win **out)
{
    struct skiff_win *w = skiff_win_get(h);
    if (SKIFF_UNLIKELY(!w))
        return skiff_err(MPI_ERR_WIN, "invalid window %s",
                         h == MPI_WIN_NULL ? "(MPI_WIN_NULL)" : "(not a window, or already freed)");
    *out = w;
    return MPI_SUCCESS;
}

static int check_rank(const struct skiff_win *w, int rank, int proc_null_ok)
{
    if (SKIFF_LIKELY(rank >= 0 && rank < w->size) || (proc_null_ok && rank == MPI_PROC_NULL))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_RANK, "invalid target rank %d (the window has %d processes)", rank, w->size);
}

/* count elements of dt at addr, named name in messages; *t set. */
static int check_side(const void *addr, MPI_Count count, MPI_Datatype dt, const char *name,
                      const struct skiff_type **t)
{
    int rc;
    if ((rc = skiff_check_count(count)) || (rc = skiff_check_dtype(dt, 1, t)))
        return rc;
    return addr ? MPI_SUCCESS : skiff_check_named_buf(addr, (size_t)count, *t, name);
}

static int same_bytes(const char *what, size_t a, const char *other, size_t b)
{
    if (SKIFF_LIKELY(a == b))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_TYPE, "the %s hold %zu bytes of data but the %s hold %zu: their type signatures "
                                   "must match",
                     what, a, other, b);
}

/* The target range must lie in the target's window (whose size and unit every process knows). */
static int check_range(const struct skiff_win *w, int target, MPI_Aint disp, size_t count,
                       const struct skiff_type *tt)
{
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) /* an address at the target, which checks it */
        return MPI_SUCCESS;
    if (disp < 0)
        return skiff_err(MPI_ERR_DISP, "invalid target_disp %lld (must be >= 0)", (long long)disp);
    if (!count || !tt->size)
        return MPI_SUCCESS;
    ptrdiff_t lo = 0, hi = 0;
    long long start = 0;
    if (!skiff_type_reach(tt, count, &lo, &hi) || __builtin_mul_overflow((long long)disp, w->units[target], &start) ||
        start + lo < 0 || start + hi > w->sizes[target])
        return skiff_err(MPI_ERR_RMA_RANGE, "%zu elements at displacement %lld (x disp_unit %d: bytes %lld to "
                                            "%lld) do not fit rank %d's window of %lld bytes",
                         count, (long long)disp, w->units[target], start + (long long)lo, start + (long long)hi,
                         target, (long long)w->sizes[target]);
    return MPI_SUCCESS;
}

/* Whether an access epoch to target is open: a fence's, a lock's or a start's. */
static int in_epoch(const struct skiff_win *w, int target)
{
    return w->epoch == SKIFF_EPOCH_FENCE || w->locks[target] || w->in_access[target];
}

static int check_epoch(const struct skiff_win *w, int target)
{
    if (SKIFF_LIKELY(in_epoch(w, target)))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_RMA_SYNC, "no access epoch to rank %d is open (start one with MPI_Win_fence, "
                                       "MPI_Win_start, MPI_Win_lock or MPI_Win_lock_all)", target);
}

/* An accumulate's op on data of basic type basic: predefined, defined for the type. */
static int check_acc_op(MPI_Op op, const struct skiff_type *tt, const struct skiff_type *ot)
{
    int rc = skiff_op_check_valid(op);
    if (rc)
        return rc;
    if (skiff_op_user(op))
        return skiff_err(MPI_ERR_OP, "one-sided accumulates take predefined ops only, not a user-defined op");
    if (tt->basic == MPI_DATATYPE_NULL)
        return skiff_err(MPI_ERR_TYPE, "the target datatype mixes basic types: an accumulate needs one");
    if (ot && ot->basic != tt->basic)
        return skiff_err(MPI_ERR_TYPE, "the origin datatype is made of %s but the target datatype of %s: an "
                                       "accumulate needs the same basic type on both sides",
                         ot->basic == MPI_DATATYPE_NULL ? "mixed types" : skiff_type_get(ot->basic)->name,
                         skiff_type_get(tt->basic)->name);
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return MPI_SUCCESS;
    return skiff_op_check(op, tt->basic);
}

/* Every communication call: what it carries in op (kind, buffers, counts, the target), the user's datatype
 * handles beside. */
static int rma(struct skiff_rma_op *op, MPI_Datatype odt, MPI_Datatype rdt, MPI_Datatype tdt, MPI_Count oc,
               MPI_Count rc_, MPI_Count tc, MPI_Win win, int is_req, MPI_Request *request)
{
    struct skiff_win *w = NULL;
    int rc;
    SKIFF_REQUIRE_INIT();
    if ((rc = check_win(win, &w)) || (rc = check_rank(w, op->target, 1)))
        return skiff_win_fail(win, rc);
    int no_origin = op->kind == SKIFF_RMA_GACC && op->op == MPI_NO_OP;
    if (!no_origin &&
        (rc = check_side(op->kind == SKIFF_RMA_GET ? op->raddr : op->oaddr, oc, odt, "origin_addr", &op->ot)))
        return skiff_win_fail(win, rc);
    if ((op->kind == SKIFF_RMA_GACC || op->kind == SKIFF_RMA_CAS) &&
        (rc = check_side(op->raddr, rc_, rdt, "result_addr", &op->rt)))
        return skiff_win_fail(win, rc);
    if (op->kind == SKIFF_RMA_CAS && (rc = skiff_check_ptr(op->compare, "compare_addr")))
        return skiff_win_fail(win, rc);
    if ((rc = skiff_check_count(tc)) || (rc = skiff_check_dtype(tdt, 1, &op->tt)))
        return skiff_win_fail(win, rc);
    op->ocount = (size_t)oc;
    op->rcount = (size_t)rc_;
    op->tcount = (size_t)tc;
    size_t tbytes = op->tcount * op->tt->size;
    if (op->kind == SKIFF_RMA_ACC && op->op == MPI_NO_OP)
        rc = skiff_err(MPI_ERR_OP, "MPI_NO_OP only fetches: it is for MPI_Get_accumulate, MPI_Rget_accumulate "
                                   "and MPI_Fetch_and_op, not for an accumulate that returns nothing");
    else if (op->kind == SKIFF_RMA_ACC || op->kind == SKIFF_RMA_GACC)
        rc = check_acc_op(op->op, op->tt, no_origin ? NULL : op->ot);
    if (!rc && !no_origin)
        rc = same_bytes("origin's elements", op->ocount * op->ot->size, "target's", tbytes);
    if (!rc && (op->kind == SKIFF_RMA_GACC || op->kind == SKIFF_RMA_CAS))
        rc = same_bytes("result's elements", op->rcount * op->rt->size, "target's", tbytes);
    if (!rc && is_req)
        rc = skiff_check_ptr(request, "request");
    if (!rc && op->target != MPI_PROC_NULL)
        rc = check_epoch(w, op->target);
    if (!rc && op->target != MPI_PROC_NULL)
        rc = check_range(w, op->target, op->disp, op->tcount, op->tt);
    if (rc)
        return skiff_win_fail(win, rc);
    if (is_req) {
        /* Request-based: a request of its own that the engine completes (core/request.h). */
        if (!(op->user = skiff_req_alloc(SKIFF_REQ_COLL)))
            return skiff_win_fail(win, skiff_err(MPI_ERR_NO_MEM, "out of request objects"));
        op->user->comm = w->comm;
        op->user->peer = MPI_PROC_NULL;
        op->user->tag = MPI_ANY_TAG;
        op->user->state = SKIFF_RS_POSTED;
        *request = skiff_req_handle(op->user);
    }
    if (op->target == MPI_PROC_NULL) {
        if (op->user)
            skiff_req_complete(op->user);
        return MPI_SUCCESS;
    }
    if ((rc = skiff_rma_issue(w, op))) {
        if (op->user) {
            skiff_req_release(op->user);
            *request = MPI_REQUEST_NULL;
        }
        return skiff_win_fail(win, rc);
    }
    return MPI_SUCCESS;
}

/* The fast paths' shared test: a valid window, a predefined type, a target rank of the window that the
 * caller may access now. NULL for anything else, which the general path then handles and reports. */
static inline struct skiff_win *fast_target(MPI_Win win, MPI_Datatype dt, int target, const struct skiff_type **t)
{
    struct skiff_win *w = skiff_win_get(win);
    *t = skiff_type_get(dt);
    if (!w || !*t || !(*t)->predefined || target < 0 || target >= w->size || !in_epoch(w, target))
        return NULL;
    return w;
}

/* Put and get of count elements of one predefined type, the same on both sides, on a direct window: the
 * shape of halo and NetPIPE transfers. rma()'s checks for that shape with one datatype lookup, then one
 * copy. 1: done. 0: any other case, and any argument in doubt, which rma() then handles and reports. */
static int copy_fast(MPI_Win win, int get, const void *buf, MPI_Count oc, MPI_Datatype odt, int target,
                     MPI_Aint disp, MPI_Count tc, MPI_Datatype tdt)
{
    if (odt != tdt || oc != tc || oc <= 0 || !buf)
        return 0;
    const struct skiff_type *t;
    struct skiff_win *w = fast_target(win, odt, target, &t);
    if (!w || !t->contiguous || t->extent != (ptrdiff_t)t->size)
        return 0;
    return skiff_rma_copy_one(w, get, target, disp, t, (size_t)oc, (void *)(uintptr_t)buf);
}

/* Whether op is defined on the predefined type t, remembering for each predefined op the last type
 * found good: a counter's loop asks the same question every time, a notification's flag and poll ask
 * two (MPI_REPLACE and MPI_NO_OP) in turn, and the full check costs a third of the call. (Predefined ops
 * and types are never freed; under MPI_THREAD_MULTIPLE the process-wide lock covers the words.) */
static int acc_op_known_good(MPI_Op op, const struct skiff_type *t)
{
    /* The standard ABI numbers the predefined ops from MPI_OP_NULL (0x20) to MPI_NO_OP (0x3d); a user's
     * op is a pointer, far outside. */
    static const struct skiff_type *good[64];
    uintptr_t i = (uintptr_t)op - (uintptr_t)MPI_OP_NULL;
    if (i < sizeof good / sizeof *good && good[i] == t)
        return 1;
    if (check_acc_op(op, t, t) != MPI_SUCCESS)
        return 0;
    if (i < sizeof good / sizeof *good)
        good[i] = t;
    return 1;
}

/* Fetch_and_op, Compare_and_swap and a one-element Accumulate of a predefined type on a direct window,
 * the shape of the counters, flags and locks programs build on MPI: rma()'s checks for that shape with
 * one datatype lookup, then one atomic step (no operation structure, no message). fetch: out must hold
 * the old value (fetch_and_op, compare_and_swap; not the accumulate, which passes NULL). 1: done. 0: any
 * other case, and any argument in doubt, which rma() then handles and reports. */
static int atomic_fast(MPI_Win win, int cas, int fetch, const void *in, const void *cmp, void *out,
                       MPI_Datatype dt, int target, MPI_Aint disp, MPI_Op op)
{
    if ((fetch && !out) || (cas && !cmp) || (!in && (cas || op != MPI_NO_OP)) || (!fetch && op == MPI_NO_OP))
        return 0;
    const struct skiff_type *t;
    struct skiff_win *w = fast_target(win, dt, target, &t);
    if (!w)
        return 0;
    if (!cas && !acc_op_known_good(op, t))
        return 0;
    return skiff_rma_atomic_one(w, target, disp, t, cas ? MPI_REPLACE : op, in, cmp, out);
}

#define PUT(name, count_t)                                                                               \
    int P##name(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, int target_rank,\
                MPI_Aint target_disp, count_t target_count, MPI_Datatype target_datatype, MPI_Win win)   \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        if (copy_fast(win, 0, origin_addr, origin_count, origin_datatype, target_rank, target_disp,      \
                      target_count, target_datatype))                                                    \
            return MPI_SUCCESS;                                                                          \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_PUT, .oaddr = origin_addr, .target = target_rank,    \
                                  .disp = target_disp, .op = MPI_REPLACE};                               \
        return rma(&op, origin_datatype, MPI_DATATYPE_NULL, target_datatype, origin_count, 0,            \
                   target_count, win, 0, NULL);                                                          \
    }                                                                                                    \
    SKIFF_ALIAS(name)

PUT(MPI_Put, int)
PUT(MPI_Put_c, MPI_Count)

#define GET(name, count_t)                                                                               \
    int P##name(void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, int target_rank,  \
                MPI_Aint target_disp, count_t target_count, MPI_Datatype target_datatype, MPI_Win win)   \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        if (copy_fast(win, 1, origin_addr, origin_count, origin_datatype, target_rank, target_disp,      \
                      target_count, target_datatype))                                                    \
            return MPI_SUCCESS;                                                                          \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_GET, .oaddr = origin_addr, .raddr = origin_addr,     \
                                  .target = target_rank, .disp = target_disp};                           \
        return rma(&op, origin_datatype, MPI_DATATYPE_NULL, target_datatype, origin_count, 0,            \
                   target_count, win, 0, NULL);                                                          \
    }                                                                                                    \
    SKIFF_ALIAS(name)

GET(MPI_Get, int)
GET(MPI_Get_c, MPI_Count)

#define ACCUMULATE(name, count_t)                                                                        \
    int P##name(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, int target_rank,\
                MPI_Aint target_disp, count_t target_count, MPI_Datatype target_datatype, MPI_Op op_,    \
                MPI_Win win)                                                                             \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        if (origin_count == 1 && target_count == 1 && origin_datatype == target_datatype && origin_addr &&\
            atomic_fast(win, 0, 0, origin_addr, NULL, NULL, origin_datatype, target_rank, target_disp, op_))\
            return MPI_SUCCESS;                                                                          \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_ACC, .oaddr = origin_addr, .target = target_rank,    \
                                  .disp = target_disp, .op = op_};                                       \
        return rma(&op, origin_datatype, MPI_DATATYPE_NULL, target_datatype, origin_count, 0,            \
                   target_count, win, 0, NULL);                                                          \
    }                                                                                                    \
    SKIFF_ALIAS(name)

ACCUMULATE(MPI_Accumulate, int)
ACCUMULATE(MPI_Accumulate_c, MPI_Count)

#define GET_ACCUMULATE(name, count_t)                                                                    \
    int P##name(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, void *result_addr,\
                count_t result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,\
                count_t target_count, MPI_Datatype target_datatype, MPI_Op op_, MPI_Win win)             \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_GACC, .oaddr = origin_addr, .raddr = result_addr,    \
                                  .target = target_rank, .disp = target_disp, .op = op_};                \
        return rma(&op, origin_datatype, result_datatype, target_datatype, origin_count, result_count,   \
                   target_count, win, 0, NULL);                                                          \
    }                                                                                                    \
    SKIFF_ALIAS(name)

GET_ACCUMULATE(MPI_Get_accumulate, int)
GET_ACCUMULATE(MPI_Get_accumulate_c, MPI_Count)

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op_, MPI_Win win)
{
    SKIFF_ENTER(MPI_Fetch_and_op);
    SKIFF_REQUIRE_INIT();
    if (atomic_fast(win, 0, 1, origin_addr, NULL, result_addr, datatype, target_rank, target_disp, op_))
        return MPI_SUCCESS;
    struct skiff_rma_op op = {.kind = SKIFF_RMA_GACC, .oaddr = origin_addr, .raddr = result_addr,
                              .target = target_rank, .disp = target_disp, .op = op_};
    return rma(&op, datatype, datatype, datatype, 1, 1, 1, win, 0, NULL);
}
SKIFF_ALIAS(MPI_Fetch_and_op)

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    SKIFF_ENTER(MPI_Compare_and_swap);
    SKIFF_REQUIRE_INIT();
    if (atomic_fast(win, 1, 1, origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp,
                    MPI_REPLACE))
        return MPI_SUCCESS;
    const struct skiff_type *t = skiff_type_get(datatype);
    if (t && !t->predefined)
        return skiff_win_fail(win, skiff_err(MPI_ERR_TYPE, "MPI_Compare_and_swap takes a predefined datatype "
                                                           "(an integer, logical or byte type), not a derived one"));
    struct skiff_rma_op op = {.kind = SKIFF_RMA_CAS, .oaddr = origin_addr, .raddr = result_addr,
                              .compare = compare_addr, .target = target_rank, .disp = target_disp,
                              .op = MPI_REPLACE};
    return rma(&op, datatype, datatype, datatype, 1, 1, 1, win, 0, NULL);
}
SKIFF_ALIAS(MPI_Compare_and_swap)

/* Request-based operations: the request completes when the origin's part is done (at once for put and
 * accumulate, whose data is packed at the call; when the data has landed for the others). */
#define RPUT(name, count_t)                                                                              \
    int P##name(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, int target_rank,\
                MPI_Aint target_disp, count_t target_count, MPI_Datatype target_datatype, MPI_Win win,   \
                MPI_Request *request)                                                                    \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_PUT, .oaddr = origin_addr, .target = target_rank,    \
                                  .disp = target_disp, .op = MPI_REPLACE};                               \
        return rma(&op, origin_datatype, MPI_DATATYPE_NULL, target_datatype, origin_count, 0,            \
                   target_count, win,                                                                    \
                   1, request);                                                                          \
    }                                                                                                    \
    SKIFF_ALIAS(name)

RPUT(MPI_Rput, int)
RPUT(MPI_Rput_c, MPI_Count)

#define RGET(name, count_t)                                                                              \
    int P##name(void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, int target_rank,  \
                MPI_Aint target_disp, count_t target_count, MPI_Datatype target_datatype, MPI_Win win,   \
                MPI_Request *request)                                                                    \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_GET, .oaddr = origin_addr, .raddr = origin_addr,     \
                                  .target = target_rank, .disp = target_disp};                           \
        return rma(&op, origin_datatype, MPI_DATATYPE_NULL, target_datatype, origin_count, 0,            \
                   target_count, win,                                                                    \
                   1, request);                                                                          \
    }                                                                                                    \
    SKIFF_ALIAS(name)

RGET(MPI_Rget, int)
RGET(MPI_Rget_c, MPI_Count)

#define RACCUMULATE(name, count_t)                                                                       \
    int P##name(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, int target_rank,\
                MPI_Aint target_disp, count_t target_count, MPI_Datatype target_datatype, MPI_Op op_,    \
                MPI_Win win, MPI_Request *request)                                                       \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_ACC, .oaddr = origin_addr, .target = target_rank,    \
                                  .disp = target_disp, .op = op_};                                       \
        return rma(&op, origin_datatype, MPI_DATATYPE_NULL, target_datatype, origin_count, 0,            \
                   target_count, win,                                                                    \
                   1, request);                                                                          \
    }                                                                                                    \
    SKIFF_ALIAS(name)

RACCUMULATE(MPI_Raccumulate, int)
RACCUMULATE(MPI_Raccumulate_c, MPI_Count)

#define RGET_ACCUMULATE(name, count_t)                                                                   \
    int P##name(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, void *result_addr,\
                count_t result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,\
                count_t target_count, MPI_Datatype target_datatype, MPI_Op op_, MPI_Win win,             \
                MPI_Request *request)                                                                    \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        struct skiff_rma_op op = {.kind = SKIFF_RMA_GACC, .oaddr = origin_addr, .raddr = result_addr,    \
                                  .target = target_rank, .disp = target_disp, .op = op_};                \
        return rma(&op, origin_datatype, result_datatype, target_datatype, origin_count, result_count,   \
                   target_count, win, 1, request);                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(name)

RGET_ACCUMULATE(MPI_Rget_accumulate, int)
RGET_ACCUMULATE(MPI_Rget_accumulate_c, MPI_Count)

/* ---- synchronization ---- */

static int check_assert(int assert, int allowed)
{
    if (SKIFF_LIKELY((assert & ~allowed) == 0))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ASSERT, "invalid assert %d (this call takes a combination of 0x%x)", assert, allowed);
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_fence);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) ||
        (rc = check_assert(assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)))
        return skiff_win_fail(win, rc);
    for (int t = 0; t < w->size; t++)
        if (w->locks[t])
            return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "MPI_Win_fence inside a passive target epoch "
                                                                   "(rank %d is locked)", t));
    if ((rc = skiff_rma_fence(w, assert)))
        return skiff_win_fail(win, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_fence)

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_lock);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = check_rank(w, rank, 1)) || (rc = check_assert(assert, MPI_MODE_NOCHECK)))
        return skiff_win_fail(win, rc);
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return skiff_win_fail(win, skiff_err(MPI_ERR_LOCKTYPE, "invalid lock_type %d (MPI_LOCK_EXCLUSIVE is %d, "
                                                               "MPI_LOCK_SHARED %d)",
                                             lock_type, MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED));
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    /* A fence followed by no operation opens no epoch (MPI-4.1 12.5.1), so a lock may follow one. */
    if (w->locks[rank])
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "rank %d is already locked by this process", rank));
    if ((rc = skiff_rma_lock(w, lock_type, rank, assert & MPI_MODE_NOCHECK)))
        return skiff_win_fail(win, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_lock)

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_unlock);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = check_rank(w, rank, 1)))
        return skiff_win_fail(win, rc);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (!w->locks[rank] || w->lock_all)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "rank %d is not locked by MPI_Win_lock", rank));
    if ((rc = skiff_rma_unlock(w, rank)))
        return skiff_win_fail(win, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_unlock)

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_lock_all);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (rc = check_assert(assert, MPI_MODE_NOCHECK)))
        return skiff_win_fail(win, rc);
    for (int t = 0; t < w->size; t++)
        if (w->locks[t])
            return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "rank %d is already locked", t));
    for (int t = 0; !rc && t < w->size; t++)
        rc = skiff_rma_lock(w, MPI_LOCK_SHARED, t, assert & MPI_MODE_NOCHECK);
    if (rc)
        return skiff_win_fail(win, rc);
    w->lock_all = 1;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_lock_all)

int PMPI_Win_unlock_all(MPI_Win win)
{
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_unlock_all);
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)))
        return skiff_win_fail(win, rc);
    if (!w->lock_all)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "the window is not locked by MPI_Win_lock_all"));
    for (int t = 0; !rc && t < w->size; t++)
        rc = skiff_rma_unlock(w, t);
    w->lock_all = 0;
    return rc ? skiff_win_fail(win, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_unlock_all)

/* Whether this process holds any passive-target lock on w: the _all flushes need one, as in MPICH. */
static int holds_lock(const struct skiff_win *w)
{
    for (int r = 0; r < w->size; r++)
        if (w->locks[r])
            return 1;
    return w->lock_all;
}

/* Flush and flush_local are one: an operation is complete at the origin only when the target has it. */
static int flush(MPI_Win win, int rank, int all)
{
    struct skiff_win *w = NULL;
    SKIFF_REQUIRE_INIT();
    int rc;
    if ((rc = check_win(win, &w)) || (!all && (rc = check_rank(w, rank, 1))))
        return skiff_win_fail(win, rc);
    if (all)
        rank = -1;
    else if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (all && !holds_lock(w))
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "no passive target epoch: flushing all targets "
                                                               "needs MPI_Win_lock or MPI_Win_lock_all first"));
    if (rank >= 0 && !w->locks[rank])
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "rank %d is not locked: flush needs a passive "
                                                               "target epoch", rank));
    if ((rc = skiff_rma_flush(w, rank)))
        return skiff_win_fail(win, rc);
    return MPI_SUCCESS;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    SKIFF_ENTER(MPI_Win_flush);
    SKIFF_REQUIRE_INIT();
    /* A target of a direct window that this process holds locked: flush()'s checks would all pass, and
     * all there is to do is at most one fence. */
    struct skiff_win *w = skiff_win_get(win);
    if (w && w->direct && rank >= 0 && rank < w->size && w->locks[rank]) {
        skiff_rma_flush_direct(w);
        return MPI_SUCCESS;
    }
    return flush(win, rank, 0);
}
SKIFF_ALIAS(MPI_Win_flush)

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    SKIFF_ENTER(MPI_Win_flush_local);
    return flush(win, rank, 0);
}
SKIFF_ALIAS(MPI_Win_flush_local)

int PMPI_Win_flush_all(MPI_Win win)
{
    SKIFF_ENTER(MPI_Win_flush_all);
    return flush(win, -1, 1);
}
SKIFF_ALIAS(MPI_Win_flush_all)

int PMPI_Win_flush_local_all(MPI_Win win)
{
    SKIFF_ENTER(MPI_Win_flush_local_all);
    return flush(win, -1, 1);
}
SKIFF_ALIAS(MPI_Win_flush_local_all)

/* The unified model: public and private copies are one; a full fence orders this process's loads and
 * stores against other processes' (of a shared window). Progress lets arrived operations land, on a
 * window whose operations are messages. On a direct window none are (other processes' land by
 * themselves), so the progress there is only for the rest of the library's traffic, which MPICH's and
 * Open MPI's shared-memory Win_sync do not make at all: skiff still makes it on one call in 64, so a
 * loop that polls with MPI_Win_sync keeps other messages moving, without paying a progress pass (a third
 * of a notified put's receiving side) on every call. */
int PMPI_Win_sync(MPI_Win win)
{
    static unsigned direct_syncs;
    struct skiff_win *w = NULL;
    SKIFF_ENTER(MPI_Win_sync);
    SKIFF_REQUIRE_INIT();
    int rc = check_win(win, &w);
    if (rc)
        return skiff_win_fail(win, rc);
    if (!w->direct || ++direct_syncs % 64 == 0)
        skiff_progress();
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_sync)

/* ---- general active target ---- */

/* The window ranks of group's members (*out, malloc'ed: the caller frees it). */
static int group_ranks(const struct skiff_win *w, MPI_Group group, int **out, int *n)
{
    struct skiff_group *g = NULL;
    int rc = skiff_check_group(group, &g);
    if (rc)
        return rc;
    int *r = malloc(sizeof *r * (size_t)(g->size ? g->size : 1));
    if (!r)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a group of %d processes", g->size);
    for (int i = 0; i < g->size; i++) {
        r[i] = -1;
        for (int k = 0; k < w->size && r[i] < 0; k++)
            if (skiff_comm_world_rank(w->comm, k) == g->world[i])
                r[i] = k;
        if (r[i] < 0) {
            free(r);
            return skiff_err(MPI_ERR_GROUP, "rank %d of the group is not a process of the window", i);
        }
    }
    *out = r;
    *n = g->size;
    return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    struct skiff_win *w = NULL;
    int *ranks = NULL, n = 0, rc;
    SKIFF_ENTER(MPI_Win_post);
    SKIFF_REQUIRE_INIT();
    if ((rc = check_win(win, &w)) ||
        (rc = check_assert(assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)))
        return skiff_win_fail(win, rc);
    if (w->nexpose >= 0)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "an exposure epoch (MPI_Win_post) is already open: "
                                                               "call MPI_Win_wait or MPI_Win_test first"));
    if ((rc = group_ranks(w, group, &ranks, &n)) || (rc = skiff_rma_post(w, ranks, n, assert & MPI_MODE_NOCHECK))) {
        free(ranks);
        return skiff_win_fail(win, rc);
    }
    free(ranks);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_post)

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    struct skiff_win *w = NULL;
    int *ranks = NULL, n = 0, rc;
    SKIFF_ENTER(MPI_Win_start);
    SKIFF_REQUIRE_INIT();
    if ((rc = check_win(win, &w)) || (rc = check_assert(assert, MPI_MODE_NOCHECK)))
        return skiff_win_fail(win, rc);
    if (w->naccess >= 0)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "an access epoch (MPI_Win_start) is already open: "
                                                               "call MPI_Win_complete first"));
    if ((rc = group_ranks(w, group, &ranks, &n)) || (rc = skiff_rma_start(w, ranks, n, assert & MPI_MODE_NOCHECK))) {
        free(ranks);
        return skiff_win_fail(win, rc);
    }
    free(ranks);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_start)

int PMPI_Win_complete(MPI_Win win)
{
    struct skiff_win *w = NULL;
    int rc;
    SKIFF_ENTER(MPI_Win_complete);
    SKIFF_REQUIRE_INIT();
    if ((rc = check_win(win, &w)))
        return skiff_win_fail(win, rc);
    if (w->naccess < 0)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "no access epoch is open (MPI_Win_start)"));
    if ((rc = skiff_rma_complete(w)))
        return skiff_win_fail(win, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_complete)

int PMPI_Win_wait(MPI_Win win)
{
    struct skiff_win *w = NULL;
    int rc;
    SKIFF_ENTER(MPI_Win_wait);
    SKIFF_REQUIRE_INIT();
    if ((rc = check_win(win, &w)))
        return skiff_win_fail(win, rc);
    if (w->nexpose < 0)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "no exposure epoch is open (MPI_Win_post)"));
    skiff_rma_wait(w, 1);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_wait)

int PMPI_Win_test(MPI_Win win, int *flag)
{
    struct skiff_win *w = NULL;
    int rc;
    SKIFF_ENTER(MPI_Win_test);
    SKIFF_REQUIRE_INIT();
    if ((rc = check_win(win, &w)) || (rc = skiff_check_ptr(flag, "flag")))
        return skiff_win_fail(win, rc);
    if (w->nexpose < 0)
        return skiff_win_fail(win, skiff_err(MPI_ERR_RMA_SYNC, "no exposure epoch is open (MPI_Win_post)"));
    *flag = skiff_rma_wait(w, 0);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Win_test)
