/* bad_input rows: statuses set and read by hand, MPI-4.1's Request_get_status_any/all/some, generalized
 * requests, the MPI-1 attribute names, Fortran 2008 statuses, the ABI's version calls (see bad_input.h). */
#include "bad_input.h"

/* ---- MPI_Status_set_* / MPI_Status_get_* */

static int status_set_source_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Status_set_source(MPI_STATUS_IGNORE, 1);
}

static int status_set_tag_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Status_set_tag(MPI_STATUS_IGNORE, 1);
}

static int status_set_error_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Status_set_error(MPI_STATUS_IGNORE, MPI_ERR_OTHER);
}

static int status_set_cancelled_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Status_set_cancelled(MPI_STATUS_IGNORE, 1);
}

static int status_get_source_null(struct bad_ctx *x)
{
    int v;
    (void)x;
    return MPI_Status_get_source(MPI_STATUS_IGNORE, &v);
}

static int status_get_tag_out_null(struct bad_ctx *x)
{
    return MPI_Status_get_tag(&x->status, NULL);
}

static int status_get_error_out_null(struct bad_ctx *x)
{
    return MPI_Status_get_error(&x->status, NULL);
}

/* ---- MPI_Request_get_status_any / all / some */

/* A receive's: a send complete at once has the request all such sends share, which is never stale. */
static MPI_Request freed_request(void)
{
    MPI_Request r = MPI_REQUEST_NULL, stale;
    int v = 0;
    MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &r);
    stale = r;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return stale;
}

static int get_status_any_count(struct bad_ctx *x)
{
    int indx, flag;
    return MPI_Request_get_status_any(-3, &x->req, &indx, &flag, &x->status);
}

static int get_status_any_indx_null(struct bad_ctx *x)
{
    int flag;
    x->req = MPI_REQUEST_NULL;
    return MPI_Request_get_status_any(1, &x->req, NULL, &flag, &x->status);
}

static int get_status_all_stale(struct bad_ctx *x)
{
    MPI_Request rs[2] = {MPI_REQUEST_NULL, freed_request()};
    int flag;
    (void)x;
    return MPI_Request_get_status_all(2, rs, &flag, MPI_STATUSES_IGNORE);
}

static int get_status_all_flag_null(struct bad_ctx *x)
{
    x->req = MPI_REQUEST_NULL;
    return MPI_Request_get_status_all(1, &x->req, NULL, MPI_STATUSES_IGNORE);
}

static int get_status_some_indices_null(struct bad_ctx *x)
{
    int outcount;
    x->req = MPI_REQUEST_NULL;
    return MPI_Request_get_status_some(1, &x->req, &outcount, NULL, MPI_STATUSES_IGNORE);
}

static int get_status_some_array_null(struct bad_ctx *x)
{
    int outcount, idx[2];
    (void)x;
    return MPI_Request_get_status_some(2, NULL, &outcount, idx, MPI_STATUSES_IGNORE);
}

/* ---- generalized requests */

static int query_fn(void *extra, MPI_Status *st)
{
    (void)extra;
    (void)st;
    return MPI_SUCCESS;
}

static int grequest_start_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Grequest_start(query_fn, NULL, NULL, NULL, NULL);
}

static int grequest_complete_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Grequest_complete(MPI_REQUEST_NULL);
}

/* A request that is not a generalized one: MPI_Grequest_complete may not end it. */
static int grequest_complete_not_greq(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int v = 0;
    (void)x;
    MPI_Isend(&v, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &r);
    int rc = MPI_Grequest_complete(r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
}

static int grequest_complete_twice(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    (void)x;
    MPI_Grequest_start(query_fn, NULL, NULL, NULL, &r);
    MPI_Grequest_complete(r);
    int rc = MPI_Grequest_complete(r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
}

/* ---- MPI-1 attribute names */

static int keyval_create_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL, NULL);
}

static int keyval_free_predefined(struct bad_ctx *x)
{
    int k = MPI_TAG_UB;
    (void)x;
    return MPI_Keyval_free(&k);
}

static int attr_put_comm_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Attr_put(MPI_COMM_NULL, MPI_TAG_UB, NULL);
}

static int attr_get_unknown(struct bad_ctx *x)
{
    void *v;
    int flag;
    return MPI_Attr_get(x->comm, 12345, &v, &flag);
}

static int attr_delete_predefined(struct bad_ctx *x)
{
    return MPI_Attr_delete(x->comm, MPI_TAG_UB);
}

/* ---- Fortran 2008 statuses, the ABI's version */

static int status_c2f08_ignore(struct bad_ctx *x)
{
    MPI_F08_status f;
    (void)x;
    return MPI_Status_c2f08(MPI_STATUS_IGNORE, &f);
}

static int status_f082c_out_null(struct bad_ctx *x)
{
    MPI_F08_status f = {0, 0, 0, {0, 0, 0, 0, 0}};
    (void)x;
    return MPI_Status_f082c(&f, MPI_STATUS_IGNORE);
}

static int status_f2f08_ignore(struct bad_ctx *x)
{
    MPI_F08_status f;
    (void)x;
    return MPI_Status_f2f08(MPI_F_STATUS_IGNORE, &f);
}

static int status_f082f_ignore(struct bad_ctx *x)
{
    MPI_Fint f[MPI_F_STATUS_SIZE];
    (void)x;
    return MPI_Status_f082f(MPI_F08_STATUS_IGNORE, f);
}

static int abi_get_version_nullptr(struct bad_ctx *x)
{
    int minor;
    (void)x;
    return MPI_Abi_get_version(NULL, &minor);
}

static int abi_get_info_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Abi_get_info(NULL);
}

const struct bad_case bad_req[] = {
    {"status_set_source_null", "MPI_Status_set_source", MPI_ERR_ARG, "status is NULL", status_set_source_null},
    {"status_set_tag_null", "MPI_Status_set_tag", MPI_ERR_ARG, "status is NULL", status_set_tag_null},
    {"status_set_error_null", "MPI_Status_set_error", MPI_ERR_ARG, "status is NULL", status_set_error_null},
    {"status_set_cancelled_null", "MPI_Status_set_cancelled", MPI_ERR_ARG, "status is NULL",
     status_set_cancelled_null},
    {"status_get_source_null", "MPI_Status_get_source", MPI_ERR_ARG, "status is NULL", status_get_source_null},
    {"status_get_tag_out_null", "MPI_Status_get_tag", MPI_ERR_ARG, "tag is NULL", status_get_tag_out_null},
    {"status_get_error_out_null", "MPI_Status_get_error", MPI_ERR_ARG, "error is NULL", status_get_error_out_null},
    {"get_status_any_count", "MPI_Request_get_status_any", MPI_ERR_COUNT, "invalid count -3", get_status_any_count},
    {"get_status_any_indx_null", "MPI_Request_get_status_any", MPI_ERR_ARG, "indx is NULL",
     get_status_any_indx_null},
    {"get_status_all_stale", "MPI_Request_get_status_all", MPI_ERR_REQUEST, "array_of_requests[1]",
     get_status_all_stale},
    {"get_status_all_flag_null", "MPI_Request_get_status_all", MPI_ERR_ARG, "flag is NULL",
     get_status_all_flag_null},
    {"get_status_some_indices_null", "MPI_Request_get_status_some", MPI_ERR_ARG, "array_of_indices is NULL",
     get_status_some_indices_null},
    {"get_status_some_array_null", "MPI_Request_get_status_some", MPI_ERR_ARG, "array_of_requests is NULL",
     get_status_some_array_null},
    {"grequest_start_nullptr", "MPI_Grequest_start", MPI_ERR_ARG, "request is NULL", grequest_start_nullptr},
    {"grequest_complete_null", "MPI_Grequest_complete", MPI_ERR_REQUEST, "not a generalized request",
     grequest_complete_null},
    {"grequest_complete_not_greq", "MPI_Grequest_complete", MPI_ERR_REQUEST, "not a generalized request",
     grequest_complete_not_greq},
    {"grequest_complete_twice", "MPI_Grequest_complete", MPI_ERR_REQUEST, "already completed",
     grequest_complete_twice},
    {"keyval_create_nullptr", "MPI_Keyval_create", MPI_ERR_ARG, "keyval is NULL", keyval_create_nullptr},
    {"keyval_free_predefined", "MPI_Keyval_free", MPI_ERR_KEYVAL, "MPI_TAG_UB", keyval_free_predefined},
    {"attr_put_comm_null", "MPI_Attr_put", MPI_ERR_COMM, "MPI_COMM_NULL", attr_put_comm_null},
    {"attr_get_unknown", "MPI_Attr_get", MPI_ERR_KEYVAL, "keyval 12345", attr_get_unknown},
    {"attr_delete_predefined", "MPI_Attr_delete", MPI_ERR_KEYVAL, "MPI_TAG_UB", attr_delete_predefined},
    {"status_c2f08_ignore", "MPI_Status_c2f08", MPI_ERR_ARG, "c_status is NULL", status_c2f08_ignore},
    {"status_f082c_out_null", "MPI_Status_f082c", MPI_ERR_ARG, "c_status is NULL", status_f082c_out_null},
    {"status_f2f08_ignore", "MPI_Status_f2f08", MPI_ERR_ARG, "f_status is NULL", status_f2f08_ignore},
    {"status_f082f_ignore", "MPI_Status_f082f", MPI_ERR_ARG, "f08_status is NULL", status_f082f_ignore},
    {"abi_get_version_nullptr", "MPI_Abi_get_version", MPI_ERR_ARG, "abi_major is NULL", abi_get_version_nullptr},
    {"abi_get_info_nullptr", "MPI_Abi_get_info", MPI_ERR_ARG, "info is NULL", abi_get_info_nullptr},
    {0},
};
