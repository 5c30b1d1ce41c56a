/* bad_input rows: ops, info objects, memory, environment, error classes and strings, Fortran statuses,
 * absent datatypes, MPI_T, sessions and communicators made from groups (see bad_input.h). */
#include <string.h>

#include "bad_input.h"

static void noop(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

/* ---- MPI_Op_create, MPI_Op_free, MPI_Op_commutative */

static int op_create_fn_null(struct bad_ctx *x)
{
    MPI_Op op;
    (void)x;
    return MPI_Op_create(NULL, 1, &op);
}

static int op_create_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Op_create(noop, 1, NULL);
}

static int op_free_predefined(struct bad_ctx *x)
{
    MPI_Op op = MPI_SUM;
    (void)x;
    return MPI_Op_free(&op);
}

static int op_free_replace(struct bad_ctx *x)
{
    MPI_Op op = MPI_REPLACE;
    (void)x;
    return MPI_Op_free(&op);
}

static int op_free_op_null(struct bad_ctx *x)
{
    MPI_Op op = MPI_OP_NULL;
    (void)x;
    return MPI_Op_free(&op);
}

static int op_free_twice(struct bad_ctx *x)
{
    MPI_Op op = bad_freed_op();
    (void)x;
    return MPI_Op_free(&op);
}

static int op_free_null_pointer(struct bad_ctx *x)
{
    (void)x;
    return MPI_Op_free(NULL);
}

static int op_commutative_freed(struct bad_ctx *x)
{
    int c;
    (void)x;
    return MPI_Op_commutative(bad_freed_op(), &c);
}

static int op_commutative_op_null(struct bad_ctx *x)
{
    int c;
    (void)x;
    return MPI_Op_commutative(MPI_OP_NULL, &c);
}

static int op_commutative_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Op_commutative(MPI_MAX, NULL);
}

/* ---- MPI_Alloc_mem, MPI_Free_mem */

static int alloc_mem_size_negative(struct bad_ctx *x)
{
    void *p;
    (void)x;
    return MPI_Alloc_mem(-5, MPI_INFO_NULL, &p);
}

static int alloc_mem_info_invalid(struct bad_ctx *x)
{
    void *p;
    return MPI_Alloc_mem(64, (MPI_Info)(void *)x->ibuf, &p);
}

static int alloc_mem_baseptr_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Alloc_mem(64, MPI_INFO_NULL, NULL);
}

static int free_mem_foreign(struct bad_ctx *x)
{
    return MPI_Free_mem(x->ibuf);
}

static int free_mem_twice(struct bad_ctx *x)
{
    void *p = NULL;
    (void)x;
    MPI_Alloc_mem(64, MPI_INFO_NULL, &p);
    MPI_Free_mem(p);
    return MPI_Free_mem(p);
}

/* ---- the environment */

static int processor_name_null(struct bad_ctx *x)
{
    int len;
    (void)x;
    return MPI_Get_processor_name(NULL, &len);
}

static int processor_name_resultlen_null(struct bad_ctx *x)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    (void)x;
    return MPI_Get_processor_name(name, NULL);
}

static int version_null(struct bad_ctx *x)
{
    int sub;
    (void)x;
    return MPI_Get_version(NULL, &sub);
}

static int library_version_resultlen_null(struct bad_ctx *x)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    (void)x;
    return MPI_Get_library_version(v, NULL);
}

static int query_thread_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Query_thread(NULL);
}

static int is_thread_main_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Is_thread_main(NULL);
}

static int initialized_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Initialized(NULL);
}

static int finalized_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Finalized(NULL);
}

/* Runs only under --fatal (main.c): the job ends even though comm is invalid. */
static int abort_comm_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Abort(MPI_COMM_NULL, 3);
}

/* ---- MPI_T: cls is the exact MPI_T_ERR_* code (main.c). Each row leaves MPI_T as it found it:
 * not initialized. */

static int t_init(void)
{
    int provided;
    return MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
}

static int t_init_thread_provided_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_T_init_thread(MPI_THREAD_SINGLE, NULL);
}

/* A required level that is none of the four (their ABI values are 0, 1024, 2048, 4096). */
static int t_init_thread_bad_level(struct bad_ctx *x)
{
    (void)x;
    int provided;
    return MPI_T_init_thread(MPI_THREAD_MULTIPLE + 1, &provided);
}

static int t_finalize_not_initialized(struct bad_ctx *x)
{
    (void)x;
    return MPI_T_finalize();
}

static int t_cvar_get_num_not_initialized(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_T_cvar_get_num(&n);
}

static int t_cvar_get_num_null(struct bad_ctx *x)
{
    (void)x;
    t_init();
    int rc = MPI_T_cvar_get_num(NULL);
    MPI_T_finalize();
    return rc;
}

static int t_cvar_get_info_index(struct bad_ctx *x)
{
    (void)x;
    t_init();
    int rc = MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    MPI_T_finalize();
    return rc;
}

static int t_cvar_get_info_not_initialized(struct bad_ctx *x)
{
    (void)x;
    return MPI_T_cvar_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}

static int t_cvar_get_index_unknown(struct bad_ctx *x)
{
    int i;
    (void)x;
    t_init();
    int rc = MPI_T_cvar_get_index("SKIFF_NO_SUCH_SETTING", &i);
    MPI_T_finalize();
    return rc;
}

static int t_cvar_get_index_name_null(struct bad_ctx *x)
{
    int i;
    (void)x;
    t_init();
    int rc = MPI_T_cvar_get_index(NULL, &i);
    MPI_T_finalize();
    return rc;
}

static int t_cvar_handle_alloc_index(struct bad_ctx *x)
{
    MPI_T_cvar_handle h;
    int count;
    (void)x;
    t_init();
    int rc = MPI_T_cvar_handle_alloc(1 << 20, NULL, &h, &count);
    MPI_T_finalize();
    return rc;
}

static int t_cvar_handle_alloc_out_null(struct bad_ctx *x)
{
    int count;
    (void)x;
    t_init();
    int rc = MPI_T_cvar_handle_alloc(0, NULL, NULL, &count);
    MPI_T_finalize();
    return rc;
}

/* A handle allocated and freed again, with MPI_T initialized around the call made by use. */
static int t_with_stale_handle(int (*use)(MPI_T_cvar_handle *h))
{
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL, stale;
    int count;
    t_init();
    MPI_T_cvar_handle_alloc(0, NULL, &h, &count);
    stale = h;
    MPI_T_cvar_handle_free(&h);
    int rc = use(&stale);
    MPI_T_finalize();
    return rc;
}

/* A handle still allocated at the last MPI_T_finalize, used once MPI_T is initialized again. */
static int t_cvar_read_after_finalize(struct bad_ctx *x)
{
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    int count;
    char buf[1024];
    (void)x;
    t_init();
    MPI_T_cvar_handle_alloc(0, NULL, &h, &count);
    MPI_T_finalize();
    t_init();
    int rc = MPI_T_cvar_read(h, buf);
    MPI_T_finalize();
    return rc;
}

static int free_handle(MPI_T_cvar_handle *h)
{
    return MPI_T_cvar_handle_free(h);
}

static int read_handle(MPI_T_cvar_handle *h)
{
    char buf[1024];
    return MPI_T_cvar_read(*h, buf);
}

static int write_handle(MPI_T_cvar_handle *h)
{
    return MPI_T_cvar_write(*h, "1");
}

static int t_cvar_handle_free_twice(struct bad_ctx *x)
{
    (void)x;
    return t_with_stale_handle(free_handle);
}

static int t_cvar_handle_free_null(struct bad_ctx *x)
{
    (void)x;
    t_init();
    int rc = MPI_T_cvar_handle_free(NULL);
    MPI_T_finalize();
    return rc;
}

static int t_cvar_read_freed(struct bad_ctx *x)
{
    (void)x;
    return t_with_stale_handle(read_handle);
}

static int t_cvar_read_buf_null(struct bad_ctx *x)
{
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    int count;
    (void)x;
    t_init();
    MPI_T_cvar_handle_alloc(0, NULL, &h, &count);
    int rc = MPI_T_cvar_read(h, NULL);
    MPI_T_cvar_handle_free(&h);
    MPI_T_finalize();
    return rc;
}

static int t_cvar_write_freed(struct bad_ctx *x)
{
    (void)x;
    return t_with_stale_handle(write_handle);
}

static int t_cvar_write_read_only(struct bad_ctx *x)
{
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    int count;
    (void)x;
    t_init();
    MPI_T_cvar_handle_alloc(0, NULL, &h, &count);
    int rc = write_handle(&h);
    MPI_T_cvar_handle_free(&h);
    MPI_T_finalize();
    return rc;
}

/* The rest of MPI_T: one call with MPI_T initialized around it; scratch outputs in t_out. */
static struct {
    int i;
    unsigned long long v;
    MPI_Count c;
    MPI_Info info;
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    MPI_T_event_registration reg;
} t_out;

#define T_ROW(fn, expr)                                                                                  \
    static int fn(struct bad_ctx *x)                                                                     \
    {                                                                                                    \
        (void)x;                                                                                         \
        t_init();                                                                                        \
        int rc = (expr);                                                                                 \
        MPI_T_finalize();                                                                                \
        return rc;                                                                                       \
    }

/* A session with a handle on the named variable, the call made by use, and both freed again. */
static int t_with_pvar(const char *name, int cls, int (*use)(void))
{
    int index = 0, count;
    t_init();
    MPI_T_pvar_session_create(&t_out.s);
    MPI_T_pvar_get_index(name, cls, &index);
    MPI_T_pvar_handle_alloc(t_out.s, index, NULL, &t_out.h, &count);
    int rc = use();
    MPI_T_pvar_session_free(&t_out.s);
    MPI_T_finalize();
    return rc;
}

static int pvar_read_all(void)
{
    return MPI_T_pvar_read(t_out.s, MPI_T_PVAR_ALL_HANDLES, &t_out.v);
}

static int pvar_read_other_session(void)
{
    MPI_T_pvar_session other;
    MPI_T_pvar_session_create(&other);
    int rc = MPI_T_pvar_read(other, t_out.h, &t_out.v);
    MPI_T_pvar_session_free(&other);
    return rc;
}

static int pvar_start(void)
{
    return MPI_T_pvar_start(t_out.s, t_out.h);
}

static int pvar_write(void)
{
    return MPI_T_pvar_write(t_out.s, t_out.h, &t_out.v);
}

static int pvar_reset(void)
{
    return MPI_T_pvar_reset(t_out.s, t_out.h);
}

static int pvar_read_buf_null(void)
{
    return MPI_T_pvar_read(t_out.s, t_out.h, NULL);
}

static int pvar_free_twice(void)
{
    MPI_T_pvar_handle stale = t_out.h;
    MPI_T_pvar_handle_free(t_out.s, &t_out.h);
    return MPI_T_pvar_handle_free(t_out.s, &stale);
}

static int t_pvar_read_all_handles(struct bad_ctx *x)
{
    (void)x;
    return t_with_pvar("skiff_recv_msgs", MPI_T_PVAR_CLASS_COUNTER, pvar_read_all);
}

static int t_pvar_read_other_session(struct bad_ctx *x)
{
    (void)x;
    return t_with_pvar("skiff_recv_msgs", MPI_T_PVAR_CLASS_COUNTER, pvar_read_other_session);
}

static int t_pvar_read_buf_null(struct bad_ctx *x)
{
    (void)x;
    return t_with_pvar("skiff_recv_msgs", MPI_T_PVAR_CLASS_COUNTER, pvar_read_buf_null);
}

static int t_pvar_handle_free_twice(struct bad_ctx *x)
{
    (void)x;
    return t_with_pvar("skiff_recv_msgs", MPI_T_PVAR_CLASS_COUNTER, pvar_free_twice);
}

static int t_pvar_start_continuous(struct bad_ctx *x)
{
    (void)x;
    return t_with_pvar("skiff_unexp_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK, pvar_start);
}

static int t_pvar_write_read_only(struct bad_ctx *x)
{
    (void)x;
    return t_with_pvar("skiff_unexp_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK, pvar_write);
}

static int t_pvar_reset_read_only(struct bad_ctx *x)
{
    (void)x;
    return t_with_pvar("skiff_unexp_queued", MPI_T_PVAR_CLASS_LEVEL, pvar_reset);
}

static int t_pvar_session_free_twice(struct bad_ctx *x)
{
    (void)x;
    t_init();
    MPI_T_pvar_session_create(&t_out.s);
    MPI_T_pvar_session stale = t_out.s;
    MPI_T_pvar_session_free(&t_out.s);
    int rc = MPI_T_pvar_session_free(&stale);
    MPI_T_finalize();
    return rc;
}

static int t_pvar_get_num_not_initialized(struct bad_ctx *x)
{
    (void)x;
    return MPI_T_pvar_get_num(&t_out.i);
}

T_ROW(t_pvar_get_info_index, MPI_T_pvar_get_info(1 << 20, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                                 NULL, NULL))
T_ROW(t_pvar_get_index_class, MPI_T_pvar_get_index("skiff_recv_msgs", MPI_T_PVAR_CLASS_TIMER, &t_out.i))
T_ROW(t_pvar_session_create_null, MPI_T_pvar_session_create(NULL))
T_ROW(t_pvar_handle_alloc_session, MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, NULL, &t_out.h, &t_out.i))
T_ROW(t_enum_get_info_null, MPI_T_enum_get_info(MPI_T_ENUM_NULL, &t_out.i, NULL, NULL))
T_ROW(t_category_get_info_index, MPI_T_category_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL))
T_ROW(t_category_get_index_unknown, MPI_T_category_get_index("skiff_no_such_category", &t_out.i))
T_ROW(t_category_get_cvars_len, MPI_T_category_get_cvars(0, -1, &t_out.i))
T_ROW(t_category_changed_null, MPI_T_category_changed(NULL))
T_ROW(t_category_get_num_events_index, MPI_T_category_get_num_events(1 << 20, &t_out.i))
T_ROW(t_category_get_events_index, MPI_T_category_get_events(-1, 0, NULL))
T_ROW(t_source_get_info_index, MPI_T_source_get_info(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL))
T_ROW(t_source_get_timestamp_null, MPI_T_source_get_timestamp(0, NULL))
T_ROW(t_event_get_info_index, MPI_T_event_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                                   NULL))
T_ROW(t_event_get_index_unknown, MPI_T_event_get_index("skiff_no_such_event", &t_out.i))
T_ROW(t_event_handle_alloc_index, MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &t_out.reg))
/* skiff has no event types: no registration or instance can be valid. */
T_ROW(t_event_handle_free_invalid, MPI_T_event_handle_free((MPI_T_event_registration)&t_out, NULL, NULL))
T_ROW(t_event_register_callback_invalid,
      MPI_T_event_register_callback((MPI_T_event_registration)&t_out, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                    NULL))
T_ROW(t_event_handle_get_info_invalid, MPI_T_event_handle_get_info((MPI_T_event_registration)&t_out, &t_out.info))
T_ROW(t_event_set_dropped_handler_invalid,
      MPI_T_event_set_dropped_handler((MPI_T_event_registration)&t_out, NULL))
T_ROW(t_event_read_invalid, MPI_T_event_read((MPI_T_event_instance)&t_out, 0, &t_out.v))
T_ROW(t_event_get_timestamp_invalid, MPI_T_event_get_timestamp((MPI_T_event_instance)&t_out, &t_out.c))

/* ---- MPI_Status_c2f, MPI_Status_f2c; datatypes this platform lacks */

static int status_c2f_ignore(struct bad_ctx *x)
{
    MPI_Fint f[MPI_F_STATUS_SIZE];
    (void)x;
    return MPI_Status_c2f(MPI_STATUS_IGNORE, f);
}

static int status_c2f_out_null(struct bad_ctx *x)
{
    return MPI_Status_c2f(&x->status, NULL);
}

static int status_f2c_in_null(struct bad_ctx *x)
{
    return MPI_Status_f2c(NULL, &x->status);
}

static int status_f2c_ignore(struct bad_ctx *x)
{
    MPI_Fint f[MPI_F_STATUS_SIZE] = {0};
    (void)x;
    return MPI_Status_f2c(f, MPI_STATUS_IGNORE);
}

/* No compiler here has a 2-byte REAL: MPI_REAL2 and MPI_COMPLEX4 are ABI names without a type. */
static int type_size_real2(struct bad_ctx *x)
{
    int size;
    (void)x;
    return MPI_Type_size(MPI_REAL2, &size);
}

static int send_complex4(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, MPI_COMPLEX4, 0, 0, x->comm);
}

/* ---- info objects */

static int info_create_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_create(NULL);
}

static int info_create_env_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_create_env(0, NULL, NULL);
}

static int info_set_null_info(struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_set(MPI_INFO_NULL, "k", "v");
}

/* A fresh info for a row; the row frees it whatever the call did. */
static int with_info(int (*call)(MPI_Info info, struct bad_ctx *x), struct bad_ctx *x)
{
    MPI_Info info;
    MPI_Info_create(&info);
    int rc = call(info, x);
    MPI_Info_free(&info);
    return rc;
}

static int set_key_long(MPI_Info info, struct bad_ctx *x)
{
    char key[MPI_MAX_INFO_KEY + 1];
    (void)x;
    memset(key, 'k', MPI_MAX_INFO_KEY);
    key[MPI_MAX_INFO_KEY] = '\0';
    return MPI_Info_set(info, key, "v");
}

static int info_set_key_long(struct bad_ctx *x)
{
    return with_info(set_key_long, x);
}

static int set_key_empty(MPI_Info info, struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_set(info, "", "v");
}

static int info_set_key_empty(struct bad_ctx *x)
{
    return with_info(set_key_empty, x);
}

static int set_value_long(MPI_Info info, struct bad_ctx *x)
{
    static char val[MPI_MAX_INFO_VAL + 1];
    (void)x;
    memset(val, 'v', MPI_MAX_INFO_VAL);
    val[MPI_MAX_INFO_VAL] = '\0';
    return MPI_Info_set(info, "k", val);
}

static int info_set_value_long(struct bad_ctx *x)
{
    return with_info(set_value_long, x);
}

static int info_set_env(struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_set(MPI_INFO_ENV, "k", "v");
}

static int get_valuelen_negative(MPI_Info info, struct bad_ctx *x)
{
    int flag;
    return MPI_Info_get(info, "k", -1, (char *)x->ibuf, &flag);
}

static int info_get_valuelen_negative(struct bad_ctx *x)
{
    return with_info(get_valuelen_negative, x);
}

static int get_string_buflen_negative(MPI_Info info, struct bad_ctx *x)
{
    int flag, buflen = -2;
    return MPI_Info_get_string(info, "k", &buflen, (char *)x->ibuf, &flag);
}

static int info_get_string_buflen_negative(struct bad_ctx *x)
{
    return with_info(get_string_buflen_negative, x);
}

static int get_valuelen_flag_null(MPI_Info info, struct bad_ctx *x)
{
    int len;
    (void)x;
    return MPI_Info_get_valuelen(info, "k", &len, NULL);
}

static int info_get_valuelen_flag_null(struct bad_ctx *x)
{
    return with_info(get_valuelen_flag_null, x);
}

static int get_nkeys_null(MPI_Info info, struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_get_nkeys(info, NULL);
}

static int info_get_nkeys_null(struct bad_ctx *x)
{
    return with_info(get_nkeys_null, x);
}

static int get_nthkey_range(MPI_Info info, struct bad_ctx *x)
{
    return MPI_Info_get_nthkey(info, 5, (char *)x->ibuf);
}

static int info_get_nthkey_range(struct bad_ctx *x)
{
    return with_info(get_nthkey_range, x);
}

static int delete_missing(MPI_Info info, struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_delete(info, "zzz");
}

static int info_delete_missing(struct bad_ctx *x)
{
    return with_info(delete_missing, x);
}

static int dup_null(MPI_Info info, struct bad_ctx *x)
{
    (void)x;
    return MPI_Info_dup(info, NULL);
}

static int info_dup_null(struct bad_ctx *x)
{
    return with_info(dup_null, x);
}

static int info_free_freed(struct bad_ctx *x)
{
    MPI_Info info, stale;
    (void)x;
    MPI_Info_create(&info);
    stale = info;
    MPI_Info_free(&info);
    return MPI_Info_free(&stale);
}

static int info_free_env(struct bad_ctx *x)
{
    MPI_Info env = MPI_INFO_ENV;
    (void)x;
    return MPI_Info_free(&env);
}

/* ---- sessions, process sets, communicators from groups. A row's session takes the handler of the mode
 * being tested (x->comm's), so under --fatal its error ends the job like the others. */

static MPI_Session open_session(struct bad_ctx *x)
{
    MPI_Errhandler eh;
    MPI_Session s = MPI_SESSION_NULL;
    MPI_Comm_get_errhandler(x->comm, &eh);
    MPI_Session_init(MPI_INFO_NULL, eh, &s);
    MPI_Errhandler_free(&eh);
    return s;
}

static int close_session(MPI_Session s, int rc)
{
    MPI_Session_finalize(&s);
    return rc;
}

static MPI_Errhandler mode_handler(struct bad_ctx *x)
{
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(x->comm, &eh);
    return eh; /* predefined: nothing to free */
}

static void session_noop(MPI_Session *s, int *code, ...)
{
    (void)s, (void)code;
}

static char session_buffer[100];

static int session_attach_buffer_negative(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    return close_session(s, MPI_Session_attach_buffer(s, session_buffer, -5));
}

static int session_detach_buffer_null_size(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    void *addr;
    return close_session(s, MPI_Session_detach_buffer(s, &addr, NULL));
}

static int session_flush_buffer_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Session_flush_buffer(MPI_SESSION_NULL);
}

static int session_iflush_buffer_null_request(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    return close_session(s, MPI_Session_iflush_buffer(s, NULL));
}

static int session_init_nullptr(struct bad_ctx *x)
{
    return MPI_Session_init(MPI_INFO_NULL, mode_handler(x), NULL);
}

static int session_init_errhandler_null(struct bad_ctx *x)
{
    MPI_Session s;
    (void)x;
    return MPI_Session_init(MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &s);
}

static int session_init_thread_level(struct bad_ctx *x)
{
    MPI_Session s;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_BOGUS");
    int rc = MPI_Session_init(info, mode_handler(x), &s);
    MPI_Info_free(&info);
    return rc;
}

static int session_finalize_null(struct bad_ctx *x)
{
    MPI_Session s = MPI_SESSION_NULL;
    (void)x;
    return MPI_Session_finalize(&s);
}

static int session_num_psets_nullptr(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    return close_session(s, MPI_Session_get_num_psets(s, MPI_INFO_NULL, NULL));
}

static int session_nth_pset_n(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    char name[64];
    int len = (int)sizeof name;
    return close_session(s, MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 99, &len, name));
}

static int session_pset_info_unknown(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    MPI_Info info;
    return close_session(s, MPI_Session_get_pset_info(s, "no://such-set", &info));
}

static int session_get_info_null(struct bad_ctx *x)
{
    MPI_Info info;
    (void)x;
    return MPI_Session_get_info(MPI_SESSION_NULL, &info);
}

static int session_set_errhandler_null(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    return close_session(s, MPI_Session_set_errhandler(s, MPI_ERRHANDLER_NULL));
}

static int session_get_errhandler_nullptr(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    return close_session(s, MPI_Session_get_errhandler(s, NULL));
}

static int session_create_errhandler_fn_null(struct bad_ctx *x)
{
    MPI_Errhandler eh;
    (void)x;
    return MPI_Session_create_errhandler(NULL, &eh);
}

static int session_create_errhandler_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Session_create_errhandler(session_noop, NULL);
}

static int session_call_errhandler_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Session_call_errhandler(MPI_SESSION_NULL, MPI_ERR_OTHER);
}

static int group_from_pset_unknown(struct bad_ctx *x)
{
    MPI_Session s = open_session(x);
    MPI_Group g;
    return close_session(s, MPI_Group_from_session_pset(s, "no://such-set", &g));
}

static int group_from_pset_session_null(struct bad_ctx *x)
{
    MPI_Group g;
    (void)x;
    return MPI_Group_from_session_pset(MPI_SESSION_NULL, "mpi://WORLD", &g);
}

static int comm_from_group_null(struct bad_ctx *x)
{
    MPI_Comm c;
    return MPI_Comm_create_from_group(MPI_GROUP_NULL, "bad", MPI_INFO_NULL, mode_handler(x), &c);
}

static int comm_from_group_tag_null(struct bad_ctx *x)
{
    MPI_Group g;
    MPI_Comm c;
    MPI_Comm_group(x->self, &g);
    int rc = MPI_Comm_create_from_group(g, NULL, MPI_INFO_NULL, mode_handler(x), &c);
    MPI_Group_free(&g);
    return rc;
}

static int comm_from_group_not_member(struct bad_ctx *x)
{
    MPI_Comm c;
    return MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "bad", MPI_INFO_NULL, mode_handler(x), &c);
}

static int intercomm_from_groups_leader(struct bad_ctx *x)
{
    MPI_Group g;
    MPI_Comm c;
    MPI_Comm_group(x->self, &g);
    int rc = MPI_Intercomm_create_from_groups(g, 0, MPI_GROUP_EMPTY, 99, "bad", MPI_INFO_NULL, mode_handler(x), &c);
    MPI_Group_free(&g);
    return rc;
}

static int intercomm_from_groups_overlap(struct bad_ctx *x)
{
    MPI_Group g;
    MPI_Comm c;
    MPI_Comm_group(x->self, &g);
    int rc = MPI_Intercomm_create_from_groups(g, 0, g, 0, "bad", MPI_INFO_NULL, mode_handler(x), &c);
    MPI_Group_free(&g);
    return rc;
}

static int intercomm_from_groups_null(struct bad_ctx *x)
{
    MPI_Comm c;
    return MPI_Intercomm_create_from_groups(MPI_GROUP_NULL, 0, MPI_GROUP_EMPTY, 0, "bad", MPI_INFO_NULL,
                                            mode_handler(x), &c);
}

static int hw_resource_info_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Get_hw_resource_info(NULL);
}

static int value_index_type_null(struct bad_ctx *x)
{
    MPI_Datatype pair;
    (void)x;
    return MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &pair);
}

static int value_index_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, NULL);
}

static int abi_fortran_info_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Abi_get_fortran_info(NULL);
}

static int abi_set_fortran_info(struct bad_ctx *x)
{
    (void)x;
    return MPI_Abi_set_fortran_info(MPI_INFO_ENV);
}

static int abi_booleans_size(struct bad_ctx *x)
{
    char t[4], f[4];
    int set;
    (void)x;
    return MPI_Abi_get_fortran_booleans(3, t, f, &set);
}

static int abi_set_booleans(struct bad_ctx *x)
{
    char t[4] = {1}, f[4] = {0};
    (void)x;
    return MPI_Abi_set_fortran_booleans(4, t, f);
}

const struct bad_case bad_misc[] = {
    {"op_create_fn_null", "MPI_Op_create", MPI_ERR_ARG, "user_fn is NULL", op_create_fn_null},
    {"op_create_out_null", "MPI_Op_create", MPI_ERR_ARG, "op is NULL", op_create_out_null},
    {"op_free_predefined", "MPI_Op_free", MPI_ERR_OP, "MPI_SUM is predefined", op_free_predefined},
    {"op_free_replace", "MPI_Op_free", MPI_ERR_OP, "MPI_REPLACE is predefined", op_free_replace},
    {"op_free_op_null", "MPI_Op_free", MPI_ERR_OP, "MPI_OP_NULL", op_free_op_null},
    {"op_free_twice", "MPI_Op_free", MPI_ERR_OP, "freed", op_free_twice},
    {"op_free_null_pointer", "MPI_Op_free", MPI_ERR_ARG, "op is NULL", op_free_null_pointer},
    {"op_commutative_freed", "MPI_Op_commutative", MPI_ERR_OP, "freed", op_commutative_freed},
    {"op_commutative_op_null", "MPI_Op_commutative", MPI_ERR_OP, "MPI_OP_NULL", op_commutative_op_null},
    {"op_commutative_out_null", "MPI_Op_commutative", MPI_ERR_ARG, "commute is NULL", op_commutative_out_null},
    {"status_c2f_ignore", "MPI_Status_c2f", MPI_ERR_ARG, "c_status is NULL", status_c2f_ignore},
    {"status_c2f_out_null", "MPI_Status_c2f", MPI_ERR_ARG, "f_status is NULL", status_c2f_out_null},
    {"status_f2c_in_null", "MPI_Status_f2c", MPI_ERR_ARG, "f_status is NULL", status_f2c_in_null},
    {"status_f2c_ignore", "MPI_Status_f2c", MPI_ERR_ARG, "c_status is NULL", status_f2c_ignore},
    {"type_size_real2", "MPI_Type_size", MPI_ERR_TYPE, "MPI_REAL2 (an optional type this platform does not have)",
     type_size_real2},
    {"send_complex4", "MPI_Send", MPI_ERR_TYPE, "MPI_COMPLEX4 (an optional type", send_complex4},
    {"info_create_null", "MPI_Info_create", MPI_ERR_ARG, "info is NULL", info_create_null},
    {"info_create_env_null", "MPI_Info_create_env", MPI_ERR_ARG, "info is NULL", info_create_env_null},
    {"info_set_null_info", "MPI_Info_set", MPI_ERR_INFO, "MPI_INFO_NULL", info_set_null_info},
    {"info_set_key_long", "MPI_Info_set", MPI_ERR_INFO_KEY, "key (too long", info_set_key_long},
    {"info_set_key_empty", "MPI_Info_set", MPI_ERR_INFO_KEY, "key (empty", info_set_key_empty},
    {"info_set_value_long", "MPI_Info_set", MPI_ERR_INFO_VALUE, "value of key too long", info_set_value_long},
    {"info_set_env", "MPI_Info_set", MPI_ERR_INFO, "MPI_INFO_ENV is predefined", info_set_env},
    {"info_get_valuelen_negative", "MPI_Info_get", MPI_ERR_ARG, "valuelen -1", info_get_valuelen_negative},
    {"info_get_string_buflen_negative", "MPI_Info_get_string", MPI_ERR_ARG, "*buflen -2",
     info_get_string_buflen_negative},
    {"info_get_valuelen_flag_null", "MPI_Info_get_valuelen", MPI_ERR_ARG, "flag is NULL", info_get_valuelen_flag_null},
    {"info_get_nkeys_null", "MPI_Info_get_nkeys", MPI_ERR_ARG, "nkeys is NULL", info_get_nkeys_null},
    {"info_get_nthkey_range", "MPI_Info_get_nthkey", MPI_ERR_ARG, "n 5 (the info has 0 keys)", info_get_nthkey_range},
    {"info_delete_missing", "MPI_Info_delete", MPI_ERR_INFO_NOKEY, "\"zzz\" is not in", info_delete_missing},
    {"info_dup_null", "MPI_Info_dup", MPI_ERR_ARG, "newinfo is NULL", info_dup_null},
    {"info_free_freed", "MPI_Info_free", MPI_ERR_INFO, "already freed", info_free_freed},
    {"info_free_env", "MPI_Info_free", MPI_ERR_INFO, "MPI_INFO_ENV is predefined", info_free_env},
    {"alloc_mem_size_negative", "MPI_Alloc_mem", MPI_ERR_ARG, "size -5", alloc_mem_size_negative},
    {"alloc_mem_info_invalid", "MPI_Alloc_mem", MPI_ERR_INFO, "invalid info", alloc_mem_info_invalid},
    {"alloc_mem_baseptr_null", "MPI_Alloc_mem", MPI_ERR_ARG, "baseptr is NULL", alloc_mem_baseptr_null},
    {"free_mem_foreign", "MPI_Free_mem", MPI_ERR_BASE, "not allocated by MPI_Alloc_mem", free_mem_foreign},
    {"free_mem_twice", "MPI_Free_mem", MPI_ERR_BASE, "freed already", free_mem_twice},
    {"processor_name_null", "MPI_Get_processor_name", MPI_ERR_ARG, "name is NULL", processor_name_null},
    {"processor_name_resultlen_null", "MPI_Get_processor_name", MPI_ERR_ARG, "resultlen is NULL",
     processor_name_resultlen_null},
    {"version_null", "MPI_Get_version", MPI_ERR_ARG, "version is NULL", version_null},
    {"library_version_resultlen_null", "MPI_Get_library_version", MPI_ERR_ARG, "resultlen is NULL",
     library_version_resultlen_null},
    {"query_thread_null", "MPI_Query_thread", MPI_ERR_ARG, "provided is NULL", query_thread_null},
    {"is_thread_main_null", "MPI_Is_thread_main", MPI_ERR_ARG, "flag is NULL", is_thread_main_null},
    {"initialized_null", "MPI_Initialized", MPI_ERR_ARG, "flag is NULL", initialized_null},
    {"finalized_null", "MPI_Finalized", MPI_ERR_ARG, "flag is NULL", finalized_null},
    {"abort_comm_null", "MPI_Abort", MPI_ERR_COMM, "MPI_COMM_NULL", abort_comm_null},
    {"t_init_thread_provided_null", "MPI_T_init_thread", MPI_T_ERR_INVALID, NULL, t_init_thread_provided_null},
    {"t_init_thread_bad_level", "MPI_T_init_thread", MPI_T_ERR_INVALID, NULL, t_init_thread_bad_level},
    {"t_finalize_not_initialized", "MPI_T_finalize", MPI_T_ERR_NOT_INITIALIZED, NULL, t_finalize_not_initialized},
    {"t_cvar_get_num_not_initialized", "MPI_T_cvar_get_num", MPI_T_ERR_NOT_INITIALIZED, NULL,
     t_cvar_get_num_not_initialized},
    {"t_cvar_get_num_null", "MPI_T_cvar_get_num", MPI_T_ERR_INVALID, NULL, t_cvar_get_num_null},
    {"t_cvar_get_info_index", "MPI_T_cvar_get_info", MPI_T_ERR_INVALID_INDEX, NULL, t_cvar_get_info_index},
    {"t_cvar_get_info_not_initialized", "MPI_T_cvar_get_info", MPI_T_ERR_NOT_INITIALIZED, NULL,
     t_cvar_get_info_not_initialized},
    {"t_cvar_get_index_unknown", "MPI_T_cvar_get_index", MPI_T_ERR_INVALID_NAME, NULL, t_cvar_get_index_unknown},
    {"t_cvar_get_index_name_null", "MPI_T_cvar_get_index", MPI_T_ERR_INVALID, NULL, t_cvar_get_index_name_null},
    {"t_cvar_handle_alloc_index", "MPI_T_cvar_handle_alloc", MPI_T_ERR_INVALID_INDEX, NULL,
     t_cvar_handle_alloc_index},
    {"t_cvar_handle_alloc_out_null", "MPI_T_cvar_handle_alloc", MPI_T_ERR_INVALID, NULL,
     t_cvar_handle_alloc_out_null},
    {"t_cvar_handle_free_twice", "MPI_T_cvar_handle_free", MPI_T_ERR_INVALID_HANDLE, NULL, t_cvar_handle_free_twice},
    {"t_cvar_handle_free_null", "MPI_T_cvar_handle_free", MPI_T_ERR_INVALID, NULL, t_cvar_handle_free_null},
    {"t_cvar_read_freed", "MPI_T_cvar_read", MPI_T_ERR_INVALID_HANDLE, NULL, t_cvar_read_freed},
    {"t_cvar_read_buf_null", "MPI_T_cvar_read", MPI_T_ERR_INVALID, NULL, t_cvar_read_buf_null},
    {"t_cvar_read_after_finalize", "MPI_T_cvar_read", MPI_T_ERR_INVALID_HANDLE, NULL, t_cvar_read_after_finalize},
    {"t_cvar_write_freed", "MPI_T_cvar_write", MPI_T_ERR_INVALID_HANDLE, NULL, t_cvar_write_freed},
    {"t_cvar_write_read_only", "MPI_T_cvar_write", MPI_T_ERR_CVAR_SET_NEVER, NULL, t_cvar_write_read_only},
    {"t_pvar_get_num_not_initialized", "MPI_T_pvar_get_num", MPI_T_ERR_NOT_INITIALIZED, NULL,
     t_pvar_get_num_not_initialized},
    {"t_pvar_get_info_index", "MPI_T_pvar_get_info", MPI_T_ERR_INVALID_INDEX, NULL, t_pvar_get_info_index},
    {"t_pvar_get_index_class", "MPI_T_pvar_get_index", MPI_T_ERR_INVALID_NAME, NULL, t_pvar_get_index_class},
    {"t_pvar_session_create_null", "MPI_T_pvar_session_create", MPI_T_ERR_INVALID, NULL, t_pvar_session_create_null},
    {"t_pvar_session_free_twice", "MPI_T_pvar_session_free", MPI_T_ERR_INVALID_SESSION, NULL,
     t_pvar_session_free_twice},
    {"t_pvar_handle_alloc_session", "MPI_T_pvar_handle_alloc", MPI_T_ERR_INVALID_SESSION, NULL,
     t_pvar_handle_alloc_session},
    {"t_pvar_handle_free_twice", "MPI_T_pvar_handle_free", MPI_T_ERR_INVALID_HANDLE, NULL, t_pvar_handle_free_twice},
    {"t_pvar_read_all_handles", "MPI_T_pvar_read", MPI_T_ERR_INVALID_HANDLE, NULL, t_pvar_read_all_handles},
    {"t_pvar_read_other_session", "MPI_T_pvar_read", MPI_T_ERR_INVALID_HANDLE, NULL, t_pvar_read_other_session},
    {"t_pvar_read_buf_null", "MPI_T_pvar_read", MPI_T_ERR_INVALID, NULL, t_pvar_read_buf_null},
    {"t_pvar_start_continuous", "MPI_T_pvar_start", MPI_T_ERR_PVAR_NO_STARTSTOP, NULL, t_pvar_start_continuous},
    {"t_pvar_write_read_only", "MPI_T_pvar_write", MPI_T_ERR_PVAR_NO_WRITE, NULL, t_pvar_write_read_only},
    {"t_pvar_reset_read_only", "MPI_T_pvar_reset", MPI_T_ERR_PVAR_NO_WRITE, NULL, t_pvar_reset_read_only},
    {"t_enum_get_info_null", "MPI_T_enum_get_info", MPI_T_ERR_INVALID_HANDLE, NULL, t_enum_get_info_null},
    {"t_category_get_info_index", "MPI_T_category_get_info", MPI_T_ERR_INVALID_INDEX, NULL, t_category_get_info_index},
    {"t_category_get_index_unknown", "MPI_T_category_get_index", MPI_T_ERR_INVALID_NAME, NULL,
     t_category_get_index_unknown},
    {"t_category_get_cvars_len", "MPI_T_category_get_cvars", MPI_T_ERR_INVALID, NULL, t_category_get_cvars_len},
    {"t_category_changed_null", "MPI_T_category_changed", MPI_T_ERR_INVALID, NULL, t_category_changed_null},
    {"t_category_get_num_events_index", "MPI_T_category_get_num_events", MPI_T_ERR_INVALID_INDEX, NULL,
     t_category_get_num_events_index},
    {"t_category_get_events_index", "MPI_T_category_get_events", MPI_T_ERR_INVALID_INDEX, NULL,
     t_category_get_events_index},
    {"t_source_get_info_index", "MPI_T_source_get_info", MPI_T_ERR_INVALID_INDEX, NULL, t_source_get_info_index},
    {"t_source_get_timestamp_null", "MPI_T_source_get_timestamp", MPI_T_ERR_INVALID, NULL, t_source_get_timestamp_null},
    {"t_event_get_info_index", "MPI_T_event_get_info", MPI_T_ERR_INVALID_INDEX, NULL, t_event_get_info_index},
    {"t_event_get_index_unknown", "MPI_T_event_get_index", MPI_T_ERR_INVALID_NAME, NULL, t_event_get_index_unknown},
    {"t_event_handle_alloc_index", "MPI_T_event_handle_alloc", MPI_T_ERR_INVALID_INDEX, NULL,
     t_event_handle_alloc_index},
    {"t_event_handle_free_invalid", "MPI_T_event_handle_free", MPI_T_ERR_INVALID_HANDLE, NULL,
     t_event_handle_free_invalid},
    {"t_event_register_callback_invalid", "MPI_T_event_register_callback", MPI_T_ERR_INVALID_HANDLE, NULL,
     t_event_register_callback_invalid},
    {"t_event_handle_get_info_invalid", "MPI_T_event_handle_get_info", MPI_T_ERR_INVALID_HANDLE, NULL,
     t_event_handle_get_info_invalid},
    {"t_event_set_dropped_handler_invalid", "MPI_T_event_set_dropped_handler", MPI_T_ERR_INVALID_HANDLE, NULL,
     t_event_set_dropped_handler_invalid},
    {"t_event_read_invalid", "MPI_T_event_read", MPI_T_ERR_INVALID_HANDLE, NULL, t_event_read_invalid},
    {"t_event_get_timestamp_invalid", "MPI_T_event_get_timestamp", MPI_T_ERR_INVALID_HANDLE, NULL,
     t_event_get_timestamp_invalid},
    {"session_init_nullptr", "MPI_Session_init", MPI_ERR_ARG, "session is NULL", session_init_nullptr},
    {"session_init_errhandler_null", "MPI_Session_init", MPI_ERR_ERRHANDLER, "MPI_ERRHANDLER_NULL",
     session_init_errhandler_null},
    {"session_init_thread_level", "MPI_Session_init", MPI_ERR_INFO_VALUE, "MPI_THREAD_BOGUS",
     session_init_thread_level},
    {"session_finalize_null", "MPI_Session_finalize", MPI_ERR_SESSION, "MPI_SESSION_NULL", session_finalize_null},
    {"session_attach_buffer_negative", "MPI_Session_attach_buffer", MPI_ERR_ARG, "invalid buffer size -5",
     session_attach_buffer_negative},
    {"session_detach_buffer_null_size", "MPI_Session_detach_buffer", MPI_ERR_ARG, "size is NULL",
     session_detach_buffer_null_size},
    {"session_flush_buffer_null", "MPI_Session_flush_buffer", MPI_ERR_SESSION, "MPI_SESSION_NULL",
     session_flush_buffer_null},
    {"session_iflush_buffer_null_request", "MPI_Session_iflush_buffer", MPI_ERR_ARG, "request is NULL",
     session_iflush_buffer_null_request},
    {"session_num_psets_nullptr", "MPI_Session_get_num_psets", MPI_ERR_ARG, "npset_names is NULL",
     session_num_psets_nullptr},
    {"session_nth_pset_n", "MPI_Session_get_nth_pset", MPI_ERR_ARG, "invalid n 99", session_nth_pset_n},
    {"session_pset_info_unknown", "MPI_Session_get_pset_info", MPI_ERR_ARG, "no://such-set", session_pset_info_unknown},
    {"session_get_info_null", "MPI_Session_get_info", MPI_ERR_SESSION, "MPI_SESSION_NULL", session_get_info_null},
    {"session_set_errhandler_null", "MPI_Session_set_errhandler", MPI_ERR_ERRHANDLER, "MPI_ERRHANDLER_NULL",
     session_set_errhandler_null},
    {"session_get_errhandler_nullptr", "MPI_Session_get_errhandler", MPI_ERR_ARG, "errhandler is NULL",
     session_get_errhandler_nullptr},
    {"session_create_errhandler_fn_null", "MPI_Session_create_errhandler", MPI_ERR_ARG, "session_errhandler_fn is NULL",
     session_create_errhandler_fn_null},
    {"session_create_errhandler_nullptr", "MPI_Session_create_errhandler", MPI_ERR_ARG, "errhandler is NULL",
     session_create_errhandler_nullptr},
    {"session_call_errhandler_null", "MPI_Session_call_errhandler", MPI_ERR_SESSION, "MPI_SESSION_NULL",
     session_call_errhandler_null},
    {"group_from_pset_unknown", "MPI_Group_from_session_pset", MPI_ERR_ARG, "no://such-set", group_from_pset_unknown},
    {"group_from_pset_session_null", "MPI_Group_from_session_pset", MPI_ERR_SESSION, "MPI_SESSION_NULL",
     group_from_pset_session_null},
    {"comm_from_group_null", "MPI_Comm_create_from_group", MPI_ERR_GROUP, "MPI_GROUP_NULL", comm_from_group_null},
    {"comm_from_group_tag_null", "MPI_Comm_create_from_group", MPI_ERR_ARG, "stringtag is NULL",
     comm_from_group_tag_null},
    {"comm_from_group_not_member", "MPI_Comm_create_from_group", MPI_ERR_GROUP, "is not in the group",
     comm_from_group_not_member},
    {"intercomm_from_groups_leader", "MPI_Intercomm_create_from_groups", MPI_ERR_RANK, "remote_leader 99",
     intercomm_from_groups_leader},
    {"intercomm_from_groups_overlap", "MPI_Intercomm_create_from_groups", MPI_ERR_GROUP, "in both",
     intercomm_from_groups_overlap},
    {"intercomm_from_groups_null", "MPI_Intercomm_create_from_groups", MPI_ERR_GROUP, "MPI_GROUP_NULL",
     intercomm_from_groups_null},
    {"hw_resource_info_null", "MPI_Get_hw_resource_info", MPI_ERR_ARG, "hw_info is NULL", hw_resource_info_null},
    {"value_index_type_null", "MPI_Type_get_value_index", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", value_index_type_null},
    {"value_index_out_null", "MPI_Type_get_value_index", MPI_ERR_ARG, "pair_type is NULL", value_index_out_null},
    {"abi_fortran_info_null", "MPI_Abi_get_fortran_info", MPI_ERR_ARG, "info is NULL", abi_fortran_info_null},
    {"abi_set_fortran_info", "MPI_Abi_set_fortran_info", MPI_ERR_ABI, "already known", abi_set_fortran_info},
    {"abi_booleans_size", "MPI_Abi_get_fortran_booleans", MPI_ERR_ARG, "logical_size 3", abi_booleans_size},
    {"abi_set_booleans", "MPI_Abi_set_fortran_booleans", MPI_ERR_ABI, "already known", abi_set_booleans},
    {0},
};
