/* Reference counts of objects that every communicator shares (datatypes, ops, error handlers, a type's
 * constructor record). The count is an atomic, so that a reference can be taken or dropped under a lock
 * other than the one of the thread that made the object (docs/per-communicator-locks.md, step 2). The
 * last drop is acq_rel: it sees every write the other holders made before theirs, and the object is then
 * freed by exactly one thread. Predefined objects are never counted, so the fast paths of contiguous
 * traffic take none of these. */
#ifndef SKIFF_REFCOUNT_H
#define SKIFF_REFCOUNT_H

static inline void skiff_ref_inc(int *refs)
{
    __atomic_fetch_add(refs, 1, __ATOMIC_RELAXED);
}

/* 1 if that was the last reference. */
static inline int skiff_ref_dec(int *refs)
{
    return __atomic_sub_fetch(refs, 1, __ATOMIC_ACQ_REL) == 0;
}

#endif
