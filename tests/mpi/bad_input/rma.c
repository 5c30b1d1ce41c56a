/* bad_input rows: one-sided communication (see bad_input.h). A window's errors go to its own handler, so
 * the rows give each window the handler of the communicator under test (MPI_ERRORS_RETURN or
 * MPI_ERRORS_ARE_FATAL); errors of the creating calls go to the communicator's. */
#include "bad_input.h"

/* A window of 16 bytes (4 ints, disp_unit 4) on x->comm with x->comm's error handler; fence: an
 * access epoch opened. */
static MPI_Win win_of(struct bad_ctx *x, int fence)
{
    MPI_Win w = MPI_WIN_NULL;
    MPI_Errhandler eh;
    MPI_Win_create(x->ibuf, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, x->comm, &w);
    MPI_Comm_get_errhandler(x->comm, &eh);
    MPI_Win_set_errhandler(w, eh);
    MPI_Errhandler_free(&eh);
    if (fence)
        MPI_Win_fence(0, w);
    return w;
}

/* A window from MPI_Win_allocate: skiff's direct path, whose put and get of one predefined type take a
 * shortcut that must refuse the same arguments rma() refuses. */
static MPI_Win alloc_win_of(struct bad_ctx *x, int fence)
{
    MPI_Win w = MPI_WIN_NULL;
    MPI_Errhandler eh;
    int *base;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, x->comm, &base, &w);
    MPI_Comm_get_errhandler(x->comm, &eh);
    MPI_Win_set_errhandler(w, eh);
    MPI_Errhandler_free(&eh);
    if (fence)
        MPI_Win_fence(0, w);
    return w;
}

static int done(MPI_Win w, int rc)
{
    MPI_Win_free(&w);
    return rc;
}

static int win_create_size(struct bad_ctx *x)
{
    MPI_Win w;
    return MPI_Win_create(x->ibuf, -3, 1, MPI_INFO_NULL, x->comm, &w);
}

static int win_create_disp_unit(struct bad_ctx *x)
{
    MPI_Win w;
    return MPI_Win_create(x->ibuf, 16, 0, MPI_INFO_NULL, x->comm, &w);
}

static int win_allocate_baseptr(struct bad_ctx *x)
{
    MPI_Win w;
    return MPI_Win_allocate(16, 1, MPI_INFO_NULL, x->comm, NULL, &w);
}

static int win_allocate_shared_comm(struct bad_ctx *x)
{
    MPI_Win w;
    void *base;
    (void)x;
    return MPI_Win_allocate_shared(16, 1, MPI_INFO_NULL, MPI_COMM_NULL, &base, &w);
}

static int win_free_null(struct bad_ctx *x)
{
    MPI_Win w = MPI_WIN_NULL;
    (void)x;
    return MPI_Win_free(&w);
}

static int win_shared_query_flavor(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    MPI_Aint size;
    int unit;
    void *base;
    return done(w, MPI_Win_shared_query(w, 0, &size, &unit, &base));
}

static int win_get_attr_flag(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    void *v;
    return done(w, MPI_Win_get_attr(w, MPI_WIN_SIZE, &v, NULL));
}

static int win_set_attr_predefined(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_set_attr(w, MPI_WIN_BASE, x->ibuf));
}

static int win_set_name_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_set_name(w, NULL));
}

static int put_rank(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Put(x->ibuf2, 1, MPI_INT, 99, 0, 1, MPI_INT, w));
}

static int put_count(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Put(x->ibuf2, -3, MPI_INT, 0, 0, 1, MPI_INT, w));
}

static int put_disp(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Put(x->ibuf2, 1, MPI_INT, 0, -7, 1, MPI_INT, w));
}

static int put_range(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Put(x->ibuf2, 2, MPI_INT, 0, 3, 2, MPI_INT, w));
}

static int put_no_epoch(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Put(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, w));
}

static int put_signature(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Put(x->ibuf2, 3, MPI_INT, 0, 0, 1, MPI_INT, w));
}

static int put_uncommitted(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Put(x->ibuf2, 1, MPI_INT, 0, 0, 1, t, w);
    MPI_Type_free(&t);
    return done(w, rc);
}

static int put_range_direct(struct bad_ctx *x)
{
    MPI_Win w = alloc_win_of(x, 1);
    return done(w, MPI_Put(x->ibuf2, 2, MPI_INT, 0, 3, 2, MPI_INT, w));
}

static int get_disp_direct(struct bad_ctx *x)
{
    MPI_Win w = alloc_win_of(x, 1);
    return done(w, MPI_Get(x->ibuf2, 1, MPI_INT, 0, -2, 1, MPI_INT, w));
}

static int get_no_epoch_direct(struct bad_ctx *x)
{
    MPI_Win w = alloc_win_of(x, 0);
    return done(w, MPI_Get(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, w));
}

static int get_win_null(struct bad_ctx *x)
{
    return MPI_Get(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL);
}

static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)dt;
}

static int acc_user_op(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    MPI_Op op;
    MPI_Op_create(sum_fn, 1, &op);
    int rc = MPI_Accumulate(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, op, w);
    MPI_Op_free(&op);
    return done(w, rc);
}

static int acc_op_type(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Accumulate(x->dbuf, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_BAND, w));
}

static int acc_mixed_types(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Accumulate(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_FLOAT, MPI_SUM, w));
}

/* MPI_NO_OP fetches only: an accumulate that returns nothing may not take it (one element: the atomic
 * fast path; Raccumulate: the general one). */
static int acc_no_op(struct bad_ctx *x)
{
    MPI_Win w = alloc_win_of(x, 1);
    return done(w, MPI_Accumulate(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, w));
}

static int racc_no_op(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_Raccumulate(x->ibuf2, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_NO_OP, w, &r);
    if (rc == MPI_SUCCESS)
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    return done(w, rc);
}

static int get_acc_result_count(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Get_accumulate(x->ibuf2, 1, MPI_INT, x->ibuf2 + 8, -4, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,
                                      w));
}

static int fetch_and_op_rank(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    return done(w, MPI_Fetch_and_op(x->ibuf2, x->ibuf2 + 1, MPI_INT, -9, 0, MPI_SUM, w));
}

static int fetch_and_op_result_null_direct(struct bad_ctx *x)
{
    MPI_Win w = alloc_win_of(x, 1);
    return done(w, MPI_Fetch_and_op(x->ibuf2, NULL, MPI_INT, 0, 0, MPI_SUM, w));
}

static int cas_derived(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 1);
    MPI_Datatype t;
    MPI_Type_contiguous(1, MPI_INT, &t);
    MPI_Type_commit(&t);
    int rc = MPI_Compare_and_swap(x->ibuf2, x->ibuf2 + 1, x->ibuf2 + 2, t, 0, 0, w);
    MPI_Type_free(&t);
    return done(w, rc);
}

static int rput_request_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    MPI_Win_lock_all(0, w);
    int rc = MPI_Rput(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, w, NULL);
    MPI_Win_unlock_all(w);
    return done(w, rc);
}

static int rget_no_epoch(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    MPI_Request r;
    return done(w, MPI_Rget(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, w, &r));
}

static int complete_no_start(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_complete(w));
}

static int wait_no_post(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_wait(w));
}

static int start_group_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_start(MPI_GROUP_NULL, 0, w));
}

static int attach_flavor(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_attach(w, x->ibuf2, 4));
}

static int detach_unknown(struct bad_ctx *x)
{
    MPI_Win w = MPI_WIN_NULL;
    MPI_Errhandler eh;
    MPI_Win_create_dynamic(MPI_INFO_NULL, x->comm, &w);
    MPI_Comm_get_errhandler(x->comm, &eh);
    MPI_Win_set_errhandler(w, eh);
    MPI_Errhandler_free(&eh);
    return done(w, MPI_Win_detach(w, x->ibuf2));
}

static int fence_assert(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_fence(3, w));
}

static int lock_type(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_lock(7, 0, 0, w));
}

static int lock_assert(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOPUT, w));
}

static int unlock_not_locked(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_unlock(0, w));
}

static int unlock_all_not_locked(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_unlock_all(w));
}

static int flush_rank(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_flush(99, w));
}

static int flush_not_locked(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_flush(0, w));
}

static int win_set_errhandler_comm(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_set_errhandler(w, MPI_ERRHANDLER_NULL));
}

static int win_free_keyval_predefined(struct bad_ctx *x)
{
    int k = MPI_WIN_MODEL;
    (void)x;
    return MPI_Win_free_keyval(&k);
}

static int win_call_errhandler_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Win_call_errhandler(MPI_WIN_NULL, MPI_ERR_OTHER);
}

static int win_create_dynamic_comm(struct bad_ctx *x)
{
    MPI_Win w;
    (void)x;
    return MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_NULL, &w);
}

static int win_create_errhandler_fn(struct bad_ctx *x)
{
    MPI_Errhandler eh;
    (void)x;
    return MPI_Win_create_errhandler(NULL, &eh);
}

static int win_create_keyval_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, NULL, NULL);
}

static int win_delete_attr_predefined(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_delete_attr(w, MPI_WIN_BASE));
}

static int flush_all_not_locked(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_flush_all(w));
}

static int flush_local_rank(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_flush_local(99, w));
}

static int flush_local_all_not_locked(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_flush_local_all(w));
}

static int win_get_errhandler_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_get_errhandler(w, NULL));
}

static int win_get_group_null(struct bad_ctx *x)
{
    MPI_Group g;
    (void)x;
    return MPI_Win_get_group(MPI_WIN_NULL, &g);
}

static int win_get_info_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_get_info(w, NULL));
}

static int win_get_name_resultlen(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    char name[MPI_MAX_OBJECT_NAME];
    return done(w, MPI_Win_get_name(w, name, NULL));
}

static int lock_all_assert(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_lock_all(MPI_MODE_NOPUT, w));
}

static int post_group_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    return done(w, MPI_Win_post(MPI_GROUP_NULL, 0, w));
}

static int win_set_info_null(struct bad_ctx *x)
{
    MPI_Info info;
    MPI_Info_create(&info);
    (void)x;
    int rc = MPI_Win_set_info(MPI_WIN_NULL, info);
    MPI_Info_free(&info);
    return rc;
}

static int win_sync_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Win_sync(MPI_WIN_NULL);
}

static int win_test_no_post(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    int flag;
    return done(w, MPI_Win_test(w, &flag));
}

static int raccumulate_request_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    MPI_Win_lock_all(0, w);
    int rc = MPI_Raccumulate(x->ibuf2, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, w, NULL);
    MPI_Win_unlock_all(w);
    return done(w, rc);
}

static int rget_accumulate_request_null(struct bad_ctx *x)
{
    MPI_Win w = win_of(x, 0);
    MPI_Win_lock_all(0, w);
    int rc = MPI_Rget_accumulate(x->ibuf2, 1, MPI_INT, x->ibuf2 + 1, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, w,
                                 NULL);
    MPI_Win_unlock_all(w);
    return done(w, rc);
}

const struct bad_case bad_rma[] = {
    {"win_create_size", "MPI_Win_create", MPI_ERR_SIZE, "size -3", win_create_size},
    {"win_create_disp_unit", "MPI_Win_create", MPI_ERR_DISP, "disp_unit 0", win_create_disp_unit},
    {"win_allocate_baseptr", "MPI_Win_allocate", MPI_ERR_ARG, "baseptr is NULL", win_allocate_baseptr},
    {"win_allocate_shared_comm", "MPI_Win_allocate_shared", MPI_ERR_COMM, "MPI_COMM_NULL",
     win_allocate_shared_comm},
    {"win_free_null", "MPI_Win_free", MPI_ERR_WIN, "MPI_WIN_NULL", win_free_null},
    {"win_shared_query_flavor", "MPI_Win_shared_query", MPI_ERR_RMA_FLAVOR, "MPI_Win_allocate_shared",
     win_shared_query_flavor},
    {"win_get_attr_flag", "MPI_Win_get_attr", MPI_ERR_ARG, "flag is NULL", win_get_attr_flag},
    {"win_set_attr_predefined", "MPI_Win_set_attr", MPI_ERR_KEYVAL, "keyval 601", win_set_attr_predefined},
    {"win_set_name_null", "MPI_Win_set_name", MPI_ERR_ARG, "win_name is NULL", win_set_name_null},
    {"win_set_errhandler_null", "MPI_Win_set_errhandler", MPI_ERR_ERRHANDLER, "MPI_ERRHANDLER_NULL",
     win_set_errhandler_comm},
    {"win_free_keyval_predefined", "MPI_Win_free_keyval", MPI_ERR_KEYVAL, "keyval 605",
     win_free_keyval_predefined},
    {"put_rank", "MPI_Put", MPI_ERR_RANK, "rank 99", put_rank},
    {"put_count", "MPI_Put", MPI_ERR_COUNT, "count -3", put_count},
    {"put_disp", "MPI_Put", MPI_ERR_DISP, "target_disp -7", put_disp},
    {"put_range", "MPI_Put", MPI_ERR_RMA_RANGE, "window of 16 bytes", put_range},
    {"put_no_epoch", "MPI_Put", MPI_ERR_RMA_SYNC, "no access epoch to rank 0", put_no_epoch},
    {"put_signature", "MPI_Put", MPI_ERR_TYPE, "12 bytes", put_signature},
    {"put_uncommitted", "MPI_Put", MPI_ERR_TYPE, "not committed", put_uncommitted},
    {"put_range_direct", "MPI_Put", MPI_ERR_RMA_RANGE, "window of 16 bytes", put_range_direct},
    {"get_disp_direct", "MPI_Get", MPI_ERR_DISP, "target_disp -2", get_disp_direct},
    {"get_no_epoch_direct", "MPI_Get", MPI_ERR_RMA_SYNC, "no access epoch to rank 0", get_no_epoch_direct},
    {"get_win_null", "MPI_Get", MPI_ERR_WIN, "MPI_WIN_NULL", get_win_null},
    {"acc_user_op", "MPI_Accumulate", MPI_ERR_OP, "predefined ops only", acc_user_op},
    {"acc_op_type", "MPI_Accumulate", MPI_ERR_OP, "MPI_BAND", acc_op_type},
    {"acc_mixed_types", "MPI_Accumulate", MPI_ERR_TYPE, "same basic type", acc_mixed_types},
    {"acc_no_op", "MPI_Accumulate", MPI_ERR_OP, "MPI_NO_OP only fetches", acc_no_op},
    {"racc_no_op", "MPI_Raccumulate", MPI_ERR_OP, "MPI_NO_OP only fetches", racc_no_op},
    {"get_acc_result_count", "MPI_Get_accumulate", MPI_ERR_COUNT, "count -4", get_acc_result_count},
    {"fetch_and_op_rank", "MPI_Fetch_and_op", MPI_ERR_RANK, "rank -9", fetch_and_op_rank},
    {"fetch_and_op_result_null_direct", "MPI_Fetch_and_op", MPI_ERR_BUFFER, "result_addr is NULL",
     fetch_and_op_result_null_direct},
    {"cas_derived", "MPI_Compare_and_swap", MPI_ERR_TYPE, "predefined datatype", cas_derived},
    {"rput_request_null", "MPI_Rput", MPI_ERR_ARG, "request is NULL", rput_request_null},
    {"rget_no_epoch", "MPI_Rget", MPI_ERR_RMA_SYNC, "no access epoch to rank 0", rget_no_epoch},
    {"complete_no_start", "MPI_Win_complete", MPI_ERR_RMA_SYNC, "MPI_Win_start", complete_no_start},
    {"wait_no_post", "MPI_Win_wait", MPI_ERR_RMA_SYNC, "MPI_Win_post", wait_no_post},
    {"start_group_null", "MPI_Win_start", MPI_ERR_GROUP, "MPI_GROUP_NULL", start_group_null},
    {"attach_flavor", "MPI_Win_attach", MPI_ERR_RMA_FLAVOR, "MPI_Win_create_dynamic", attach_flavor},
    {"detach_unknown", "MPI_Win_detach", MPI_ERR_RMA_ATTACH, "no memory attached", detach_unknown},
    {"fence_assert", "MPI_Win_fence", MPI_ERR_ASSERT, "assert 3", fence_assert},
    {"lock_type", "MPI_Win_lock", MPI_ERR_LOCKTYPE, "lock_type 7", lock_type},
    {"lock_assert", "MPI_Win_lock", MPI_ERR_ASSERT, "assert 4096", lock_assert},
    {"unlock_not_locked", "MPI_Win_unlock", MPI_ERR_RMA_SYNC, "rank 0 is not locked", unlock_not_locked},
    {"unlock_all_not_locked", "MPI_Win_unlock_all", MPI_ERR_RMA_SYNC, "MPI_Win_lock_all", unlock_all_not_locked},
    {"flush_rank", "MPI_Win_flush", MPI_ERR_RANK, "rank 99", flush_rank},
    {"flush_not_locked", "MPI_Win_flush", MPI_ERR_RMA_SYNC, "rank 0 is not locked", flush_not_locked},
    {"win_call_errhandler_null", "MPI_Win_call_errhandler", MPI_ERR_WIN, "MPI_WIN_NULL", win_call_errhandler_null},
    {"win_create_dynamic_comm", "MPI_Win_create_dynamic", MPI_ERR_COMM, "MPI_COMM_NULL", win_create_dynamic_comm},
    {"win_create_errhandler_fn", "MPI_Win_create_errhandler", MPI_ERR_ARG, "is NULL", win_create_errhandler_fn},
    {"win_create_keyval_null", "MPI_Win_create_keyval", MPI_ERR_ARG, "is NULL", win_create_keyval_null},
    {"win_delete_attr_predefined", "MPI_Win_delete_attr", MPI_ERR_KEYVAL, "keyval", win_delete_attr_predefined},
    {"flush_all_not_locked", "MPI_Win_flush_all", MPI_ERR_RMA_SYNC, "MPI_Win_lock", flush_all_not_locked},
    {"flush_local_rank", "MPI_Win_flush_local", MPI_ERR_RANK, "rank 99", flush_local_rank},
    {"flush_local_all_not_locked", "MPI_Win_flush_local_all", MPI_ERR_RMA_SYNC, "MPI_Win_lock",
     flush_local_all_not_locked},
    {"win_get_errhandler_null", "MPI_Win_get_errhandler", MPI_ERR_ARG, "errhandler is NULL", win_get_errhandler_null},
    {"win_get_group_null", "MPI_Win_get_group", MPI_ERR_WIN, "MPI_WIN_NULL", win_get_group_null},
    {"win_get_info_null", "MPI_Win_get_info", MPI_ERR_ARG, "info_used is NULL", win_get_info_null},
    {"win_get_name_resultlen", "MPI_Win_get_name", MPI_ERR_ARG, "resultlen is NULL", win_get_name_resultlen},
    {"lock_all_assert", "MPI_Win_lock_all", MPI_ERR_ASSERT, "assert", lock_all_assert},
    {"post_group_null", "MPI_Win_post", MPI_ERR_GROUP, "MPI_GROUP_NULL", post_group_null},
    {"win_set_info_null", "MPI_Win_set_info", MPI_ERR_WIN, "MPI_WIN_NULL", win_set_info_null},
    {"win_sync_null", "MPI_Win_sync", MPI_ERR_WIN, "MPI_WIN_NULL", win_sync_null},
    {"win_test_no_post", "MPI_Win_test", MPI_ERR_RMA_SYNC, "MPI_Win_post", win_test_no_post},
    {"raccumulate_request_null", "MPI_Raccumulate", MPI_ERR_ARG, "request is NULL", raccumulate_request_null},
    {"rget_accumulate_request_null", "MPI_Rget_accumulate", MPI_ERR_ARG, "request is NULL",
     rget_accumulate_request_null},
    {NULL, NULL, 0, NULL, NULL},
};
