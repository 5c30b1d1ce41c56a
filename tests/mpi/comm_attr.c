/* comm_attr — communicator names and attribute caching.
 *   - names: MPI_COMM_WORLD / MPI_COMM_SELF by default, set/get round trip, renaming, truncation to
 *     MPI_MAX_OBJECT_NAME - 1 characters, a new communicator has the empty name;
 *   - predefined attributes on MPI_COMM_WORLD: MPI_TAG_UB >= 32767 (and usable as a tag),
 *     MPI_WTIME_IS_GLOBAL is 0 or 1, MPI_UNIVERSE_SIZE (if present) >= size, MPI_APPNUM;
 *   - user keyvals: get before set (flag 0), set/get, overwrite (delete callback sees the old value),
 *     delete_attr, MPI_Comm_dup with MPI_COMM_DUP_FN / MPI_COMM_NULL_COPY_FN / a counting callback
 *     (and one that declines to copy), MPI_Comm_free runs the delete callbacks, a keyval freed while
 *     still attached keeps its callbacks until the attribute goes;
 *   - a failing copy callback fails MPI_Comm_dup, a failing delete callback fails MPI_Comm_free;
 *   - MPI_Finalize runs the delete callbacks of MPI_COMM_SELF's attributes, last set first.
 */
#include "testutil.h"

#define NAME "comm_attr"

static int deletes, copies, last_deleted;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    CHECK(extra == &deletes);
    deletes++;
    last_deleted = (int)(intptr_t)value;
    return MPI_SUCCESS;
}

/* Copies odd values plus 100, declines even ones. */
static int odd_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    copies++;
    intptr_t v = (intptr_t)in;
    *flag = (int)(v % 2);
    if (*flag)
        *(void **)out = (void *)(v + 100);
    return MPI_SUCCESS;
}

static void names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK_MSG(strcmp(name, "MPI_COMM_WORLD") == 0, "world is called \"%s\"", name);
    CHECK_EQ(strlen(name), len);
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    CHECK_MSG(strcmp(name, "MPI_COMM_SELF") == 0, "self is called \"%s\"", name);

    MPI_Comm c;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c));
    CHECK_MPI(MPI_Comm_get_name(c, name, &len));
    CHECK_EQ(0, len);
    CHECK_MPI(MPI_Comm_set_name(c, "ocean"));
    CHECK_MPI(MPI_Comm_get_name(c, name, &len));
    CHECK_MSG(strcmp(name, "ocean") == 0, "got \"%s\"", name);
    CHECK_EQ(5, len);
    CHECK_MPI(MPI_Comm_set_name(c, "atmosphere"));
    CHECK_MPI(MPI_Comm_get_name(c, name, &len));
    CHECK_MSG(strcmp(name, "atmosphere") == 0, "got \"%s\"", name);

    char longname[2 * MPI_MAX_OBJECT_NAME];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK_MPI(MPI_Comm_set_name(c, longname));
    CHECK_MPI(MPI_Comm_get_name(c, name, &len));
    CHECK_LE(MPI_MAX_OBJECT_NAME - 1, len);
    CHECK_EQ(strlen(name), len);
    CHECK_MPI(MPI_Comm_free(&c));
}

static void predefined(int size)
{
    void *v = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    CHECK_EQ(1, flag);
    int tag_ub = *(int *)v;
    CHECK_GE(32767, tag_ub);
    int x = 42, got = 0, rank = tu_rank();
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, rank, tag_ub, &got, 1, MPI_INT, rank, tag_ub, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK_EQ(42, got);

    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag));
    if (flag)
        CHECK(*(int *)v == 0 || *(int *)v == 1);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag));
    if (flag)
        CHECK_GE(size, *(int *)v);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &v, &flag));
    if (flag)
        CHECK_EQ(0, *(int *)v);
#ifdef SKIFF_MPI
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(size, *(int *)v);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(0, *(int *)v);
#endif
}

static void user_keyvals(void)
{
    int kdup, knull, kodd;
    void *v = NULL;
    int flag = -1;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &kdup, &deletes));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(odd_copy, count_delete, &kodd, &deletes));
    CHECK(kdup != knull && knull != kodd && kdup != kodd);

    MPI_Comm c, d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_get_attr(c, kdup, &v, &flag));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Comm_set_attr(c, kdup, (void *)(intptr_t)7));
    CHECK_MPI(MPI_Comm_set_attr(c, knull, (void *)(intptr_t)8));
    CHECK_MPI(MPI_Comm_set_attr(c, kodd, (void *)(intptr_t)9));
    CHECK_MPI(MPI_Comm_get_attr(c, kdup, &v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(7, (intptr_t)v);

    /* Overwriting runs the delete callback on the old value. */
    deletes = 0;
    CHECK_MPI(MPI_Comm_set_attr(c, kdup, (void *)(intptr_t)11));
    CHECK_EQ(1, deletes);
    CHECK_EQ(7, last_deleted);

    copies = 0;
    CHECK_MPI(MPI_Comm_dup(c, &d));
    CHECK_EQ(1, copies);
    CHECK_MPI(MPI_Comm_get_attr(d, kdup, &v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(11, (intptr_t)v);
    CHECK_MPI(MPI_Comm_get_attr(d, knull, &v, &flag));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Comm_get_attr(d, kodd, &v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(109, (intptr_t)v);

    /* An even value is not copied. */
    CHECK_MPI(MPI_Comm_set_attr(c, kodd, (void *)(intptr_t)10));
    MPI_Comm e;
    CHECK_MPI(MPI_Comm_dup(c, &e));
    CHECK_MPI(MPI_Comm_get_attr(e, kodd, &v, &flag));
    CHECK_EQ(0, flag);
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&e)); /* holds kdup only */
    CHECK_EQ(1, deletes);

    deletes = 0;
    CHECK_MPI(MPI_Comm_delete_attr(c, kodd));
    CHECK_EQ(1, deletes);
    CHECK_EQ(10, last_deleted);
    CHECK_MPI(MPI_Comm_get_attr(c, kodd, &v, &flag));
    CHECK_EQ(0, flag);

    /* Freeing a keyval in use: its attributes keep their callbacks. */
    CHECK_MPI(MPI_Comm_free_keyval(&kdup));
    CHECK_EQ(MPI_KEYVAL_INVALID, kdup);
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&c)); /* kdup (11); knull has no callback */
    CHECK_EQ(1, deletes);
    CHECK_EQ(11, last_deleted);
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&d)); /* kdup (11) and kodd (109) */
    CHECK_EQ(2, deletes);

    CHECK_MPI(MPI_Comm_free_keyval(&knull));
    CHECK_MPI(MPI_Comm_free_keyval(&kodd));
    CHECK_EQ(MPI_KEYVAL_INVALID, knull);

    /* Attributes on the predefined communicators. */
    int k;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k, &deletes));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)(intptr_t)5));
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, k, &v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(5, (intptr_t)v);
    deletes = 0;
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k));
    CHECK_EQ(1, deletes);
    CHECK_MPI(MPI_Comm_free_keyval(&k));
}

/* Callbacks that fail while `refuse` is set. */
static int refuse;

static int picky_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    *flag = 1;
    *(void **)out = in;
    return refuse ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int picky_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    return refuse ? MPI_ERR_OTHER : MPI_SUCCESS;
}

/* A failing copy callback fails MPI_Comm_dup; a failing delete callback fails MPI_Comm_free and
 * leaves the communicator usable. */
static void failing_callbacks(void)
{
    int k, cls = -1, rank = tu_rank(), got = -1;
    MPI_Comm c, d = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create_keyval(picky_copy, picky_delete, &k, NULL));
    /* MPICH raises a failing MPI_Comm_free on MPI_COMM_WORLD: make every handler return. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Comm_set_attr(c, k, (void *)(intptr_t)3));
    refuse = 1;
    int rc = MPI_Comm_dup(c, &d);
    CHECK_NE(MPI_SUCCESS, rc);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK_EQ(MPI_ERR_OTHER, cls);
    rc = MPI_Comm_free(&c);
    CHECK_NE(MPI_SUCCESS, rc);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK_EQ(MPI_ERR_OTHER, cls);
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, rank, 0, &got, 1, MPI_INT, rank, 0, c, MPI_STATUS_IGNORE));
    CHECK_EQ(rank, got);
    refuse = 0;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
}

/* MPI_Finalize frees MPI_COMM_SELF first: its attributes' delete callbacks run, last set first. */
static int finalize_order[2], finalize_calls;

static int at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    if (finalize_calls < 2)
        finalize_order[finalize_calls] = (int)(intptr_t)value;
    finalize_calls++;
    return MPI_SUCCESS;
}

static void hook_finalize(void)
{
    int k1, k2;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &k1, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &k2, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void *)(intptr_t)1));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)(intptr_t)2));
    CHECK_MPI(MPI_Comm_free_keyval(&k1));
    CHECK_MPI(MPI_Comm_free_keyval(&k2));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    names();
    predefined(tu_size());
    user_keyvals();
    failing_callbacks();
    hook_finalize();
    tu_barrier();
    int rank = tu_rank();
    CHECK_MPI(MPI_Finalize());
    CHECK_EQ(2, finalize_calls);
    CHECK_EQ(2, finalize_order[0]);
    CHECK_EQ(1, finalize_order[1]);
    if (rank == 0)
        printf("OK %s\n", NAME);
    return 0;
}
