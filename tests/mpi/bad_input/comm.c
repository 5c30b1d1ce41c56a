/* bad_input rows: communicators, groups, attributes, error handlers, topologies (see bad_input.h).
 *
 * Groups come from MPI_COMM_SELF and grids are made on it, so that every message is the same at any
 * number of ranks; the collective constructors fail on x->comm, where every rank sees the same error. */
#include "bad_input.h"

#include <string.h>

/* The group of MPI_COMM_SELF (one process); the caller frees it. */
static MPI_Group self_group(void)
{
    MPI_Group g = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_SELF, &g);
    return g;
}

/* A 1 x 1 grid on x->self, dimension 0 fixed, dimension 1 periodic; the caller frees it. */
static MPI_Comm self_cart(struct bad_ctx *x)
{
    MPI_Comm c = MPI_COMM_NULL;
    int dims[2] = {1, 1}, periods[2] = {0, 1};
    MPI_Cart_create(x->self, 2, dims, periods, 0, &c);
    return c;
}

static int created_keyval(void)
{
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    return k;
}

static int freed_keyval(void)
{
    int k = created_keyval(), stale = k;
    MPI_Comm_free_keyval(&k);
    return stale;
}

/* ---------------------------------------------------------------- communicator queries */

static int comm_rank_null(struct bad_ctx *x)
{
    int r;
    (void)x;
    return MPI_Comm_rank(MPI_COMM_NULL, &r);
}

static int comm_rank_freed(struct bad_ctx *x)
{
    int r;
    (void)x;
    return MPI_Comm_rank(bad_freed_comm(), &r);
}

static int comm_rank_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_rank(x->comm, NULL);
}

static int comm_size_null(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Comm_size(MPI_COMM_NULL, &n);
}

static int comm_size_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_size(x->comm, NULL);
}

static int comm_compare_null(struct bad_ctx *x)
{
    int r;
    return MPI_Comm_compare(x->comm, MPI_COMM_NULL, &r);
}

static int comm_compare_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_compare(x->comm, x->self, NULL);
}

static int comm_get_name_freed(struct bad_ctx *x)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    (void)x;
    return MPI_Comm_get_name(bad_freed_comm(), name, &len);
}

static int comm_get_name_nullptr(struct bad_ctx *x)
{
    char name[MPI_MAX_OBJECT_NAME];
    return MPI_Comm_get_name(x->comm, name, NULL);
}

static int comm_set_name_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_set_name(MPI_COMM_NULL, "bad");
}

static int comm_set_name_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_set_name(x->comm, NULL);
}

static int comm_group_null(struct bad_ctx *x)
{
    MPI_Group g;
    (void)x;
    return MPI_Comm_group(MPI_COMM_NULL, &g);
}

static int comm_group_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_group(x->comm, NULL);
}

static int comm_test_inter_null(struct bad_ctx *x)
{
    int flag;
    (void)x;
    return MPI_Comm_test_inter(MPI_COMM_NULL, &flag);
}

static int comm_test_inter_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_test_inter(x->comm, NULL);
}

/* ---------------------------------------------------------------- intercommunicators */

static int comm_remote_size_null(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Comm_remote_size(MPI_COMM_NULL, &n);
}

static int comm_remote_size_intra(struct bad_ctx *x)
{
    int n;
    return MPI_Comm_remote_size(x->comm, &n);
}

static int comm_remote_group_null(struct bad_ctx *x)
{
    MPI_Group g;
    (void)x;
    return MPI_Comm_remote_group(MPI_COMM_NULL, &g);
}

static int comm_remote_group_intra(struct bad_ctx *x)
{
    MPI_Group g;
    return MPI_Comm_remote_group(x->comm, &g);
}

static int intercomm_merge_null(struct bad_ctx *x)
{
    MPI_Comm n;
    (void)x;
    return MPI_Intercomm_merge(MPI_COMM_NULL, 0, &n);
}

static int intercomm_merge_intra(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Intercomm_merge(x->comm, 0, &n);
}

static int intercomm_create_null_local(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Intercomm_create(MPI_COMM_NULL, 0, x->comm, 0, 5, &n);
}

static int intercomm_create_bad_leader(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Intercomm_create(x->comm, 99, x->comm, 0, 5, &n);
}

static int intercomm_create_bad_tag(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Intercomm_create(x->self, 0, x->comm, 0, -7, &n);
}

static int intercomm_create_nullptr(struct bad_ctx *x)
{
    return MPI_Intercomm_create(x->self, 0, x->comm, 0, 5, NULL);
}

/* Every rank leads its own MPI_COMM_SELF, so the peer checks run everywhere. */
static int intercomm_create_null_peer(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Intercomm_create(x->self, 0, MPI_COMM_NULL, 0, 5, &n);
}

static int intercomm_create_bad_remote(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Intercomm_create(x->self, 0, x->comm, 99, 5, &n);
}

static int intercomm_create_self_remote(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Intercomm_create(x->self, 0, x->comm, x->rank, 5, &n);
}

/* ---------------------------------------------------------------- making and freeing communicators */

static int comm_create_null_comm(struct bad_ctx *x)
{
    MPI_Comm n;
    (void)x;
    return MPI_Comm_create(MPI_COMM_NULL, MPI_GROUP_EMPTY, &n);
}

static int comm_create_null_group(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_create(x->comm, MPI_GROUP_NULL, &n);
}

static int comm_create_freed_group(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_create(x->comm, bad_freed_group(), &n);
}

static int comm_create_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_create(x->comm, MPI_GROUP_EMPTY, NULL);
}

static int comm_dup_null(struct bad_ctx *x)
{
    MPI_Comm n;
    (void)x;
    return MPI_Comm_dup(MPI_COMM_NULL, &n);
}

static int comm_dup_freed(struct bad_ctx *x)
{
    MPI_Comm n;
    (void)x;
    return MPI_Comm_dup(bad_freed_comm(), &n);
}

static int comm_dup_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_dup(x->comm, NULL);
}

static int comm_free_world(struct bad_ctx *x)
{
    MPI_Comm c = MPI_COMM_WORLD;
    (void)x;
    return MPI_Comm_free(&c);
}

static int comm_free_self(struct bad_ctx *x)
{
    MPI_Comm c = MPI_COMM_SELF;
    (void)x;
    return MPI_Comm_free(&c);
}

static int comm_free_null(struct bad_ctx *x)
{
    MPI_Comm c = MPI_COMM_NULL;
    (void)x;
    return MPI_Comm_free(&c);
}

static int comm_free_freed(struct bad_ctx *x)
{
    MPI_Comm c = bad_freed_comm();
    (void)x;
    return MPI_Comm_free(&c);
}

static int comm_free_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_free(NULL);
}

static int comm_split_null(struct bad_ctx *x)
{
    MPI_Comm n;
    (void)x;
    return MPI_Comm_split(MPI_COMM_NULL, 0, 0, &n);
}

static int comm_split_color(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_split(x->comm, -5, 0, &n);
}

static int comm_split_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_split(x->comm, 0, 0, NULL);
}

static int comm_split_type_null(struct bad_ctx *x)
{
    MPI_Comm n;
    (void)x;
    return MPI_Comm_split_type(MPI_COMM_NULL, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &n);
}

static int comm_split_type_unknown(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_split_type(x->comm, 999, 0, MPI_INFO_NULL, &n);
}

static int comm_split_type_info(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_split_type(x->comm, MPI_COMM_TYPE_SHARED, 0, (MPI_Info)(void *)x->ibuf, &n);
}

static int comm_split_type_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_split_type(x->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, NULL);
}

/* ---------------------------------------------------------------- groups */

static int group_compare_null(struct bad_ctx *x)
{
    int r;
    (void)x;
    return MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_NULL, &r);
}

static int group_compare_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, NULL);
}

static int group_difference_freed(struct bad_ctx *x)
{
    MPI_Group g;
    (void)x;
    return MPI_Group_difference(bad_freed_group(), MPI_GROUP_EMPTY, &g);
}

static int group_difference_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Group_difference(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, NULL);
}

static int group_intersection_null(struct bad_ctx *x)
{
    MPI_Group g;
    (void)x;
    return MPI_Group_intersection(MPI_GROUP_NULL, MPI_GROUP_EMPTY, &g);
}

static int group_intersection_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Group_intersection(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, NULL);
}

static int group_union_freed(struct bad_ctx *x)
{
    MPI_Group g;
    (void)x;
    return MPI_Group_union(MPI_GROUP_EMPTY, bad_freed_group(), &g);
}

static int group_union_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Group_union(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, NULL);
}

/* MPI_Group_incl or MPI_Group_excl of the self group. */
static int self_select(int excl, int n, const int *ranks, int give_out)
{
    MPI_Group g = self_group(), out = MPI_GROUP_NULL;
    int rc = excl ? MPI_Group_excl(g, n, ranks, give_out ? &out : NULL)
                  : MPI_Group_incl(g, n, ranks, give_out ? &out : NULL);
    if (out != MPI_GROUP_NULL)
        MPI_Group_free(&out);
    MPI_Group_free(&g);
    return rc;
}

static int group_excl_null(struct bad_ctx *x)
{
    MPI_Group g;
    int r = 0;
    (void)x;
    return MPI_Group_excl(MPI_GROUP_NULL, 1, &r, &g);
}

static int group_excl_rank(struct bad_ctx *x)
{
    int r = 99;
    (void)x;
    return self_select(1, 1, &r, 1);
}

static int group_excl_twice(struct bad_ctx *x)
{
    int r[2] = {0, 0};
    (void)x;
    return self_select(1, 2, r, 1);
}

static int group_excl_count(struct bad_ctx *x)
{
    int r = 0;
    (void)x;
    return self_select(1, -2, &r, 1);
}

static int group_excl_nullptr(struct bad_ctx *x)
{
    (void)x;
    return self_select(1, 1, NULL, 1);
}

static int group_incl_freed(struct bad_ctx *x)
{
    MPI_Group g;
    int r = 0;
    (void)x;
    return MPI_Group_incl(bad_freed_group(), 1, &r, &g);
}

static int group_incl_rank(struct bad_ctx *x)
{
    int r = -4;
    (void)x;
    return self_select(0, 1, &r, 1);
}

static int group_incl_twice(struct bad_ctx *x)
{
    int r[2] = {0, 0};
    (void)x;
    return self_select(0, 2, r, 1);
}

static int group_incl_count(struct bad_ctx *x)
{
    int r = 0;
    (void)x;
    return self_select(0, -2, &r, 1);
}

static int group_incl_nullptr(struct bad_ctx *x)
{
    int r = 0;
    (void)x;
    return self_select(0, 1, &r, 0);
}

static int group_free_null(struct bad_ctx *x)
{
    MPI_Group g = MPI_GROUP_NULL;
    (void)x;
    return MPI_Group_free(&g);
}

static int group_free_freed(struct bad_ctx *x)
{
    MPI_Group g = bad_freed_group();
    (void)x;
    return MPI_Group_free(&g);
}

static int group_free_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Group_free(NULL);
}

/* MPI_Group_range_incl or MPI_Group_range_excl of the self group. */
static int self_range(int excl, int n, int ranges[][3])
{
    MPI_Group g = self_group(), out = MPI_GROUP_NULL;
    int rc = excl ? MPI_Group_range_excl(g, n, ranges, &out) : MPI_Group_range_incl(g, n, ranges, &out);
    if (out != MPI_GROUP_NULL)
        MPI_Group_free(&out);
    MPI_Group_free(&g);
    return rc;
}

static int group_range_excl_null(struct bad_ctx *x)
{
    MPI_Group g;
    int r[1][3] = {{0, 0, 1}};
    (void)x;
    return MPI_Group_range_excl(MPI_GROUP_NULL, 1, r, &g);
}

static int group_range_excl_stride0(struct bad_ctx *x)
{
    int r[1][3] = {{0, 0, 0}};
    (void)x;
    return self_range(1, 1, r);
}

static int group_range_excl_nullptr(struct bad_ctx *x)
{
    (void)x;
    return self_range(1, 1, NULL);
}

static int group_range_incl_range(struct bad_ctx *x)
{
    int r[1][3] = {{0, 77, 1}};
    (void)x;
    return self_range(0, 1, r);
}

static int group_range_incl_twice(struct bad_ctx *x)
{
    int r[2][3] = {{0, 0, 1}, {0, 0, 1}};
    (void)x;
    return self_range(0, 2, r);
}

static int group_range_incl_count(struct bad_ctx *x)
{
    int r[1][3] = {{0, 0, 1}};
    (void)x;
    return self_range(0, -3, r);
}

static int group_rank_null(struct bad_ctx *x)
{
    int r;
    (void)x;
    return MPI_Group_rank(MPI_GROUP_NULL, &r);
}

static int group_rank_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Group_rank(MPI_GROUP_EMPTY, NULL);
}

static int group_size_freed(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Group_size(bad_freed_group(), &n);
}

static int group_size_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Group_size(MPI_GROUP_EMPTY, NULL);
}

/* MPI_Group_translate_ranks from the self group to itself. */
static int self_translate(int n, const int *ranks1, int *ranks2)
{
    MPI_Group g = self_group();
    int rc = MPI_Group_translate_ranks(g, n, ranks1, g, ranks2);
    MPI_Group_free(&g);
    return rc;
}

static int group_translate_null(struct bad_ctx *x)
{
    int r = 0, out;
    (void)x;
    return MPI_Group_translate_ranks(MPI_GROUP_NULL, 1, &r, MPI_GROUP_EMPTY, &out);
}

static int group_translate_rank(struct bad_ctx *x)
{
    int r = 42, out;
    (void)x;
    return self_translate(1, &r, &out);
}

static int group_translate_count(struct bad_ctx *x)
{
    int r = 0, out;
    (void)x;
    return self_translate(-3, &r, &out);
}

static int group_translate_nullptr(struct bad_ctx *x)
{
    int r = 0;
    (void)x;
    return self_translate(1, &r, NULL);
}

/* ---------------------------------------------------------------- attributes */

static int create_keyval_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL);
}

static int delete_attr_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_delete_attr(MPI_COMM_NULL, MPI_TAG_UB);
}

static int delete_attr_unknown(struct bad_ctx *x)
{
    return MPI_Comm_delete_attr(x->comm, 12345);
}

static int delete_attr_predefined(struct bad_ctx *x)
{
    return MPI_Comm_delete_attr(x->comm, MPI_TAG_UB);
}

static int free_keyval_invalid(struct bad_ctx *x)
{
    int k = MPI_KEYVAL_INVALID;
    (void)x;
    return MPI_Comm_free_keyval(&k);
}

static int free_keyval_predefined(struct bad_ctx *x)
{
    int k = MPI_APPNUM;
    (void)x;
    return MPI_Comm_free_keyval(&k);
}

static int free_keyval_freed(struct bad_ctx *x)
{
    int k = freed_keyval();
    (void)x;
    return MPI_Comm_free_keyval(&k);
}

static int free_keyval_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_free_keyval(NULL);
}

static int get_attr_null(struct bad_ctx *x)
{
    void *v;
    int flag;
    (void)x;
    return MPI_Comm_get_attr(MPI_COMM_NULL, MPI_TAG_UB, &v, &flag);
}

static int get_attr_unknown(struct bad_ctx *x)
{
    void *v;
    int flag;
    return MPI_Comm_get_attr(x->comm, 12345, &v, &flag);
}

static int get_attr_nullptr(struct bad_ctx *x)
{
    void *v;
    return MPI_Comm_get_attr(x->comm, MPI_TAG_UB, &v, NULL);
}

static int set_attr_freed_comm(struct bad_ctx *x)
{
    int k = created_keyval();
    (void)x;
    int rc = MPI_Comm_set_attr(bad_freed_comm(), k, NULL);
    MPI_Comm_free_keyval(&k);
    return rc;
}

static int set_attr_predefined(struct bad_ctx *x)
{
    return MPI_Comm_set_attr(x->comm, MPI_HOST, NULL);
}

static int set_attr_invalid(struct bad_ctx *x)
{
    return MPI_Comm_set_attr(x->comm, MPI_KEYVAL_INVALID, NULL);
}

static int set_attr_freed_keyval(struct bad_ctx *x)
{
    return MPI_Comm_set_attr(x->comm, freed_keyval(), NULL);
}

/* ---------------------------------------------------------------- error handlers and error codes */

static int get_errhandler_null(struct bad_ctx *x)
{
    MPI_Errhandler eh;
    (void)x;
    return MPI_Comm_get_errhandler(MPI_COMM_NULL, &eh);
}

static int get_errhandler_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_get_errhandler(x->comm, NULL);
}

static int set_errhandler_freed(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_set_errhandler(bad_freed_comm(), MPI_ERRORS_RETURN);
}

static int set_errhandler_null(struct bad_ctx *x)
{
    return MPI_Comm_set_errhandler(x->comm, MPI_ERRHANDLER_NULL);
}

static int errhandler_free_null(struct bad_ctx *x)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    (void)x;
    return MPI_Errhandler_free(&eh);
}

static int errhandler_free_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Errhandler_free(NULL);
}

static int error_class_bad(struct bad_ctx *x)
{
    int cls;
    (void)x;
    return MPI_Error_class(-77, &cls);
}

static int error_class_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Error_class(MPI_ERR_COMM, NULL);
}

static int error_string_bad(struct bad_ctx *x)
{
    char s[MPI_MAX_ERROR_STRING];
    int len;
    (void)x;
    return MPI_Error_string(99999, s, &len);
}

static int error_string_nullptr(struct bad_ctx *x)
{
    char s[MPI_MAX_ERROR_STRING];
    (void)x;
    return MPI_Error_string(MPI_ERR_COMM, s, NULL);
}

static void bad_eh_fn(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static int create_errhandler_nullfn(struct bad_ctx *x)
{
    MPI_Errhandler eh;
    (void)x;
    return MPI_Comm_create_errhandler(NULL, &eh);
}

static int create_errhandler_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_create_errhandler(bad_eh_fn, NULL);
}

static int call_errhandler_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER);
}

/* A user handler created and freed right here: its handle is stale. */
static int set_errhandler_freed_eh(struct bad_ctx *x)
{
    MPI_Errhandler eh, stale;
    MPI_Comm_create_errhandler(bad_eh_fn, &eh);
    stale = eh;
    MPI_Errhandler_free(&eh);
    return MPI_Comm_set_errhandler(x->comm, stale);
}

static int errhandler_create_nullfn(struct bad_ctx *x)
{
    MPI_Errhandler eh;
    (void)x;
    return MPI_Errhandler_create(NULL, &eh);
}

static int errhandler_set_null(struct bad_ctx *x)
{
    return MPI_Errhandler_set(x->comm, MPI_ERRHANDLER_NULL);
}

static int errhandler_get_nullptr(struct bad_ctx *x)
{
    return MPI_Errhandler_get(x->comm, NULL);
}

static int add_error_class_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Add_error_class(NULL);
}

static int add_error_code_badclass(struct bad_ctx *x)
{
    int code;
    (void)x;
    return MPI_Add_error_code(-5, &code);
}

static int add_error_code_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Add_error_code(MPI_ERR_OTHER, NULL);
}

static int add_error_string_predefined(struct bad_ctx *x)
{
    (void)x;
    return MPI_Add_error_string(MPI_ERR_ARG, "mine now");
}

static int add_error_string_toolong(struct bad_ctx *x)
{
    char s[MPI_MAX_ERROR_STRING + 8];
    int cls;
    (void)x;
    memset(s, 'e', sizeof s - 1);
    s[sizeof s - 1] = '\0';
    MPI_Add_error_class(&cls);
    int rc = MPI_Add_error_string(cls, s);
    MPI_Remove_error_class(cls);
    return rc;
}

static int remove_error_class_predefined(struct bad_ctx *x)
{
    (void)x;
    return MPI_Remove_error_class(MPI_ERR_ARG);
}

static int remove_error_class_codes(struct bad_ctx *x)
{
    int cls, code;
    (void)x;
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    int rc = MPI_Remove_error_class(cls);
    MPI_Remove_error_code(code);
    MPI_Remove_error_class(cls);
    return rc;
}

static int remove_error_code_class(struct bad_ctx *x)
{
    int cls;
    (void)x;
    MPI_Add_error_class(&cls);
    int rc = MPI_Remove_error_code(cls);
    MPI_Remove_error_class(cls);
    return rc;
}

static int remove_error_code_string(struct bad_ctx *x)
{
    int code;
    (void)x;
    MPI_Add_error_code(MPI_ERR_OTHER, &code);
    MPI_Add_error_string(code, "still here");
    int rc = MPI_Remove_error_code(code);
    MPI_Remove_error_string(code);
    MPI_Remove_error_code(code);
    return rc;
}

static int remove_error_code_unknown(struct bad_ctx *x)
{
    (void)x;
    return MPI_Remove_error_code(0x7fff0000);
}

static int remove_error_string_none(struct bad_ctx *x)
{
    int cls;
    (void)x;
    MPI_Add_error_class(&cls);
    int rc = MPI_Remove_error_string(cls);
    MPI_Remove_error_class(cls);
    return rc;
}

/* ---------------------------------------------------------------- Cartesian topologies */

static int cart_coords_null(struct bad_ctx *x)
{
    int coords[2];
    (void)x;
    return MPI_Cart_coords(MPI_COMM_NULL, 0, 2, coords);
}

static int cart_coords_notopo(struct bad_ctx *x)
{
    int coords[2];
    return MPI_Cart_coords(x->comm, 0, 2, coords);
}

/* MPI_Cart_coords on the self grid. */
static int self_coords(struct bad_ctx *x, int rank, int maxdims, int *coords)
{
    MPI_Comm c = self_cart(x);
    int rc = MPI_Cart_coords(c, rank, maxdims, coords);
    MPI_Comm_free(&c);
    return rc;
}

static int cart_coords_rank(struct bad_ctx *x)
{
    int coords[2];
    return self_coords(x, 99, 2, coords);
}

static int cart_coords_maxdims(struct bad_ctx *x)
{
    int coords[2];
    return self_coords(x, 0, 1, coords);
}

static int cart_coords_nullptr(struct bad_ctx *x)
{
    return self_coords(x, 0, 2, NULL);
}

static int cart_create_null(struct bad_ctx *x)
{
    MPI_Comm n;
    int dims[1] = {1}, periods[1] = {0};
    (void)x;
    return MPI_Cart_create(MPI_COMM_NULL, 1, dims, periods, 0, &n);
}

static int cart_create_ndims(struct bad_ctx *x)
{
    MPI_Comm n;
    int dims[1] = {1}, periods[1] = {0};
    return MPI_Cart_create(x->comm, -2, dims, periods, 0, &n);
}

static int cart_create_dims(struct bad_ctx *x)
{
    MPI_Comm n;
    int dims[2] = {3, -4}, periods[2] = {0, 0};
    return MPI_Cart_create(x->comm, 2, dims, periods, 0, &n);
}

static int cart_create_big(struct bad_ctx *x)
{
    MPI_Comm n;
    int dims[2] = {7, 11}, periods[2] = {0, 0};
    return MPI_Cart_create(x->self, 2, dims, periods, 0, &n);
}

static int cart_create_nullptr(struct bad_ctx *x)
{
    MPI_Comm n;
    int dims[1] = {1};
    return MPI_Cart_create(x->comm, 1, dims, NULL, 0, &n);
}

static int cart_create_out_nullptr(struct bad_ctx *x)
{
    int dims[1] = {1}, periods[1] = {0};
    return MPI_Cart_create(x->comm, 1, dims, periods, 0, NULL);
}

static int cart_get_null(struct bad_ctx *x)
{
    int d[2], p[2], c[2];
    (void)x;
    return MPI_Cart_get(MPI_COMM_NULL, 2, d, p, c);
}

static int cart_get_notopo(struct bad_ctx *x)
{
    int d[2], p[2], c[2];
    return MPI_Cart_get(x->comm, 2, d, p, c);
}

/* MPI_Cart_get on the self grid. */
static int self_get(struct bad_ctx *x, int maxdims, int *dims, int *periods, int *coords)
{
    MPI_Comm c = self_cart(x);
    int rc = MPI_Cart_get(c, maxdims, dims, periods, coords);
    MPI_Comm_free(&c);
    return rc;
}

static int cart_get_maxdims(struct bad_ctx *x)
{
    int d[2], p[2], c[2];
    return self_get(x, 1, d, p, c);
}

static int cart_get_nullptr(struct bad_ctx *x)
{
    int d[2], c[2];
    return self_get(x, 2, d, NULL, c);
}

static int cart_map_null(struct bad_ctx *x)
{
    int dims[1] = {1}, periods[1] = {0}, r;
    (void)x;
    return MPI_Cart_map(MPI_COMM_NULL, 1, dims, periods, &r);
}

static int cart_map_dims(struct bad_ctx *x)
{
    int dims[1] = {0}, periods[1] = {0}, r;
    return MPI_Cart_map(x->comm, 1, dims, periods, &r);
}

static int cart_map_big(struct bad_ctx *x)
{
    int dims[2] = {7, 11}, periods[2] = {0, 0}, r;
    return MPI_Cart_map(x->self, 2, dims, periods, &r);
}

static int cart_map_nullptr(struct bad_ctx *x)
{
    int dims[1] = {1}, periods[1] = {0};
    return MPI_Cart_map(x->comm, 1, dims, periods, NULL);
}

static int cart_rank_freed(struct bad_ctx *x)
{
    int coords[2] = {0, 0}, r;
    (void)x;
    return MPI_Cart_rank(bad_freed_comm(), coords, &r);
}

static int cart_rank_notopo(struct bad_ctx *x)
{
    int coords[2] = {0, 0}, r;
    return MPI_Cart_rank(x->comm, coords, &r);
}

/* MPI_Cart_rank on the self grid. */
static int self_rank(struct bad_ctx *x, const int *coords, int *rank)
{
    MPI_Comm c = self_cart(x);
    int rc = MPI_Cart_rank(c, coords, rank);
    MPI_Comm_free(&c);
    return rc;
}

static int cart_rank_coords(struct bad_ctx *x)
{
    int coords[2] = {5, 0}, r;
    return self_rank(x, coords, &r);
}

static int cart_rank_nullptr(struct bad_ctx *x)
{
    int r;
    return self_rank(x, NULL, &r);
}

static int cart_shift_null(struct bad_ctx *x)
{
    int s, d;
    (void)x;
    return MPI_Cart_shift(MPI_COMM_NULL, 0, 1, &s, &d);
}

static int cart_shift_notopo(struct bad_ctx *x)
{
    int s, d;
    return MPI_Cart_shift(x->comm, 0, 1, &s, &d);
}

/* MPI_Cart_shift on the self grid. */
static int self_shift(struct bad_ctx *x, int direction, int *source, int *dest)
{
    MPI_Comm c = self_cart(x);
    int rc = MPI_Cart_shift(c, direction, 1, source, dest);
    MPI_Comm_free(&c);
    return rc;
}

static int cart_shift_direction(struct bad_ctx *x)
{
    int s, d;
    return self_shift(x, 7, &s, &d);
}

static int cart_shift_nullptr(struct bad_ctx *x)
{
    int s;
    return self_shift(x, 0, &s, NULL);
}

static int cart_sub_null(struct bad_ctx *x)
{
    int remain[2] = {1, 0};
    MPI_Comm n;
    (void)x;
    return MPI_Cart_sub(MPI_COMM_NULL, remain, &n);
}

static int cart_sub_notopo(struct bad_ctx *x)
{
    int remain[2] = {1, 0};
    MPI_Comm n;
    return MPI_Cart_sub(x->comm, remain, &n);
}

static int cart_sub_nullptr(struct bad_ctx *x)
{
    MPI_Comm c = self_cart(x), n;
    int rc = MPI_Cart_sub(c, NULL, &n);
    MPI_Comm_free(&c);
    return rc;
}

static int cartdim_get_null(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Cartdim_get(MPI_COMM_NULL, &n);
}

static int cartdim_get_notopo(struct bad_ctx *x)
{
    int n;
    return MPI_Cartdim_get(x->comm, &n);
}

static int cartdim_get_nullptr(struct bad_ctx *x)
{
    MPI_Comm c = self_cart(x);
    int rc = MPI_Cartdim_get(c, NULL);
    MPI_Comm_free(&c);
    return rc;
}

static int dims_create_ndims(struct bad_ctx *x)
{
    int dims[2] = {0, 0};
    (void)x;
    return MPI_Dims_create(6, -3, dims);
}

static int dims_create_nnodes(struct bad_ctx *x)
{
    int dims[2] = {0, 0};
    (void)x;
    return MPI_Dims_create(-6, 2, dims);
}

static int dims_create_negative(struct bad_ctx *x)
{
    int dims[2] = {-2, 0};
    (void)x;
    return MPI_Dims_create(6, 2, dims);
}

static int dims_create_indivisible(struct bad_ctx *x)
{
    int dims[2] = {4, 0};
    (void)x;
    return MPI_Dims_create(6, 2, dims);
}

static int dims_create_nullptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Dims_create(6, 2, NULL);
}

static int topo_test_null(struct bad_ctx *x)
{
    int status;
    (void)x;
    return MPI_Topo_test(MPI_COMM_NULL, &status);
}

static int topo_test_nullptr(struct bad_ctx *x)
{
    return MPI_Topo_test(x->comm, NULL);
}

/* ---------------------------------------------------------------- hints, idup, create_group */

static int comm_set_info_null_info(struct bad_ctx *x)
{
    return MPI_Comm_set_info(x->comm, MPI_INFO_NULL);
}

static int comm_get_info_null(struct bad_ctx *x)
{
    MPI_Info info;
    (void)x;
    return MPI_Comm_get_info(MPI_COMM_NULL, &info);
}

static int comm_get_info_nullptr(struct bad_ctx *x)
{
    return MPI_Comm_get_info(x->comm, NULL);
}

static int comm_dup_with_info_bad(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_dup_with_info(x->comm, (MPI_Info)(void *)x->ibuf, &n);
}

static int comm_idup_null(struct bad_ctx *x)
{
    MPI_Comm n;
    MPI_Request r;
    (void)x;
    return MPI_Comm_idup(MPI_COMM_NULL, &n, &r);
}

static int comm_idup_request_null(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_idup(x->comm, &n, NULL);
}

static int comm_idup_with_info_bad(struct bad_ctx *x)
{
    MPI_Comm n;
    MPI_Request r;
    return MPI_Comm_idup_with_info(x->comm, (MPI_Info)(void *)x->ibuf, &n, &r);
}

static int comm_create_group_tag(struct bad_ctx *x)
{
    MPI_Group g;
    MPI_Comm n;
    MPI_Comm_group(x->comm, &g);
    int rc = MPI_Comm_create_group(x->comm, g, -7, &n);
    MPI_Group_free(&g);
    return rc;
}

static int comm_create_group_null(struct bad_ctx *x)
{
    MPI_Comm n;
    return MPI_Comm_create_group(x->comm, MPI_GROUP_NULL, 0, &n);
}

const struct bad_case bad_comm[] = {
    {"comm_rank_null", "MPI_Comm_rank", MPI_ERR_COMM, "MPI_COMM_NULL", comm_rank_null},
    {"comm_rank_freed", "MPI_Comm_rank", MPI_ERR_COMM, "already freed", comm_rank_freed},
    {"comm_rank_nullptr", "MPI_Comm_rank", MPI_ERR_ARG, "rank is NULL", comm_rank_nullptr},
    {"comm_size_null", "MPI_Comm_size", MPI_ERR_COMM, "MPI_COMM_NULL", comm_size_null},
    {"comm_size_nullptr", "MPI_Comm_size", MPI_ERR_ARG, "size is NULL", comm_size_nullptr},
    {"comm_compare_null", "MPI_Comm_compare", MPI_ERR_COMM, "MPI_COMM_NULL", comm_compare_null},
    {"comm_compare_nullptr", "MPI_Comm_compare", MPI_ERR_ARG, "result is NULL", comm_compare_nullptr},
    {"comm_get_name_freed", "MPI_Comm_get_name", MPI_ERR_COMM, "already freed", comm_get_name_freed},
    {"comm_get_name_nullptr", "MPI_Comm_get_name", MPI_ERR_ARG, "resultlen is NULL", comm_get_name_nullptr},
    {"comm_set_name_null", "MPI_Comm_set_name", MPI_ERR_COMM, "MPI_COMM_NULL", comm_set_name_null},
    {"comm_set_name_nullptr", "MPI_Comm_set_name", MPI_ERR_ARG, "comm_name is NULL", comm_set_name_nullptr},
    {"comm_group_null", "MPI_Comm_group", MPI_ERR_COMM, "MPI_COMM_NULL", comm_group_null},
    {"comm_group_nullptr", "MPI_Comm_group", MPI_ERR_ARG, "group is NULL", comm_group_nullptr},
    {"comm_test_inter_null", "MPI_Comm_test_inter", MPI_ERR_COMM, "MPI_COMM_NULL", comm_test_inter_null},
    {"comm_test_inter_nullptr", "MPI_Comm_test_inter", MPI_ERR_ARG, "flag is NULL", comm_test_inter_nullptr},
    {"comm_remote_size_null", "MPI_Comm_remote_size", MPI_ERR_COMM, "MPI_COMM_NULL", comm_remote_size_null},
    {"comm_remote_size_intra", "MPI_Comm_remote_size", MPI_ERR_COMM, "takes an intercommunicator",
     comm_remote_size_intra},
    {"comm_remote_group_null", "MPI_Comm_remote_group", MPI_ERR_COMM, "MPI_COMM_NULL", comm_remote_group_null},
    {"comm_remote_group_intra", "MPI_Comm_remote_group", MPI_ERR_COMM, "takes an intercommunicator",
     comm_remote_group_intra},
    {"intercomm_merge_null", "MPI_Intercomm_merge", MPI_ERR_COMM, "MPI_COMM_NULL", intercomm_merge_null},
    {"intercomm_merge_intra", "MPI_Intercomm_merge", MPI_ERR_COMM, "takes an intercommunicator",
     intercomm_merge_intra},
    {"intercomm_create_null_local", "MPI_Intercomm_create", MPI_ERR_COMM, "MPI_COMM_NULL",
     intercomm_create_null_local},
    {"intercomm_create_bad_leader", "MPI_Intercomm_create", MPI_ERR_RANK, "local_leader 99",
     intercomm_create_bad_leader},
    {"intercomm_create_bad_tag", "MPI_Intercomm_create", MPI_ERR_TAG, "tag -7", intercomm_create_bad_tag},
    {"intercomm_create_nullptr", "MPI_Intercomm_create", MPI_ERR_ARG, "newintercomm is NULL",
     intercomm_create_nullptr},
    {"intercomm_create_null_peer", "MPI_Intercomm_create", MPI_ERR_COMM, "MPI_COMM_NULL",
     intercomm_create_null_peer},
    {"intercomm_create_bad_remote", "MPI_Intercomm_create", MPI_ERR_RANK, "remote_leader 99",
     intercomm_create_bad_remote},
    {"intercomm_create_self_remote", "MPI_Intercomm_create", MPI_ERR_RANK, "must be disjoint",
     intercomm_create_self_remote},

    {"comm_create_null_comm", "MPI_Comm_create", MPI_ERR_COMM, "MPI_COMM_NULL", comm_create_null_comm},
    {"comm_create_null_group", "MPI_Comm_create", MPI_ERR_GROUP, "MPI_GROUP_NULL", comm_create_null_group},
    {"comm_create_freed_group", "MPI_Comm_create", MPI_ERR_GROUP, "already freed", comm_create_freed_group},
    {"comm_create_nullptr", "MPI_Comm_create", MPI_ERR_ARG, "newcomm is NULL", comm_create_nullptr},
    {"comm_dup_null", "MPI_Comm_dup", MPI_ERR_COMM, "MPI_COMM_NULL", comm_dup_null},
    {"comm_dup_freed", "MPI_Comm_dup", MPI_ERR_COMM, "already freed", comm_dup_freed},
    {"comm_dup_nullptr", "MPI_Comm_dup", MPI_ERR_ARG, "newcomm is NULL", comm_dup_nullptr},
    {"comm_free_world", "MPI_Comm_free", MPI_ERR_COMM, "MPI_COMM_WORLD is predefined", comm_free_world},
    {"comm_free_self", "MPI_Comm_free", MPI_ERR_COMM, "MPI_COMM_SELF is predefined", comm_free_self},
    {"comm_free_null", "MPI_Comm_free", MPI_ERR_COMM, "MPI_COMM_NULL", comm_free_null},
    {"comm_free_freed", "MPI_Comm_free", MPI_ERR_COMM, "already freed", comm_free_freed},
    {"comm_free_nullptr", "MPI_Comm_free", MPI_ERR_ARG, "comm is NULL", comm_free_nullptr},
    {"comm_split_null", "MPI_Comm_split", MPI_ERR_COMM, "MPI_COMM_NULL", comm_split_null},
    {"comm_split_color", "MPI_Comm_split", MPI_ERR_ARG, "invalid color -5", comm_split_color},
    {"comm_split_nullptr", "MPI_Comm_split", MPI_ERR_ARG, "newcomm is NULL", comm_split_nullptr},
    {"comm_set_info_null_info", "MPI_Comm_set_info", MPI_ERR_INFO, "MPI_INFO_NULL", comm_set_info_null_info},
    {"comm_get_info_null", "MPI_Comm_get_info", MPI_ERR_COMM, "MPI_COMM_NULL", comm_get_info_null},
    {"comm_get_info_nullptr", "MPI_Comm_get_info", MPI_ERR_ARG, "info_used is NULL", comm_get_info_nullptr},
    {"comm_dup_with_info_bad", "MPI_Comm_dup_with_info", MPI_ERR_INFO, "invalid info", comm_dup_with_info_bad},
    {"comm_idup_null", "MPI_Comm_idup", MPI_ERR_COMM, "MPI_COMM_NULL", comm_idup_null},
    {"comm_idup_request_null", "MPI_Comm_idup", MPI_ERR_ARG, "request is NULL", comm_idup_request_null},
    {"comm_idup_with_info_bad", "MPI_Comm_idup_with_info", MPI_ERR_INFO, "invalid info", comm_idup_with_info_bad},
    {"comm_create_group_tag", "MPI_Comm_create_group", MPI_ERR_TAG, "tag -7", comm_create_group_tag},
    {"comm_create_group_null", "MPI_Comm_create_group", MPI_ERR_GROUP, "MPI_GROUP_NULL", comm_create_group_null},
    {"comm_split_type_null", "MPI_Comm_split_type", MPI_ERR_COMM, "MPI_COMM_NULL", comm_split_type_null},
    {"comm_split_type_unknown", "MPI_Comm_split_type", MPI_ERR_ARG, "split_type 999", comm_split_type_unknown},
    {"comm_split_type_info", "MPI_Comm_split_type", MPI_ERR_INFO, "invalid info", comm_split_type_info},
    {"comm_split_type_nullptr", "MPI_Comm_split_type", MPI_ERR_ARG, "newcomm is NULL", comm_split_type_nullptr},

    {"group_compare_null", "MPI_Group_compare", MPI_ERR_GROUP, "MPI_GROUP_NULL", group_compare_null},
    {"group_compare_nullptr", "MPI_Group_compare", MPI_ERR_ARG, "result is NULL", group_compare_nullptr},
    {"group_difference_freed", "MPI_Group_difference", MPI_ERR_GROUP, "already freed", group_difference_freed},
    {"group_difference_nullptr", "MPI_Group_difference", MPI_ERR_ARG, "newgroup is NULL", group_difference_nullptr},
    {"group_intersection_null", "MPI_Group_intersection", MPI_ERR_GROUP, "MPI_GROUP_NULL", group_intersection_null},
    {"group_intersection_nullptr", "MPI_Group_intersection", MPI_ERR_ARG, "newgroup is NULL",
     group_intersection_nullptr},
    {"group_union_freed", "MPI_Group_union", MPI_ERR_GROUP, "already freed", group_union_freed},
    {"group_union_nullptr", "MPI_Group_union", MPI_ERR_ARG, "newgroup is NULL", group_union_nullptr},
    {"group_excl_null", "MPI_Group_excl", MPI_ERR_GROUP, "MPI_GROUP_NULL", group_excl_null},
    {"group_excl_rank", "MPI_Group_excl", MPI_ERR_RANK, "ranks[0] = 99", group_excl_rank},
    {"group_excl_twice", "MPI_Group_excl", MPI_ERR_RANK, "rank 0 appears twice", group_excl_twice},
    {"group_excl_count", "MPI_Group_excl", MPI_ERR_ARG, "number of ranks -2", group_excl_count},
    {"group_excl_nullptr", "MPI_Group_excl", MPI_ERR_ARG, "ranks is NULL", group_excl_nullptr},
    {"group_incl_freed", "MPI_Group_incl", MPI_ERR_GROUP, "already freed", group_incl_freed},
    {"group_incl_rank", "MPI_Group_incl", MPI_ERR_RANK, "ranks[0] = -4", group_incl_rank},
    {"group_incl_twice", "MPI_Group_incl", MPI_ERR_RANK, "rank 0 appears twice", group_incl_twice},
    {"group_incl_count", "MPI_Group_incl", MPI_ERR_ARG, "number of ranks -2", group_incl_count},
    {"group_incl_nullptr", "MPI_Group_incl", MPI_ERR_ARG, "newgroup is NULL", group_incl_nullptr},
    {"group_free_null", "MPI_Group_free", MPI_ERR_GROUP, "MPI_GROUP_NULL", group_free_null},
    {"group_free_freed", "MPI_Group_free", MPI_ERR_GROUP, "already freed", group_free_freed},
    {"group_free_nullptr", "MPI_Group_free", MPI_ERR_ARG, "group is NULL", group_free_nullptr},
    {"group_range_excl_null", "MPI_Group_range_excl", MPI_ERR_GROUP, "MPI_GROUP_NULL", group_range_excl_null},
    {"group_range_excl_stride0", "MPI_Group_range_excl", MPI_ERR_ARG, "stride 0", group_range_excl_stride0},
    {"group_range_excl_nullptr", "MPI_Group_range_excl", MPI_ERR_ARG, "ranges is NULL", group_range_excl_nullptr},
    {"group_range_incl_range", "MPI_Group_range_incl", MPI_ERR_ARG, "{0, 77, 1}", group_range_incl_range},
    {"group_range_incl_twice", "MPI_Group_range_incl", MPI_ERR_ARG, "appear twice", group_range_incl_twice},
    {"group_range_incl_count", "MPI_Group_range_incl", MPI_ERR_ARG, "number of ranges -3", group_range_incl_count},
    {"group_rank_null", "MPI_Group_rank", MPI_ERR_GROUP, "MPI_GROUP_NULL", group_rank_null},
    {"group_rank_nullptr", "MPI_Group_rank", MPI_ERR_ARG, "rank is NULL", group_rank_nullptr},
    {"group_size_freed", "MPI_Group_size", MPI_ERR_GROUP, "already freed", group_size_freed},
    {"group_size_nullptr", "MPI_Group_size", MPI_ERR_ARG, "size is NULL", group_size_nullptr},
    {"group_translate_null", "MPI_Group_translate_ranks", MPI_ERR_GROUP, "MPI_GROUP_NULL", group_translate_null},
    {"group_translate_rank", "MPI_Group_translate_ranks", MPI_ERR_RANK, "ranks1[0] = 42", group_translate_rank},
    {"group_translate_count", "MPI_Group_translate_ranks", MPI_ERR_ARG, "number of ranks -3", group_translate_count},
    {"group_translate_nullptr", "MPI_Group_translate_ranks", MPI_ERR_ARG, "ranks2 is NULL", group_translate_nullptr},

    {"create_keyval_nullptr", "MPI_Comm_create_keyval", MPI_ERR_ARG, "comm_keyval is NULL", create_keyval_nullptr},
    {"delete_attr_null", "MPI_Comm_delete_attr", MPI_ERR_COMM, "MPI_COMM_NULL", delete_attr_null},
    {"delete_attr_unknown", "MPI_Comm_delete_attr", MPI_ERR_KEYVAL, "keyval 12345", delete_attr_unknown},
    {"delete_attr_predefined", "MPI_Comm_delete_attr", MPI_ERR_KEYVAL, "MPI_TAG_UB", delete_attr_predefined},
    {"free_keyval_invalid", "MPI_Comm_free_keyval", MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID", free_keyval_invalid},
    {"free_keyval_predefined", "MPI_Comm_free_keyval", MPI_ERR_KEYVAL, "MPI_APPNUM", free_keyval_predefined},
    {"free_keyval_freed", "MPI_Comm_free_keyval", MPI_ERR_KEYVAL, "or freed", free_keyval_freed},
    {"free_keyval_nullptr", "MPI_Comm_free_keyval", MPI_ERR_ARG, "comm_keyval is NULL", free_keyval_nullptr},
    {"get_attr_null", "MPI_Comm_get_attr", MPI_ERR_COMM, "MPI_COMM_NULL", get_attr_null},
    {"get_attr_unknown", "MPI_Comm_get_attr", MPI_ERR_KEYVAL, "keyval 12345", get_attr_unknown},
    {"get_attr_nullptr", "MPI_Comm_get_attr", MPI_ERR_ARG, "flag is NULL", get_attr_nullptr},
    {"set_attr_freed_comm", "MPI_Comm_set_attr", MPI_ERR_COMM, "already freed", set_attr_freed_comm},
    {"set_attr_predefined", "MPI_Comm_set_attr", MPI_ERR_KEYVAL, "MPI_HOST", set_attr_predefined},
    {"set_attr_invalid", "MPI_Comm_set_attr", MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID", set_attr_invalid},
    {"set_attr_freed_keyval", "MPI_Comm_set_attr", MPI_ERR_KEYVAL, "or freed", set_attr_freed_keyval},

    {"get_errhandler_null", "MPI_Comm_get_errhandler", MPI_ERR_COMM, "MPI_COMM_NULL", get_errhandler_null},
    {"get_errhandler_nullptr", "MPI_Comm_get_errhandler", MPI_ERR_ARG, "errhandler is NULL", get_errhandler_nullptr},
    {"set_errhandler_freed", "MPI_Comm_set_errhandler", MPI_ERR_COMM, "already freed", set_errhandler_freed},
    {"set_errhandler_null", "MPI_Comm_set_errhandler", MPI_ERR_ERRHANDLER, "MPI_ERRHANDLER_NULL",
     set_errhandler_null},
    {"errhandler_free_null", "MPI_Errhandler_free", MPI_ERR_ERRHANDLER, "MPI_ERRHANDLER_NULL", errhandler_free_null},
    {"errhandler_free_nullptr", "MPI_Errhandler_free", MPI_ERR_ARG, "errhandler is NULL", errhandler_free_nullptr},
    {"error_class_bad", "MPI_Error_class", MPI_ERR_ARG, "-77 is not an MPI error code", error_class_bad},
    {"error_class_nullptr", "MPI_Error_class", MPI_ERR_ARG, "errorclass is NULL", error_class_nullptr},
    {"error_string_bad", "MPI_Error_string", MPI_ERR_ARG, "99999 is not an MPI error code", error_string_bad},
    {"error_string_nullptr", "MPI_Error_string", MPI_ERR_ARG, "resultlen is NULL", error_string_nullptr},
    {"create_errhandler_nullfn", "MPI_Comm_create_errhandler", MPI_ERR_ARG, "comm_errhandler_fn is NULL",
     create_errhandler_nullfn},
    {"create_errhandler_nullptr", "MPI_Comm_create_errhandler", MPI_ERR_ARG, "errhandler is NULL",
     create_errhandler_nullptr},
    {"call_errhandler_null", "MPI_Comm_call_errhandler", MPI_ERR_COMM, "MPI_COMM_NULL", call_errhandler_null},
    {"set_errhandler_freed_eh", "MPI_Comm_set_errhandler", MPI_ERR_ERRHANDLER, "already freed",
     set_errhandler_freed_eh},
    {"errhandler_create_nullfn", "MPI_Errhandler_create", MPI_ERR_ARG, "function is NULL", errhandler_create_nullfn},
    {"errhandler_set_null", "MPI_Errhandler_set", MPI_ERR_ERRHANDLER, "MPI_ERRHANDLER_NULL", errhandler_set_null},
    {"errhandler_get_nullptr", "MPI_Errhandler_get", MPI_ERR_ARG, "errhandler is NULL", errhandler_get_nullptr},
    {"add_error_class_nullptr", "MPI_Add_error_class", MPI_ERR_ARG, "errorclass is NULL", add_error_class_nullptr},
    {"add_error_code_badclass", "MPI_Add_error_code", MPI_ERR_ARG, "errorclass -5 is not an error class",
     add_error_code_badclass},
    {"add_error_code_nullptr", "MPI_Add_error_code", MPI_ERR_ARG, "errorcode is NULL", add_error_code_nullptr},
    {"add_error_string_predefined", "MPI_Add_error_string", MPI_ERR_ARG, "is one of MPI's own",
     add_error_string_predefined},
    {"add_error_string_toolong", "MPI_Add_error_string", MPI_ERR_ARG, "longer than MPI_MAX_ERROR_STRING",
     add_error_string_toolong},
    {"remove_error_class_predefined", "MPI_Remove_error_class", MPI_ERR_ARG, "is one of MPI's own",
     remove_error_class_predefined},
    {"remove_error_class_codes", "MPI_Remove_error_class", MPI_ERR_ARG, "still has 1 error code",
     remove_error_class_codes},
    {"remove_error_code_class", "MPI_Remove_error_code", MPI_ERR_ARG, "is an added error class",
     remove_error_code_class},
    {"remove_error_code_string", "MPI_Remove_error_code", MPI_ERR_ARG, "still has its string",
     remove_error_code_string},
    {"remove_error_code_unknown", "MPI_Remove_error_code", MPI_ERR_ARG, "was not added", remove_error_code_unknown},
    {"remove_error_string_none", "MPI_Remove_error_string", MPI_ERR_ARG, "has no string", remove_error_string_none},

    {"cart_coords_null", "MPI_Cart_coords", MPI_ERR_COMM, "MPI_COMM_NULL", cart_coords_null},
    {"cart_coords_notopo", "MPI_Cart_coords", MPI_ERR_TOPOLOGY, "no Cartesian topology", cart_coords_notopo},
    {"cart_coords_rank", "MPI_Cart_coords", MPI_ERR_RANK, "invalid rank 99", cart_coords_rank},
    {"cart_coords_maxdims", "MPI_Cart_coords", MPI_ERR_ARG, "maxdims 1", cart_coords_maxdims},
    {"cart_coords_nullptr", "MPI_Cart_coords", MPI_ERR_ARG, "coords is NULL", cart_coords_nullptr},
    {"cart_create_null", "MPI_Cart_create", MPI_ERR_COMM, "MPI_COMM_NULL", cart_create_null},
    {"cart_create_ndims", "MPI_Cart_create", MPI_ERR_ARG, "dimensions -2", cart_create_ndims},
    {"cart_create_dims", "MPI_Cart_create", MPI_ERR_DIMS, "dims[1] = -4", cart_create_dims},
    {"cart_create_big", "MPI_Cart_create", MPI_ERR_ARG, "77 cells", cart_create_big},
    {"cart_create_nullptr", "MPI_Cart_create", MPI_ERR_ARG, "periods is NULL", cart_create_nullptr},
    {"cart_create_out_nullptr", "MPI_Cart_create", MPI_ERR_ARG, "comm_cart is NULL", cart_create_out_nullptr},
    {"cart_get_null", "MPI_Cart_get", MPI_ERR_COMM, "MPI_COMM_NULL", cart_get_null},
    {"cart_get_notopo", "MPI_Cart_get", MPI_ERR_TOPOLOGY, "no Cartesian topology", cart_get_notopo},
    {"cart_get_maxdims", "MPI_Cart_get", MPI_ERR_ARG, "maxdims 1", cart_get_maxdims},
    {"cart_get_nullptr", "MPI_Cart_get", MPI_ERR_ARG, "periods is NULL", cart_get_nullptr},
    {"cart_map_null", "MPI_Cart_map", MPI_ERR_COMM, "MPI_COMM_NULL", cart_map_null},
    {"cart_map_dims", "MPI_Cart_map", MPI_ERR_DIMS, "dims[0] = 0", cart_map_dims},
    {"cart_map_big", "MPI_Cart_map", MPI_ERR_ARG, "77 cells", cart_map_big},
    {"cart_map_nullptr", "MPI_Cart_map", MPI_ERR_ARG, "newrank is NULL", cart_map_nullptr},
    {"cart_rank_freed", "MPI_Cart_rank", MPI_ERR_COMM, "already freed", cart_rank_freed},
    {"cart_rank_notopo", "MPI_Cart_rank", MPI_ERR_TOPOLOGY, "no Cartesian topology", cart_rank_notopo},
    {"cart_rank_coords", "MPI_Cart_rank", MPI_ERR_ARG, "coords[0] = 5", cart_rank_coords},
    {"cart_rank_nullptr", "MPI_Cart_rank", MPI_ERR_ARG, "coords is NULL", cart_rank_nullptr},
    {"cart_shift_null", "MPI_Cart_shift", MPI_ERR_COMM, "MPI_COMM_NULL", cart_shift_null},
    {"cart_shift_notopo", "MPI_Cart_shift", MPI_ERR_TOPOLOGY, "no Cartesian topology", cart_shift_notopo},
    {"cart_shift_direction", "MPI_Cart_shift", MPI_ERR_ARG, "direction 7", cart_shift_direction},
    {"cart_shift_nullptr", "MPI_Cart_shift", MPI_ERR_ARG, "rank_dest is NULL", cart_shift_nullptr},
    {"cart_sub_null", "MPI_Cart_sub", MPI_ERR_COMM, "MPI_COMM_NULL", cart_sub_null},
    {"cart_sub_notopo", "MPI_Cart_sub", MPI_ERR_TOPOLOGY, "no Cartesian topology", cart_sub_notopo},
    {"cart_sub_nullptr", "MPI_Cart_sub", MPI_ERR_ARG, "remain_dims is NULL", cart_sub_nullptr},
    {"cartdim_get_null", "MPI_Cartdim_get", MPI_ERR_COMM, "MPI_COMM_NULL", cartdim_get_null},
    {"cartdim_get_notopo", "MPI_Cartdim_get", MPI_ERR_TOPOLOGY, "no Cartesian topology", cartdim_get_notopo},
    {"cartdim_get_nullptr", "MPI_Cartdim_get", MPI_ERR_ARG, "ndims is NULL", cartdim_get_nullptr},
    {"dims_create_ndims", "MPI_Dims_create", MPI_ERR_DIMS, "dimensions -3", dims_create_ndims},
    {"dims_create_nnodes", "MPI_Dims_create", MPI_ERR_ARG, "nodes -6", dims_create_nnodes},
    {"dims_create_negative", "MPI_Dims_create", MPI_ERR_DIMS, "dims[0] = -2", dims_create_negative},
    {"dims_create_indivisible", "MPI_Dims_create", MPI_ERR_DIMS, "6 nodes cannot fill", dims_create_indivisible},
    {"dims_create_nullptr", "MPI_Dims_create", MPI_ERR_ARG, "dims is NULL", dims_create_nullptr},
    {"topo_test_null", "MPI_Topo_test", MPI_ERR_COMM, "MPI_COMM_NULL", topo_test_null},
    {"topo_test_nullptr", "MPI_Topo_test", MPI_ERR_ARG, "status is NULL", topo_test_nullptr},
    {0},
};
