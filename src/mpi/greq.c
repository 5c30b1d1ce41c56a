/* Generalized requests: MPI_Grequest_start and MPI_Grequest_complete (core/greq.h). The completion calls
 * (wait.c) take them like any request: the query function fills the status, the free function runs when
 * the request is freed, the cancel function on MPI_Cancel. */
#include "core/greq.h"
#include "mpi/mpi_impl.h"

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    SKIFF_ENTER(MPI_Grequest_start);
    SKIFF_REQUIRE_INIT();
    struct skiff_request *r = NULL;
    int rc = skiff_check_ptr(request, "request");
    if (!rc && skiff_greq_start(query_fn, free_fn, cancel_fn, extra_state, &r))
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for a generalized request");
    if (rc)
        return skiff_fail_world(rc);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Grequest_start)

static int complete_here(MPI_Request request)
{
    SKIFF_ENTER(MPI_Grequest_complete);
    SKIFF_REQUIRE_INIT();
    int rc = request == MPI_REQUEST_NULL ? -1 : skiff_greq_complete((uint64_t)(uintptr_t)request);
    if (rc == -1)
        return skiff_fail_world(skiff_err(MPI_ERR_REQUEST, "request %#llx is not a generalized request (or was "
                                          "already completed and freed)", (unsigned long long)(uintptr_t)request));
    if (rc == -2)
        return skiff_fail_world(skiff_err(MPI_ERR_REQUEST, "generalized request %#llx was already completed",
                                          (unsigned long long)(uintptr_t)request));
    return MPI_SUCCESS;
}

/* From a thread other than the one that started the request (which may be waiting on it in MPI_Wait this
 * moment), the call touches the registry alone: not the profiler, not the error machinery, whose state
 * belongs to the thread inside MPI. A bad handle from there is answered with the bare class. */
int PMPI_Grequest_complete(MPI_Request request)
{
    uint64_t id = (uint64_t)(uintptr_t)request;
    if (request == MPI_REQUEST_NULL || skiff_greq_started_here(id))
        return complete_here(request);
    return skiff_greq_complete(id) ? MPI_ERR_REQUEST : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Grequest_complete)
