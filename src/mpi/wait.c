/* Completion: the Wait and Test families, freeing and cancelling requests. */
#include "core/progress.h"
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"

#define NOT_LIVE "is not a live request (already completed and freed, or never created)"

/* The request a handle names; NULL for MPI_REQUEST_NULL and for stale or made-up handles, which the
 * lookup refuses without following them (core/request.h). */
static inline struct skiff_request *live(MPI_Request h)
{
    return h == MPI_REQUEST_NULL ? NULL : skiff_req_of(h);
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

static void unlist(int n, MPI_Request reqs[])
{
    for (int i = 0; i < n; i++) {
        struct skiff_request *r = live(reqs[i]);
        if (r)
            r->listed = 0;
    }
}

static int first_of(MPI_Request reqs[], int i)
{
    int j = 0;
    while (reqs[j] != reqs[i])
        j++;
    return j;
}

/* Every entry live or MPI_REQUEST_NULL, and none twice: the call would complete and release it twice.
 * Marking the requests finds repeats in one pass. */
static int check_reqs(int count, MPI_Request reqs[])
{
    if (SKIFF_UNLIKELY(count < 0))
        return skiff_err(MPI_ERR_COUNT, "invalid count %d of requests (must be >= 0)", count);
    if (SKIFF_UNLIKELY(count > 0 && !reqs))
        return skiff_err(MPI_ERR_ARG, "array_of_requests is NULL but count is %d", count);
    int rc = MPI_SUCCESS, i;
    for (i = 0; i < count && !rc; i++) {
        struct skiff_request *r = live(reqs[i]);
        if (SKIFF_UNLIKELY(!r && reqs[i] != MPI_REQUEST_NULL))
            rc = skiff_err(MPI_ERR_REQUEST, "array_of_requests[%d] = %#llx " NOT_LIVE, i, handle_bits(reqs[i]));
        else if (SKIFF_UNLIKELY(r && r->listed))
            rc = skiff_err(MPI_ERR_REQUEST, "array_of_requests[%d] repeats array_of_requests[%d]: a request may be "
                           "listed only once", i, first_of(reqs, i));
        else if (r)
            r->listed = 1;
    }
    unlist(i, reqs);
    return rc;
}

/* Takes a completed request out of the user's hands: status, error, release. */
static int retire(MPI_Request *h, MPI_Status *status)
{
    struct skiff_request *r = skiff_req_of(*h);
    skiff_status_from_req(status, r);
    int rc = r->st_error;
    skiff_req_release(r);
    *h = MPI_REQUEST_NULL;
    return rc;
}

static inline int is_done(MPI_Request h)
{
    struct skiff_request *r = live(h);
    return r && r->state == SKIFF_RS_DONE;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Wait);
    SKIFF_REQUIRE_INIT();
    int rc = check_req_at(request, &r);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    if (!r) {
        skiff_status_empty(status, MPI_ANY_SOURCE);
        return MPI_SUCCESS;
    }
    skiff_wait_req(r);
    struct skiff_comm *c = r->comm;
    rc = retire(request, status);
    return rc ? skiff_err_handle(c, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Wait)

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Test);
    SKIFF_REQUIRE_INIT();
    int rc = check_req_at(request, &r);
    if (!rc)
        rc = skiff_check_ptr(flag, "flag");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    if (!r) {
        *flag = 1;
        skiff_status_empty(status, MPI_ANY_SOURCE);
        return MPI_SUCCESS;
    }
    if (r->state != SKIFF_RS_DONE)
        skiff_progress();
    *flag = r->state == SKIFF_RS_DONE;
    if (!*flag)
        return MPI_SUCCESS;
    struct skiff_comm *c = r->comm;
    rc = retire(request, status);
    return rc ? skiff_err_handle(c, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Test)

/* Retires every request of the array; MPI_ERR_IN_STATUS if any carried an error. */
static int retire_all(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    int err = 0;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[i];
        if (reqs[i] == MPI_REQUEST_NULL)
            skiff_status_empty(st, MPI_ANY_SOURCE);
        else if (retire(&reqs[i], st))
            err = 1;
    }
    return err ? skiff_err(MPI_ERR_IN_STATUS, "at least one of %d requests failed; see the statuses", count)
               : MPI_SUCCESS;
}

static int all_done(int count, MPI_Request reqs[])
{
    for (int i = 0; i < count; i++)
        if (reqs[i] != MPI_REQUEST_NULL && !is_done(reqs[i]))
            return 0;
    return 1;
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    SKIFF_ENTER(MPI_Waitall);
    SKIFF_REQUIRE_INIT();
    int rc = check_reqs(count, array_of_requests);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (!all_done(count, array_of_requests))
        skiff_wait_step(&w);
    rc = retire_all(count, array_of_requests, array_of_statuses);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Waitall)

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
    SKIFF_ENTER(MPI_Testall);
    SKIFF_REQUIRE_INIT();
    int rc = check_reqs(count, array_of_requests);
    if (!rc)
        rc = skiff_check_ptr(flag, "flag");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    if (!all_done(count, array_of_requests))
        skiff_progress();
    *flag = all_done(count, array_of_requests);
    if (!*flag)
        return MPI_SUCCESS;
    rc = retire_all(count, array_of_requests, array_of_statuses);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Testall)

/* Index of the first completed request, MPI_UNDEFINED if all are null, -1 if none is done yet. */
static int first_done(int count, MPI_Request reqs[])
{
    int active = 0;
    for (int i = 0; i < count; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        active = 1;
        if (is_done(reqs[i]))
            return i;
    }
    return active ? -1 : MPI_UNDEFINED;
}

static int finish_any(int i, MPI_Request reqs[], int *index, MPI_Status *status)
{
    *index = i;
    if (i == MPI_UNDEFINED) {
        skiff_status_empty(status, MPI_ANY_SOURCE);
        return MPI_SUCCESS;
    }
    struct skiff_comm *c = skiff_req_of(reqs[i])->comm;
    int rc = retire(&reqs[i], status);
    return rc ? skiff_err_handle(c, rc) : MPI_SUCCESS;
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    SKIFF_ENTER(MPI_Waitany);
    SKIFF_REQUIRE_INIT();
    int rc = check_reqs(count, array_of_requests);
    if (!rc)
        rc = skiff_check_ptr(index, "index");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    int i;
    while ((i = first_done(count, array_of_requests)) == -1)
        skiff_wait_step(&w);
    return finish_any(i, array_of_requests, index, status);
}
SKIFF_ALIAS(MPI_Waitany)

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status)
{
    SKIFF_ENTER(MPI_Testany);
    SKIFF_REQUIRE_INIT();
    int rc = check_reqs(count, array_of_requests);
    if (!rc && !(rc = skiff_check_ptr(index, "index")))
        rc = skiff_check_ptr(flag, "flag");
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    int i = first_done(count, array_of_requests);
    if (i == -1) {
        skiff_progress();
        i = first_done(count, array_of_requests);
    }
    *flag = i != -1;
    if (i == -1) {
        *index = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    return finish_any(i, array_of_requests, index, status);
}
SKIFF_ALIAS(MPI_Testany)

/* The arguments of Waitsome and Testsome. */
static int check_some(int incount, MPI_Request reqs[], int *outcount, int indices[])
{
    int rc = check_reqs(incount, reqs);
    if (!rc)
        rc = skiff_check_ptr(outcount, "outcount");
    if (!rc && incount > 0)
        rc = skiff_check_ptr(indices, "array_of_indices");
    return rc;
}

/* Retires every completed request; outcount MPI_UNDEFINED when all are null. */
static int collect_some(int count, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    int n = 0, active = 0, err = 0;
    for (int i = 0; i < count; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        active = 1;
        if (!is_done(reqs[i]))
            continue;
        indices[n] = i;
        if (retire(&reqs[i], statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[n]))
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
    SKIFF_ENTER(MPI_Waitsome);
    SKIFF_REQUIRE_INIT();
    int rc = check_some(incount, array_of_requests, outcount, array_of_indices);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (first_done(incount, array_of_requests) == -1)
        skiff_wait_step(&w);
    rc = collect_some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Waitsome)

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                  MPI_Status array_of_statuses[])
{
    SKIFF_ENTER(MPI_Testsome);
    SKIFF_REQUIRE_INIT();
    int rc = check_some(incount, array_of_requests, outcount, array_of_indices);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    skiff_progress();
    rc = collect_some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Testsome)

/* Request_free and Cancel need a request, and one of a point-to-point operation: MPI makes both
 * erroneous on the request of a nonblocking collective. */
static int check_p2p_req(const MPI_Request *request, const char *verb, struct skiff_request **out)
{
    int rc = check_req_at(request, out);
    if (!rc && !*out)
        rc = skiff_err(MPI_ERR_REQUEST, "cannot %s MPI_REQUEST_NULL", verb);
    else if (!rc && (*out)->kind == SKIFF_REQ_COLL)
        rc = skiff_err(MPI_ERR_REQUEST, "cannot %s the request of a nonblocking collective (complete it with "
                       "MPI_Wait or MPI_Test)", verb);
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
    /* The operation goes on; its request object is released when it completes. */
    if (r->state == SKIFF_RS_DONE)
        skiff_req_release(r);
    else
        r->freed = 1;
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Request_free)

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
    if (!r) {
        *flag = 1;
        skiff_status_empty(status, MPI_ANY_SOURCE);
        return MPI_SUCCESS;
    }
    if (r->state != SKIFF_RS_DONE)
        skiff_progress();
    *flag = r->state == SKIFF_RS_DONE;
    if (*flag)
        skiff_status_from_req(status, r);
    return MPI_SUCCESS;
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
