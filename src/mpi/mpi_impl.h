/* Shared by the MPI_* entry points: export rules, the "which call is this" marker, argument checks.
 * Every check composes a message naming the call, the rank and the offending values. */
#ifndef SKIFF_MPI_IMPL_H
#define SKIFF_MPI_IMPL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

#include "core/comm.h"
#include "core/core.h"
#include "core/datatype.h"
#include "core/error.h"
#include "core/group.h"
#include "core/info.h"
#include "core/mt.h"
#include "mpi/profile.h"
#include "util/arch.h"

/* Every MPI_X is the weak alias of PMPI_X, so a profiler may define MPI_X and call PMPI_X. */
#define SKIFF_PRAGMA(x) _Pragma(#x)
#define SKIFF_ALIAS(name) SKIFF_PRAGMA(weak name = P##name)

#define SKIFF_TAG_UB INT_MAX

/* The first statement of every entry point: takes the MPI_THREAD_MULTIPLE lock if that level was granted
 * (core/mt.h; declared first, so released last), names the call for error messages and opens its profiler
 * span (mpi/profile.h), which records the call when it returns. name is the bare MPI_X. */
#define SKIFF_ENTER(name)                                                                                \
    SKIFF_MT_GUARD_CHECKED("P" #name);                                                                   \
    skiff_call = #name;                                                                                  \
    SKIFF_PROF_SPAN(name)

/* SKIFF_ENTER for a call with a path that needs no library lock (core/mt.h's skiff_mt_guard_late): under
 * MPI_THREAD_MULTIPLE, and if late holds, skiff_mt_held_ starts at -1, lock not taken. SKIFF_ENTER_LATE is
 * for the sends, whose path exists only when some peer's transport has send_direct. */
#define SKIFF_ENTER_LATE_IF(name, late)                                                                  \
    __attribute__((cleanup(skiff_mt_leave), unused)) int skiff_mt_held_ =                                \
        SKIFF_UNLIKELY(skiff_mt_mode) ? skiff_mt_guard_late("P" #name, late) : 0;                        \
    skiff_call = #name;                                                                                  \
    SKIFF_PROF_SPAN(name)
#define SKIFF_ENTER_LATE(name) SKIFF_ENTER_LATE_IF(name, __atomic_load_n(&skiff_mt_direct, __ATOMIC_RELAXED))

/* SKIFF_ENTER for the calls MPI-4.1 lets any thread make at any level (11.6: MPI_Initialized,
 * MPI_Finalized, MPI_Query_thread, MPI_Is_thread_main, MPI_Get_version, MPI_Get_library_version). */
#define SKIFF_ENTER_ANY_THREAD(name)                                                                     \
    SKIFF_MT_GUARD();                                                                                    \
    skiff_call = #name;                                                                                  \
    SKIFF_PROF_SPAN(name)

/* SKIFF_ENTER for a body shared by MPI_X and its large-count twin MPI_X_c: large (0 or 1) says which
 * call this is, for the messages and the profiler. */
#define SKIFF_ENTER_TWIN(name, large)                                                                    \
    SKIFF_MT_GUARD_CHECKED("P" #name);                                                                   \
    skiff_call = (large) ? #name "_c" : #name;                                                           \
    __attribute__((cleanup(skiff_prof_leave), unused)) const struct skiff_prof_span skiff_span_ = {      \
        (large) ? SKIFF_PC_##name##_c : SKIFF_PC_##name,                                                 \
        SKIFF_UNLIKELY(skiff_prof_on) ? skiff_prof_enter() : SKIFF_PROF_OFF}

/* Before MPI_Init or after MPI_Finalize the only safe answer is to stop: no handler is set up. */
#define SKIFF_REQUIRE_INIT()                                                                             \
    do {                                                                                                 \
        if (SKIFF_UNLIKELY(!skiff.initialized || skiff.finalized))                                        \
            skiff_not_initialized();                                                                     \
    } while (0)

_Noreturn void skiff_not_initialized(void);

static inline int skiff_check_comm(MPI_Comm h, struct skiff_comm **out)
{
    struct skiff_comm *c = skiff_comm_get(h);
    if (SKIFF_UNLIKELY(!c))
        return skiff_err(MPI_ERR_COMM, "invalid communicator %s",
                         h == MPI_COMM_NULL ? "(MPI_COMM_NULL)" : "(not a communicator, or already freed)");
    *out = c;
    return MPI_SUCCESS;
}

static inline int skiff_check_group(MPI_Group h, struct skiff_group **out)
{
    struct skiff_group *g = skiff_group_get(h);
    if (SKIFF_UNLIKELY(!g))
        return skiff_err(MPI_ERR_GROUP, "invalid group %s",
                         h == MPI_GROUP_NULL ? "(MPI_GROUP_NULL)" : "(not a group, or already freed)");
    *out = g;
    return MPI_SUCCESS;
}

/* Counts are MPI_Count so the int entry points and their large-count (_c) twins share one check. */
static inline int skiff_check_count(MPI_Count count)
{
    return SKIFF_LIKELY(count >= 0) ? MPI_SUCCESS
                                    : skiff_err(MPI_ERR_COUNT, "invalid count %lld (must be >= 0)", (long long)count);
}

/* Checks that dt names a live datatype; committed: that it may carry data (derived types must be
 * committed first). */
static inline int skiff_check_dtype(MPI_Datatype dt, int committed, const struct skiff_type **out)
{
    const struct skiff_type *t = skiff_type_get(dt);
    if (SKIFF_UNLIKELY(!t)) {
        const char *absent = skiff_type_unsupported(dt);
        if (absent)
            return skiff_err(MPI_ERR_TYPE, "invalid datatype %s (an optional type this platform does not have)",
                             absent);
        return skiff_err(MPI_ERR_TYPE, "invalid datatype %s",
                         dt == MPI_DATATYPE_NULL ? "(MPI_DATATYPE_NULL)" : "(not a datatype, or already freed)");
    }
    if (SKIFF_UNLIKELY(committed && !t->committed))
        return skiff_err(MPI_ERR_TYPE,
                         "datatype (derived: %zu bytes of data, extent %td) is not committed: call "
                         "MPI_Type_commit before using it to move data",
                         t->size, t->extent);
    *out = t;
    return MPI_SUCCESS;
}

static inline int skiff_check_buf(const void *buf, MPI_Count count)
{
    return SKIFF_LIKELY(buf || count == 0)
               ? MPI_SUCCESS
               : skiff_err(MPI_ERR_BUFFER, "buffer is NULL but count is %lld", (long long)count);
}

/* An output or array argument the call must read or write; name is the argument as the standard spells it. */
static inline int skiff_check_ptr(const void *p, const char *name)
{
    return SKIFF_LIKELY(p != NULL) ? MPI_SUCCESS : skiff_err(MPI_ERR_ARG, "%s is NULL", name);
}

/* A NULL buffer is MPI_BOTTOM: valid when the type's displacements are absolute addresses, i.e. its
 * data does not start at 0. */
static inline int skiff_check_typed_buf(const void *buf, MPI_Count count, const struct skiff_type *t)
{
    return SKIFF_LIKELY(buf || count == 0 || t->size == 0 || t->true_lb != 0) ? MPI_SUCCESS
                                                                              : skiff_check_buf(buf, count);
}

/* Destination ranks: 0..size-1 (of the remote group on an intercommunicator) or MPI_PROC_NULL. */
static inline int skiff_check_dest(const struct skiff_comm *c, int r)
{
    if (SKIFF_LIKELY(r >= 0 && r < c->peers) || r == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_RANK, "invalid rank %d (communicator %s has %d ranks%s)", r, skiff_comm_label(c),
                     c->peers, c->remote ? " in its remote group" : "");
}

/* Source ranks: also MPI_ANY_SOURCE. */
static inline int skiff_check_source(const struct skiff_comm *c, int r)
{
    return r == MPI_ANY_SOURCE ? MPI_SUCCESS : skiff_check_dest(c, r);
}

static inline int skiff_check_send_tag(int tag)
{
    return SKIFF_LIKELY(tag >= 0) ? MPI_SUCCESS
                                  : skiff_err(MPI_ERR_TAG, "invalid tag %d (valid tags are 0..%d)", tag, SKIFF_TAG_UB);
}

static inline int skiff_check_recv_tag(int tag)
{
    return tag == MPI_ANY_TAG ? MPI_SUCCESS : skiff_check_send_tag(tag);
}

/* MPI_IN_PLACE is (void *)1: taken for a buffer, the call would touch address 1. name: the argument. */
static inline int skiff_check_not_in_place(const void *buf, const char *name)
{
    return SKIFF_LIKELY(buf != MPI_IN_PLACE)
               ? MPI_SUCCESS
               : skiff_err(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which is not a valid buffer here", name);
}

/* The common checks of a send or receive; c and t are set on success; bufname is "buf", or "sendbuf"
 * and "recvbuf" for MPI_Sendrecv. Forced inline: on the ping-pong path a call here costs more than the
 * checks. MPI_BOTTOM is 0 and MPI_IN_PLACE 1 (mpi.h), so one compare clears an ordinary buffer of both
 * the NULL and the in-place check. */
static inline __attribute__((always_inline)) int skiff_check_p2p(const void *buf, const char *bufname,
                            MPI_Count count,
                                                                 MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                                                                 int is_recv, struct skiff_comm **c,
                                                                 const struct skiff_type **t)
{
    int rc;
    if ((rc = skiff_check_comm(comm, c)) || (rc = skiff_check_count(count)) || (rc = skiff_check_dtype(dt, 1, t)))
        return rc;
    if (SKIFF_UNLIKELY((uintptr_t)buf <= (uintptr_t)MPI_IN_PLACE) &&
        ((rc = skiff_check_not_in_place(buf, bufname)) || (rc = skiff_check_typed_buf(buf, count, *t))))
        return rc;
    if ((rc = is_recv ? skiff_check_source(*c, peer) : skiff_check_dest(*c, peer)) ||
        (rc = is_recv ? skiff_check_recv_tag(tag) : skiff_check_send_tag(tag)))
        return rc;
    return MPI_SUCCESS;
}

/* Calls defined on intracommunicators only refuse an intercommunicator (and the reverse). */
static inline int skiff_check_intra(const struct skiff_comm *c)
{
    if (SKIFF_LIKELY(!c->remote))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_COMM, "communicator %s is an intercommunicator (local group of %d, remote group of %d), "
                     "which this call does not take", skiff_comm_label(c), c->size, c->peers);
}

static inline int skiff_check_inter(const struct skiff_comm *c)
{
    if (SKIFF_LIKELY(c->remote != NULL))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_COMM, "communicator %s is an intracommunicator (%d ranks); this call takes an "
                     "intercommunicator", skiff_comm_label(c), c->size);
}

/* Applies the error handler of comm (or MPI_COMM_WORLD's when comm is not valid). */
static inline int skiff_fail(MPI_Comm comm, int rc)
{
    return skiff_err_handle(skiff_comm_get(comm), rc);
}

/* For calls without a communicator: their errors go to MPI_COMM_WORLD's handler. MPI_SUCCESS passes. */
static inline int skiff_fail_world(int rc)
{
    return skiff_fail(MPI_COMM_WORLD, rc);
}

/* The body of MPI_{Comm,Win,Session}_create_errhandler and MPI_Errhandler_create (mpi/errhandler.c):
 * fn is the user's function, fn_name the argument's name for the message, kind a SKIFF_EH_* value. */
int skiff_errhandler_create(const void *fn, const char *fn_name, int kind, MPI_Errhandler *errhandler);

/* A buffer of count elements of t, named in the message as the call names it. NULL is MPI_BOTTOM: valid
 * when the datatype's displacements are absolute addresses (its data does not start at 0). */
static inline int skiff_check_named_buf(const void *buf, size_t count, const struct skiff_type *t, const char *name)
{
    if (SKIFF_LIKELY(buf || !count || !t->size || t->true_lb))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_BUFFER, "%s is NULL but is to hold %zu elements", name, count);
}

/* An array of n entries the call reads or writes; with n <= 0 it is never touched, so NULL is fine. */
static inline int skiff_check_array(int n, const void *p, const char *name)
{
    if (SKIFF_LIKELY(n <= 0 || p != NULL))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ARG, "%s is NULL but is to hold %d entries", name, n);
}

/* An array of n counts or lengths, each >= 0 (MPI_ERR_COUNT names the entry: "invalid recvcounts[2] = -3");
 * *total, if asked for, is their sum. */
static inline int skiff_check_counts(int n, const int *counts, const char *name, size_t *total)
{
    int rc = skiff_check_array(n, counts, name);
    size_t sum = 0;
    for (int i = 0; !rc && i < n; i++) {
        if (SKIFF_UNLIKELY(counts[i] < 0))
            rc = skiff_err(MPI_ERR_COUNT, "invalid %s[%d] = %d (must be >= 0)", name, i, counts[i]);
        else
            sum += (size_t)counts[i];
    }
    if (total)
        *total = sum;
    return rc;
}

/* skiff_check_counts for an array of MPI_Count (the large-count calls'). */
static inline int skiff_check_lcounts(int n, const MPI_Count *counts, const char *name, size_t *total)
{
    int rc = skiff_check_array(n, counts, name);
    size_t sum = 0;
    for (int i = 0; !rc && i < n; i++) {
        if (SKIFF_UNLIKELY(counts[i] < 0))
            rc = skiff_err(MPI_ERR_COUNT, "invalid %s[%d] = %lld (must be >= 0)", name, i, (long long)counts[i]);
        else
            sum += (size_t)counts[i];
    }
    if (total)
        *total = sum;
    return rc;
}

/* The collectives' internals take MPI_Count arrays: an int call's array of n counts, widened into a new
 * array the caller frees (NULL stays NULL, for the NULL check to report). */
int skiff_widen_counts(const int *counts, int n, MPI_Count **out);
/* The counts of comm's ranks as the internals take them: a _c call's (large) lcounts as given, an int
 * call's icounts widened into *owned (the caller frees it). */
int skiff_lcounts_of(int large, MPI_Comm comm, const int *icounts, const MPI_Count *lcounts, const MPI_Count **out,
                     MPI_Count **owned);

/* An info argument that may be MPI_INFO_NULL (no hints). */
static inline int skiff_check_info(MPI_Info info)
{
    if (SKIFF_LIKELY(info == MPI_INFO_NULL || skiff_info_get(info)))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_INFO, "invalid info (not an info object, or already freed)");
}

/* An info object the call reads or changes: MPI_INFO_NULL is refused. */
static inline int skiff_check_info_obj(MPI_Info h, struct skiff_info **out)
{
    struct skiff_info *in = skiff_info_get(h);
    if (SKIFF_UNLIKELY(!in))
        return skiff_err(MPI_ERR_INFO, "invalid info %s",
                         h == MPI_INFO_NULL ? "(MPI_INFO_NULL)" : "(not an info object, or already freed)");
    *out = in;
    return MPI_SUCCESS;
}

#endif
