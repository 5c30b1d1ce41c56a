/* The MPI tool information interface, everything but performance variable sessions (mpit_pvar.c):
 * MPI_T opened before MPI_Init and again after MPI_Finalize, nested MPI_T_init_thread/MPI_T_finalize,
 * every control variable described, found by name and read, every performance variable, category and
 * enumeration described, the event sources and their clocks, event types (skiff has none), and the
 * error codes for indices, names and handles that are not valid.
 *
 * The checks hold for any MPI library; where the standard leaves room, skiff's own answers are checked
 * only under skiff (is_skiff): its names, scopes, the one clock source, and the codes for a handle used
 * after MPI_T was finalized. MPICH 4.0 passes it as is; Open MPI 4.1 (MPI 3.1) has no events, so those
 * checks are compiled for MPI >= 4 only. */
#include "testutil.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_skiff;

#define CHECK_T(expected, call) CHECK_EQ((expected), (call))
/* The standard's code under skiff; any error elsewhere (MPICH 4.0 answers some with other codes). */
#define CHECK_T_ERR(expected, call)                                                                      \
    do {                                                                                                 \
        int r_ = (call);                                                                                 \
        CHECK_MSG(is_skiff ? r_ == (expected) : r_ != MPI_SUCCESS, "%s: expected %d, got %d", #call,       \
                  (int)(expected), r_);                                                                  \
    } while (0)

/* A name or description: the length query (len 0) and the text agree. */
static void check_len(const char *what, int i, const char *text, int len_query, int len)
{
    CHECK_MSG(len == len_query && (int)strlen(text) + 1 == len, "%s %d: \"%s\": length %d, query said %d", what,
              i, text, len, len_query);
}

static void *obj_for(int bind)
{
    static MPI_Comm world;
    world = MPI_COMM_WORLD;
    return bind == MPI_T_BIND_NO_OBJECT ? NULL : bind == MPI_T_BIND_MPI_COMM ? (void *)&world : (void *)-1;
}

static void check_enum(MPI_T_enum e)
{
    if (e == MPI_T_ENUM_NULL)
        return;
    int num = -1, len = 256;
    char name[256];
    CHECK_MPI(MPI_T_enum_get_info(e, &num, name, &len));
    CHECK_GE(1, num);
    for (int k = 0; k < num; k++) {
        int value, ilen = 256;
        char item[256];
        CHECK_MPI(MPI_T_enum_get_item(e, k, &value, item, &ilen));
        CHECK(ilen >= 1);
    }
    int value, ilen = 256;
    char item[256];
    int rc = MPI_T_enum_get_item(e, num, &value, item, &ilen);
    CHECK_MSG(rc == MPI_T_ERR_INVALID_INDEX || rc == MPI_T_ERR_INVALID_ITEM, "enum item %d of %d: rc %d", num,
              num, rc);
}

/* Every control variable: described, found again by its name, read (when read is 1) if it binds to
 * nothing or to a communicator. Returns how many there are. */
static int walk_cvars(int read)
{
    int n = -1;
    CHECK_MPI(MPI_T_cvar_get_num(&n));
    CHECK_GE(0, n);
    for (int i = 0; i < n; i++) {
        char name[1024], desc[4096];
        int qn = 0, qd = 0, nl = sizeof name, dl = sizeof desc, verbosity, bind, scope, count, index = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        /* Open MPI 4.1 leaves holes (indices of variables no longer there): skipped elsewhere. */
        if (MPI_T_cvar_get_info(i, NULL, &qn, NULL, NULL, NULL, NULL, &qd, NULL, NULL) != MPI_SUCCESS && !is_skiff)
            continue;
        CHECK_MPI(MPI_T_cvar_get_info(i, name, &nl, &verbosity, &dt, &et, desc, &dl, &bind, &scope));
        check_len("cvar", i, name, qn, nl);
        if (qd > 0 && qd <= (int)sizeof desc)
            check_len("cvar desc", i, desc, qd, dl);
        CHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ);
        CHECK_MPI(MPI_T_cvar_get_index(name, &index));
        CHECK_EQ(i, index);
        check_enum(et);
        void *obj = obj_for(bind);
        if (obj == (void *)-1 || !read)
            continue;
        MPI_T_cvar_handle h;
        if (MPI_T_cvar_handle_alloc(i, obj, &h, &count) != MPI_SUCCESS) {
            CHECK_MSG(!is_skiff, "cvar %s: no handle", name);
            continue;
        }
        CHECK(count >= 1);
        char *buf = tu_malloc((size_t)count * 16);
        int rc = MPI_T_cvar_read(h, buf);
        CHECK_MSG(rc == MPI_SUCCESS || !is_skiff, "cvar %s: read gave %d", name, rc); /* Open MPI 4.1: holes */
        if (is_skiff) {
            CHECK(dt == MPI_CHAR && (int)strlen(buf) < count);
            CHECK_EQ(MPI_T_SCOPE_READONLY, scope);
            CHECK_EQ(MPI_T_ERR_CVAR_SET_NEVER, MPI_T_cvar_write(h, buf));
        }
        free(buf);
        CHECK_MPI(MPI_T_cvar_handle_free(&h));
        CHECK(h == MPI_T_CVAR_HANDLE_NULL);
    }
    return n;
}

static void walk_pvars(void)
{
    int n = -1, found = 0;
    CHECK_MPI(MPI_T_pvar_get_num(&n));
    CHECK_GE(0, n);
    for (int i = 0; i < n; i++) {
        char name[1024], desc[4096];
        int qn = 0, nl = sizeof name, dl = sizeof desc, verbosity, cls, bind, ro, cont, atomic, index = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        if (MPI_T_pvar_get_info(i, NULL, &qn, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) !=
                MPI_SUCCESS &&
            !is_skiff) /* a hole, or Open MPI 4.1 refusing NULL outputs */
            continue;
        CHECK_MPI(
            MPI_T_pvar_get_info(i, name, &nl, &verbosity, &cls, &dt, &et, desc, &dl, &bind, &ro, &cont, &atomic));
        check_len("pvar", i, name, qn, nl);
        CHECK(cls >= MPI_T_PVAR_CLASS_STATE && cls <= MPI_T_PVAR_CLASS_GENERIC);
        CHECK_MPI(MPI_T_pvar_get_index(name, cls, &index));
        CHECK_EQ(i, index); /* (name, class) names one variable */
        check_enum(et);
        found += strncmp(name, "skiff_", 6) == 0;
        if (is_skiff && strcmp(name, "skiff_thread_level") == 0) {
            CHECK(dt == MPI_INT && et != MPI_T_ENUM_NULL && cont && ro);
            CHECK_EQ(MPI_T_PVAR_CLASS_STATE, cls);
        }
    }
    if (is_skiff)
        CHECK_GE(10, found);
}

/* Every category: its members are valid indices of their kind. */
static void walk_categories(int ncvars)
{
    int n = -1, npvars, stamp = -1, stamp2 = -1;
    CHECK_MPI(MPI_T_category_get_num(&n));
    CHECK_MPI(MPI_T_pvar_get_num(&npvars));
    CHECK_MPI(MPI_T_category_changed(&stamp));
    int cvars_seen = 0;
    for (int i = 0; i < n; i++) {
        char name[1024], desc[4096];
        int nl = sizeof name, dl = sizeof desc, nc, np, ncat, index = -1;
        int rc = MPI_T_category_get_info(i, name, &nl, desc, &dl, &nc, &np, &ncat);
        if (rc != MPI_SUCCESS && !is_skiff) /* Open MPI 4.1: a hole */
            continue;
        CHECK_MPI(rc);
        CHECK_MPI(MPI_T_category_get_index(name, &index));
        CHECK_EQ(i, index);
        int *idx = tu_malloc(sizeof(int) * (size_t)(nc + np + ncat + 1));
        CHECK_MPI(MPI_T_category_get_cvars(i, nc, idx));
        for (int k = 0; k < nc; k++)
            CHECK(idx[k] >= 0 && idx[k] < ncvars);
        cvars_seen += nc;
        CHECK_MPI(MPI_T_category_get_pvars(i, np, idx));
        for (int k = 0; k < np; k++)
            CHECK(idx[k] >= 0 && idx[k] < npvars);
        CHECK_MPI(MPI_T_category_get_categories(i, ncat, idx));
        for (int k = 0; k < ncat; k++)
            CHECK(idx[k] >= 0 && idx[k] < n);
#if MPI_VERSION >= 4
        int nev = -1;
        CHECK_MPI(MPI_T_category_get_num_events(i, &nev));
        CHECK_GE(0, nev);
#endif
        free(idx);
    }
    CHECK_MPI(MPI_T_category_changed(&stamp2));
    CHECK_EQ(stamp, stamp2); /* nothing was loaded in between */
    if (is_skiff) {
        CHECK_EQ(ncvars, cvars_seen); /* every cvar is in exactly one category */
        CHECK_GE(5, n);
    }
}

static void check_bad_indices(int ncvars)
{
    int npvars, ncats, x, len = 0;
    MPI_T_cvar_handle ch;
    CHECK_MPI(MPI_T_pvar_get_num(&npvars));
    CHECK_MPI(MPI_T_category_get_num(&ncats));
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_cvar_get_info(ncvars, NULL, &len, NULL, NULL, NULL, NULL, &len, NULL,
                                                         NULL));
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_cvar_get_info(-1, NULL, &len, NULL, NULL, NULL, NULL, &len, NULL, NULL));
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_cvar_handle_alloc(ncvars, NULL, &ch, &x));
    if (is_skiff || npvars > 0) /* MPICH 4.0 built with no pvars crashes here */
        CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_pvar_get_info(npvars, NULL, &len, NULL, NULL, NULL, NULL, NULL,
                                                             &len, NULL, NULL, NULL, NULL));
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_info(ncats, NULL, &len, NULL, &len, &x, &x, &x));
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_cvars(ncats, 0, &x));
    CHECK_T_ERR(MPI_T_ERR_INVALID_NAME, MPI_T_cvar_get_index("no_such_variable_anywhere", &x));
    CHECK_T_ERR(MPI_T_ERR_INVALID_NAME, MPI_T_pvar_get_index("no_such_variable_anywhere", MPI_T_PVAR_CLASS_COUNTER, &x));
    CHECK_T_ERR(MPI_T_ERR_INVALID_NAME, MPI_T_category_get_index("no_such_category_anywhere", &x));
    if (is_skiff) {
        int value;
        CHECK_T(MPI_T_ERR_INVALID_HANDLE, MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &value));
        CHECK_T(MPI_T_ERR_INVALID_HANDLE, MPI_T_enum_get_info(MPI_T_ENUM_NULL, &x, NULL, &len));
#if MPI_VERSION >= 4
        CHECK_T(MPI_T_ERR_INVALID_INDEX, MPI_T_category_get_num_events(ncats, &x));
#endif
    }
}

#if MPI_VERSION >= 4
/* Sources: each described, its clock never runs backwards. Events: an index past the last is refused. */
static void check_sources_events(void)
{
    int ns = -1, ne = -1, len = 0, x;
    CHECK_MPI(MPI_T_source_get_num(&ns));
    CHECK_GE(0, ns);
    for (int i = 0; i < ns; i++) {
        char name[256];
        int nl = sizeof name;
        MPI_T_source_order order;
        MPI_Count tps = 0, max = 0, t1 = 0, t2 = 0;
        MPI_Info info = MPI_INFO_NULL;
        CHECK_MPI(MPI_T_source_get_info(i, name, &nl, NULL, &len, &order, &tps, &max, &info));
        if (info != MPI_INFO_NULL)
            MPI_Info_free(&info);
        CHECK(order == MPI_T_SOURCE_ORDERED || order == MPI_T_SOURCE_UNORDERED);
        CHECK_GE(1, tps);
        if (MPI_T_source_get_timestamp(i, &t1) != MPI_SUCCESS) /* a source may have no timestamps */
            continue;
        CHECK_MPI(MPI_T_source_get_timestamp(i, &t2));
        if (order == MPI_T_SOURCE_ORDERED)
            CHECK_GE(t1, t2);
        if (is_skiff) {
            CHECK_EQ(0, strcmp(name, "skiff_clock"));
            CHECK_EQ(1000000000, tps);
        }
    }
    MPI_Count ts;
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_source_get_info(ns, NULL, &len, NULL, &len, NULL, NULL, NULL, NULL));
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_source_get_timestamp(ns, &ts));
    CHECK_MPI(MPI_T_event_get_num(&ne));
    CHECK_GE(0, ne);
    MPI_T_event_registration reg;
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_event_get_info(ne, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                                          &len, NULL));
    CHECK_T_ERR(MPI_T_ERR_INVALID_INDEX, MPI_T_event_handle_alloc(ne, NULL, MPI_INFO_NULL, &reg));
    CHECK_T_ERR(MPI_T_ERR_INVALID_NAME, MPI_T_event_get_index("no_such_event_anywhere", &x));
    if (is_skiff) {
        /* No event types: no registration or instance can exist, so any given is refused. */
        MPI_T_event_registration fake = (MPI_T_event_registration)&x;
        MPI_Info used;
        CHECK_EQ(0, ne);
        CHECK_EQ(1, ns);
        CHECK_T(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_get_info(fake, &used));
        CHECK_T(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_handle_free(fake, NULL, NULL));
        CHECK_T(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_read((MPI_T_event_instance)&x, 0, &x));
        CHECK_T(MPI_T_ERR_INVALID_HANDLE, MPI_T_event_get_timestamp((MPI_T_event_instance)&x, &ts));
    }
}
#endif

static int open_t(void)
{
    int provided = -1;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    if (is_skiff) /* Open MPI 4.1 answers with a value of its own */
        CHECK_EQ(MPI_THREAD_SINGLE, provided);
    return provided;
}

int main(int argc, char **argv)
{
    /* Before MPI_Init: the settings can be read already. */
    open_t();
    int ncvars = walk_cvars(1);

    CHECK_MPI(MPI_Init(&argc, &argv));
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int vlen;
    CHECK_MPI(MPI_Get_library_version(version, &vlen));
    is_skiff = strstr(version, "skiff") != NULL;

    /* Nested: a second open needs a second close. */
    open_t();
    /* Open MPI 4.1 crashes reading some of its variables after MPI_Init (opal_common_ucx_verbose) */
    int now = walk_cvars(is_skiff);
    CHECK_GE(ncvars, now); /* variables may appear (Open MPI's do at MPI_Init), never go */
    ncvars = now;
    CHECK_MPI(MPI_T_finalize());
    walk_pvars();
    walk_categories(ncvars);
    check_bad_indices(ncvars);
#if MPI_VERSION >= 4
    check_sources_events();
#endif
    CHECK_MPI(MPI_T_finalize());
    int n;
    if (is_skiff)
        CHECK_T(MPI_T_ERR_NOT_INITIALIZED, MPI_T_cvar_get_num(&n));

    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int rank = tu_rank();
    CHECK_MPI(MPI_Finalize());

    /* After MPI_Finalize MPI_T may open again and still describes the same variables (MPICH 4.0
     * crashes in MPI_T_cvar_get_num there: checked under skiff only). */
    if (is_skiff) {
        open_t();
        CHECK_MPI(MPI_T_cvar_get_num(&n));
        CHECK_EQ(ncvars, n);
        CHECK_MPI(MPI_T_finalize());
    }
    if (rank == 0)
        printf("mpit_vars: %d control variables checked\n", ncvars);
    return 0;
}
