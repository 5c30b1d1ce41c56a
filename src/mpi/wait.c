/* Completion: the Wait and Test families, freeing and cancelling requests. */
#include <stdlib.h>

#include "core/greq.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "core/trace.h"
#include "mpi/mpi_impl.h"

#define NOT_LIVE "is not a live request (already completed and freed, or never created)"

/* The request a handle names; NULL for MPI_REQUEST_NULL and for stale or made-up handles, which the
 * lookup refuses without following them (core/request.h). Also NULL for a copy of a handle given to
 * MPI_Request_free: the progress engine releases that request when it completes, so a call holding
 * it across a wait would retire it twice. */
static inline struct skiff_request *live(MPI_Request h)
{
    struct skiff_request *r = h == MPI_REQUEST_NULL ? NULL : skiff_req_of(h);
    return r && SKIFF_LIKELY(!r->freed) ? r : NULL;
}

static unsigned long long handle_bits(MPI_Request h)
{
    return (unsigned long long)(uintptr_t)h;
}

static int check_req(MPI_Request h, struct skiff_request **out)
{
    struct skiff_request *r = live(h);
    if (SKIFF_UNLIKELY(!r && h != MPI_REQUEST_NULL))
        return skiff_err(MPI_ERR_REQUEST, "request %#llx " NOT_LIVE, handle_bits(h));
    *out = r;
    return MPI_SUCCESS;
}

/* The INOUT handle of Wait, Test, Request_free and Cancel. */
static int check_req_at(const MPI_Request *request, struct skiff_request **out)
{
    int rc = skiff_check_ptr(request, "request");
    return rc ? rc : check_req(*request, out);
}

/* The requests of an array call, each handle looked up once: the wait loops and the retire paths
 * use these. Arrays up to SET_STACK (a streaming window) need no allocation. */
#define SET_STACK 256

struct req_set {
    int n;
    struct skiff_request **r; /* r[i]: what array_of_requests[i] names; NULL for MPI_REQUEST_NULL */
    struct skiff_request *stack[SET_STACK];
};

static void set_drop(struct req_set *s)
{
    if (s->r != s->stack)
        free(s->r);
}

static int first_of(MPI_Request reqs[], int i)
{
    int j = 0;
    while (reqs[j] != reqs[i])
        j++;
    return j;
}

/* Up to this many requests, comparing pairs is cheaper than marking requests and clearing the marks. */
#define PAIRWISE_MAX 16

/* Whether entry i of an array is a request of its own: not MPI_REQUEST_NULL, and not the shared request of
 * sends that were complete at once, which many entries may name (core/request.h). */
static inline int own_entry(const struct skiff_request *r)
{
    return r && !skiff_req_is_sent(r);
}

/* Index of the first entry that repeats an earlier one, or -1: the call would complete and release
 * that request twice. */
static int repeat_at(int n, struct skiff_request *const r[])
{
    if (n <= PAIRWISE_MAX) {
        for (int i = 1; i < n; i++)
            for (int j = 0; own_entry(r[i]) && j < i; j++)
                if (r[i] == r[j])
                    return i;
        return -1;
    }
    int at = -1;
    for (int i = 0; i < n && at < 0; i++) {
        if (own_entry(r[i]) && r[i]->listed)
            at = i;
        else if (own_entry(r[i]))
            r[i]->listed = 1;
    }
    for (int i = 0; i < n; i++)
        if (own_entry(r[i]))
            r[i]->listed = 0;
    return at;
}

/* Every entry live or MPI_REQUEST_NULL, and none twice. */
static int set_fill(struct req_set *s, MPI_Request reqs[])
{
    for (int i = 0; i < s->n; i++) {
        s->r[i] = live(reqs[i]);
        if (SKIFF_UNLIKELY(!s->r[i] && reqs[i] != MPI_REQUEST_NULL))
            return skiff_err(MPI_ERR_REQUEST, "array_of_requests[%d] = %#llx " NOT_LIVE, i, handle_bits(reqs[i]));
        /* An inactive persistent request counts as MPI_REQUEST_NULL here, but its handle stays. */
        if (s->r[i] && SKIFF_UNLIKELY(skiff_req_inactive(s->r[i])))
            s->r[i] = NULL;
    }
    int i = repeat_at(s->n, s->r);
    if (SKIFF_UNLIKELY(i >= 0))
        return skiff_err(MPI_ERR_REQUEST, "array_of_requests[%d] repeats array_of_requests[%d]: a request may be "
                         "listed only once", i, first_of(reqs, i));
    return MPI_SUCCESS;
}

/* Checks the array and resolves it into s; on success the caller ends with set_drop. */
static int set_resolve(int count, MPI_Request reqs[], struct req_set *s)
{
    int rc = skiff_check_count(count);
    if (SKIFF_UNLIKELY(rc || (rc = skiff_check_array(count, reqs, "array_of_requests"))))
        return rc;
    s->n = count;
    s->r = count <= SET_STACK ? s->stack : malloc((size_t)count * sizeof *s->r);
    if (SKIFF_UNLIKELY(!s->r))
        return skiff_err(MPI_ERR_NO_MEM, "cannot allocate a table of %d requests", count);
    if ((rc = set_fill(s, reqs)))
        set_drop(s);
    return rc;
}

/* set_resolve, then an output argument of the call. */
static int set_resolve_out(int count, MPI_Request reqs[], struct req_set *s, const void *out, const char *name)
{
    int rc = set_resolve(count, reqs, s);
    if (!rc && (rc = skiff_check_ptr(out, name)))
        set_drop(s);
    return rc;
}

/* Takes a completed request out of the user's hands: status, error, release; a persistent one becomes
 * inactive instead, and the user keeps its handle. */
static int retire(struct skiff_request *r, MPI_Request *h, MPI_Status *status)
{
    if (SKIFF_UNLIKELY(r->kind == SKIFF_REQ_GREQ)) {
        *h = MPI_REQUEST_NULL;
        return skiff_greq_retire(r, status);
    }
    skiff_status_from_req(status, r);
    int rc = r->st_error;
    if (SKIFF_UNLIKELY(r->persist != NULL)) {
        SKIFF_TRACE_HOOK(skiff_trace_done(r)); /* skiff_req_release records the others */
        r->state = SKIFF_RS_IDLE;
        return rc;
    }
    if (SKIFF_LIKELY(!skiff_req_is_sent(r)))
        skiff_req_release(r);
    *h = MPI_REQUEST_NULL;
    return rc;
}

/* retire, then the error handler of the request's communicator. */
static int retire_one(struct skiff_request *r, MPI_Request *h, MPI_Status *status)
{
    struct skiff_comm *c = r->comm;
    int rc = retire(r, h, status);
    return rc ? skiff_err_handle(c, rc) : MPI_SUCCESS;
}

/* MPI_THREAD_MULTIPLE, the lock not taken yet (*held is -1): handles that need nothing of the library,
 * MPI_REQUEST_NULL and the shared request of sends complete at once (core/request.h), end without it, as
 * a thread's message-rate loop of MPI_Isend and MPI_Waitall does when its sends leave at once
 * (docs/per-communicator-locks.md, "The second slice"). Their status is the empty one: MPI_ANY_SOURCE,
 * MPI_ANY_TAG, no error, no bytes, not cancelled, which is what a completed send's is. Returns 1 when done
 * (*held 0); else takes the lock (*held 1) and returns 0 for the usual path, which also reports bad
 * arguments. */
static inline int needs_nothing(MPI_Request h)
{
    return h == MPI_REQUEST_NULL || h == SKIFF_REQ_SENT_HANDLE;
}

static __attribute__((noinline)) void end_all(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    for (int i = 0; i < count; i++) {
        skiff_status_empty(statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[i], MPI_ANY_SOURCE);
        reqs[i] = MPI_REQUEST_NULL;
    }
}

/* Inlined, so that a call that must take the lock pays a few tests, not a call that saves registers. */
static inline int ended_late(int count, MPI_Request reqs[], MPI_Status statuses[], int *held)
{
    int all = count >= 0 && (count == 0 || reqs);
    for (int i = 0; all && i < count; i++)
        all = needs_nothing(reqs[i]);
    if (!all) {
        *held = skiff_mt_enter();
        return 0;
    }
    end_all(count, reqs, statuses);
    *held = 0;
    return 1;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct skiff_request *found = NULL;
    SKIFF_ENTER_LATE_IF(MPI_Wait, 1);
    SKIFF_REQUIRE_INIT();
    if (SKIFF_UNLIKELY(skiff_mt_held_ < 0) && ended_late(request ? 1 : -1, request, status, &skiff_mt_held_))
        return MPI_SUCCESS;
    int rc = check_req_at(request, &found);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    /* A copy whose address never escaped: the acquire in skiff_req_done would otherwise make the
     * compiler load the pointer from the stack again. */
    struct skiff_request *r = found;
    if (!r) {
        skiff_status_empty(status, MPI_ANY_SOURCE);
        return MPI_SUCCESS;
    }
    if (!skiff_req_done(r)) {
        if (SKIFF_UNLIKELY(skiff_req_inactive(r))) {
            skiff_status_empty(status, MPI_ANY_SOURCE);
            return MPI_SUCCESS;
        }
        skiff_wait_req(r);
    }
    return retire_one(r, request, status);
}
SKIFF_ALIAS(MPI_Wait)

/* The one-request tests' single look (MPI_Test, MPI_Request_get_status): 1 when r is done, after one
 * progress pass if it was not yet; 0 when it is still pending; -1 for a null or inactive request, which
 * counts as done with the empty status written here. The state is read once before the pass and once
 * after. */
static inline int look_one(struct skiff_request *r, MPI_Status *status)
{
    int done = r && skiff_req_done(r);
    if (!r || SKIFF_UNLIKELY(!done && skiff_req_inactive(r))) {
        skiff_status_empty(status, MPI_ANY_SOURCE);
        return -1;
    }
    if (!done) {
        skiff_progress();
        done = skiff_req_done(r);
    }
    return done;
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER_LATE_IF(MPI_Test, 1);
    SKIFF_REQUIRE_INIT();
    if (SKIFF_UNLIKELY(skiff_mt_held_ < 0) &&
        ended_late(request && flag ? 1 : -1, request, status, &skiff_mt_held_)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    int rc = check_req_at(request, &r);
    if (!rc)
        rc = skiff_check_ptr(flag, "flag");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    int look = look_one(r, status);
    *flag = look != 0;
    return look > 0 ? retire_one(r, request, status) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Test)

/* Retires every request of the array; MPI_ERR_IN_STATUS if any carried an error. */
static int retire_all(const struct req_set *s, MPI_Request reqs[], MPI_Status statuses[])
{
    int err = 0;
    for (int i = 0; i < s->n; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[i];
        if (!s->r[i])
            skiff_status_empty(st, MPI_ANY_SOURCE);
        else if (retire(s->r[i], &reqs[i], st))
            err = 1;
    }
    return err ? skiff_err(MPI_ERR_IN_STATUS, "at least one of %d requests failed; see the statuses", s->n)
               : MPI_SUCCESS;
}

static int all_done(const struct req_set *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->r[i] && !skiff_req_done(s->r[i]))
            return 0;
    return 1;
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    struct req_set s;
    SKIFF_ENTER_LATE_IF(MPI_Waitall, 1);
    SKIFF_REQUIRE_INIT();
    if (SKIFF_UNLIKELY(skiff_mt_held_ < 0) &&
        ended_late(count, array_of_requests, array_of_statuses, &skiff_mt_held_))
        return MPI_SUCCESS;
    int rc = set_resolve(count, array_of_requests, &s);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (!all_done(&s))
        skiff_wait_step(&w);
    rc = retire_all(&s, array_of_requests, array_of_statuses);
    set_drop(&s);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Waitall)

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
    struct req_set s;
    SKIFF_ENTER_LATE_IF(MPI_Testall, 1);
    SKIFF_REQUIRE_INIT();
    if (SKIFF_UNLIKELY(skiff_mt_held_ < 0) &&
        ended_late(flag ? count : -1, array_of_requests, array_of_statuses, &skiff_mt_held_)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    int rc = set_resolve_out(count, array_of_requests, &s, flag, "flag");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    if (!all_done(&s))
        skiff_progress();
    *flag = all_done(&s);
    if (*flag)
        rc = retire_all(&s, array_of_requests, array_of_statuses);
    set_drop(&s);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Testall)

/* Index of the first completed request, MPI_UNDEFINED if all are null, -1 if none is done yet. */
static int first_done(const struct req_set *s)
{
    int active = 0;
    for (int i = 0; i < s->n; i++) {
        if (!s->r[i])
            continue;
        active = 1;
        if (skiff_req_done(s->r[i]))
            return i;
    }
    return active ? -1 : MPI_UNDEFINED;
}

/* The any-tests' one look: the first done request, after one progress pass if none was yet. */
static int look_once(const struct req_set *s)
{
    int i = first_done(s);
    if (i == -1) {
        skiff_progress();
        i = first_done(s);
    }
    return i;
}

static int finish_any(const struct req_set *s, int i, MPI_Request reqs[], int *index, MPI_Status *status)
{
    *index = i;
    if (i == MPI_UNDEFINED) {
        skiff_status_empty(status, MPI_ANY_SOURCE);
        return MPI_SUCCESS;
    }
    return retire_one(s->r[i], &reqs[i], status);
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    struct req_set s;
    SKIFF_ENTER(MPI_Waitany);
    SKIFF_REQUIRE_INIT();
    int rc = set_resolve_out(count, array_of_requests, &s, index, "index");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    int i;
    while ((i = first_done(&s)) == -1)
        skiff_wait_step(&w);
    rc = finish_any(&s, i, array_of_requests, index, status);
    set_drop(&s);
    return rc;
}
SKIFF_ALIAS(MPI_Waitany)

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status)
{
    struct req_set s;
    SKIFF_ENTER(MPI_Testany);
    SKIFF_REQUIRE_INIT();
    int rc = set_resolve_out(count, array_of_requests, &s, index, "index");
    if (!rc && (rc = skiff_check_ptr(flag, "flag")))
        set_drop(&s);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    int i = look_once(&s);
    *flag = i != -1;
    if (i == -1)
        *index = MPI_UNDEFINED;
    else
        rc = finish_any(&s, i, array_of_requests, index, status);
    set_drop(&s);
    return rc;
}
SKIFF_ALIAS(MPI_Testany)

/* The arguments of Waitsome and Testsome; on success the caller ends with set_drop. */
static int check_some(int incount, MPI_Request reqs[], int *outcount, int indices[], struct req_set *s)
{
    int rc = set_resolve_out(incount, reqs, s, outcount, "outcount");
    if (!rc && incount > 0 && (rc = skiff_check_ptr(indices, "array_of_indices")))
        set_drop(s);
    return rc;
}

/* Retires every completed request; outcount MPI_UNDEFINED when all are null. */
static int collect_some(const struct req_set *s, MPI_Request reqs[], int *outcount, int indices[],
                        MPI_Status statuses[])
{
    int n = 0, active = 0, err = 0;
    for (int i = 0; i < s->n; i++) {
        if (!s->r[i])
            continue;
        active = 1;
        if (!skiff_req_done(s->r[i]))
            continue;
        indices[n] = i;
        if (retire(s->r[i], &reqs[i], statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[n]))
            err = 1;
        n++;
    }
    *outcount = active ? n : MPI_UNDEFINED;
    return err ? skiff_err(MPI_ERR_IN_STATUS, "at least one of %d completed requests failed; see the statuses", n)
               : MPI_SUCCESS;
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                  MPI_Status array_of_statuses[])
{
    struct req_set s;
    SKIFF_ENTER(MPI_Waitsome);
    SKIFF_REQUIRE_INIT();
    int rc = check_some(incount, array_of_requests, outcount, array_of_indices, &s);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (first_done(&s) == -1)
        skiff_wait_step(&w);
    rc = collect_some(&s, array_of_requests, outcount, array_of_indices, array_of_statuses);
    set_drop(&s);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Waitsome)

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                  MPI_Status array_of_statuses[])
{
    struct req_set s;
    SKIFF_ENTER(MPI_Testsome);
    SKIFF_REQUIRE_INIT();
    int rc = check_some(incount, array_of_requests, outcount, array_of_indices, &s);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    skiff_progress();
    rc = collect_some(&s, array_of_requests, outcount, array_of_indices, array_of_statuses);
    set_drop(&s);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Testsome)

/* Request_free and Cancel need a request, and one of a point-to-point operation: MPI makes both
 * erroneous on the request of a nonblocking collective, except freeing an inactive persistent one. */
static int check_p2p_req(const MPI_Request *request, const char *verb, struct skiff_request **out)
{
    int rc = check_req_at(request, out);
    if (!rc && !*out)
        rc = skiff_err(MPI_ERR_REQUEST, "cannot %s MPI_REQUEST_NULL", verb);
    else if (!rc && (*out)->kind == SKIFF_REQ_COLL && !(verb[0] == 'f' && skiff_req_inactive(*out)))
        rc = skiff_err(MPI_ERR_REQUEST, "cannot %s the request of a %s (complete it with MPI_Wait or MPI_Test)",
                       verb, (*out)->persist ? (*out)->persist->what : "nonblocking collective");
    return rc;
}

int PMPI_Request_free(MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Request_free);
    SKIFF_REQUIRE_INIT();
    int rc = check_p2p_req(request, "free", &r);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    if (SKIFF_UNLIKELY(r->kind == SKIFF_REQ_GREQ)) {
        *request = MPI_REQUEST_NULL;
        return skiff_fail(MPI_COMM_WORLD, skiff_greq_free(r));
    }
    /* The operation goes on; its request object is released when it completes. The shared request of
     * sends complete at once is nobody's to release: only the handle goes. */
    if (skiff_req_done(r) || skiff_req_inactive(r)) {
        if (!skiff_req_is_sent(r))
            skiff_req_destroy(r);
    } else {
        r->freed = 1;
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Request_free)

/* The status of a completed request, which stays the user's (the Request_get_status calls): a generalized
 * request's comes from its query function, whose error code is the call's. */
static int peek(struct skiff_request *r, MPI_Status *status)
{
    if (SKIFF_UNLIKELY(r->kind == SKIFF_REQ_GREQ))
        return skiff_greq_status(r, status);
    skiff_status_from_req(status, r);
    return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Request_get_status);
    SKIFF_REQUIRE_INIT();
    int rc = check_req(request, &r);
    if (!rc)
        rc = skiff_check_ptr(flag, "flag");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    int look = look_one(r, status);
    *flag = look != 0;
    return look > 0 ? skiff_fail(MPI_COMM_WORLD, peek(r, status)) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Request_get_status)

int PMPI_Cancel(MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Cancel);
    SKIFF_REQUIRE_INIT();
    int rc = check_p2p_req(request, "cancel", &r);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    if (SKIFF_UNLIKELY(r->kind == SKIFF_REQ_GREQ))
        return skiff_fail(MPI_COMM_WORLD, skiff_greq_cancel(r));
    /* Receives not yet matched are cancelled; sends are not (MPI allows the cancel to fail). */
    skiff_cancel_recv(r);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cancel)

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    SKIFF_ENTER(MPI_Test_cancelled);
    int rc = status ? skiff_check_ptr(flag, "flag")
                    : skiff_err(MPI_ERR_ARG, "status is NULL (MPI_STATUS_IGNORE): an ignored status holds no answer");
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(MPI_COMM_WORLD, rc);
    *flag = status->MPI_internal[SKIFF_ST_CANCELLED] != 0;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Test_cancelled)

/* MPI-4.1's Request_get_status_any/all/some: Testany/all/some that leave every request as it is, so a
 * request may be listed twice; null and inactive entries count as MPI_REQUEST_NULL. */
static int peek_resolve(int count, const MPI_Request reqs[], struct req_set *s, const void *out, const char *name)
{
    int rc = skiff_check_count(count);
    if (SKIFF_UNLIKELY(rc || (rc = skiff_check_array(count, reqs, "array_of_requests")) ||
                       (rc = skiff_check_ptr(out, name))))
        return rc;
    s->n = count;
    s->r = count <= SET_STACK ? s->stack : malloc((size_t)count * sizeof *s->r);
    if (SKIFF_UNLIKELY(!s->r))
        return skiff_err(MPI_ERR_NO_MEM, "cannot allocate a table of %d requests", count);
    for (int i = 0; i < count; i++) {
        s->r[i] = live(reqs[i]);
        if (SKIFF_UNLIKELY(!s->r[i] && reqs[i] != MPI_REQUEST_NULL)) {
            set_drop(s);
            return skiff_err(MPI_ERR_REQUEST, "array_of_requests[%d] = %#llx " NOT_LIVE, i, handle_bits(reqs[i]));
        }
        if (s->r[i] && skiff_req_inactive(s->r[i]))
            s->r[i] = NULL;
    }
    return MPI_SUCCESS;
}

int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *indx, int *flag,
                                MPI_Status *status)
{
    struct req_set s;
    SKIFF_ENTER(MPI_Request_get_status_any);
    SKIFF_REQUIRE_INIT();
    int rc = peek_resolve(count, array_of_requests, &s, indx, "indx");
    if (!rc && (rc = skiff_check_ptr(flag, "flag")))
        set_drop(&s);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    int i = look_once(&s);
    *flag = i != -1;
    *indx = i == -1 ? MPI_UNDEFINED : i;
    if (i == MPI_UNDEFINED)
        skiff_status_empty(status, MPI_ANY_SOURCE);
    else if (i >= 0)
        rc = peek(s.r[i], status);
    set_drop(&s);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Request_get_status_any)

int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                MPI_Status array_of_statuses[])
{
    struct req_set s;
    SKIFF_ENTER(MPI_Request_get_status_all);
    SKIFF_REQUIRE_INIT();
    int rc = peek_resolve(count, array_of_requests, &s, flag, "flag");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    if (!all_done(&s))
        skiff_progress();
    *flag = all_done(&s);
    int err = 0;
    for (int i = 0; *flag && i < s.n; i++) {
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? NULL : &array_of_statuses[i];
        if (!s.r[i])
            skiff_status_empty(st, MPI_ANY_SOURCE);
        else if (peek(s.r[i], st))
            err = 1;
    }
    set_drop(&s);
    if (err)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_IN_STATUS, "the query function of at least one of %d "
                                                    "generalized requests failed; see the statuses", count));
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Request_get_status_all)

int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    struct req_set s;
    SKIFF_ENTER(MPI_Request_get_status_some);
    SKIFF_REQUIRE_INIT();
    int rc = peek_resolve(incount, array_of_requests, &s, outcount, "outcount");
    if (!rc && incount > 0 && (rc = skiff_check_ptr(array_of_indices, "array_of_indices")))
        set_drop(&s);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    skiff_progress();
    int n = 0, active = 0, err = 0;
    for (int i = 0; i < s.n; i++) {
        if (!s.r[i])
            continue;
        active = 1;
        if (!skiff_req_done(s.r[i]))
            continue;
        array_of_indices[n] = i;
        if (peek(s.r[i], array_of_statuses == MPI_STATUSES_IGNORE ? NULL : &array_of_statuses[n]))
            err = 1;
        n++;
    }
    *outcount = active ? n : MPI_UNDEFINED;
    set_drop(&s);
    if (err)
        return skiff_fail(MPI_COMM_WORLD, skiff_err(MPI_ERR_IN_STATUS, "the query function of at least one of %d "
                                                    "completed generalized requests failed; see the statuses", n));
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Request_get_status_some)
