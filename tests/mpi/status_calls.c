/* Statuses and requests looked at without being completed (issue 15 §6): MPI_Status_set_* / get_*
 * (MPI-4.1), MPI_Request_get_status_any / all / some (MPI-4.1) on a ring of real messages, status
 * conversions to and from Fortran 2008 statuses, MPI_Pcontrol (accepted at every level), the MPI-1
 * attribute calls and MPI-5's MPI_Abi_get_version / MPI_Abi_get_info (also from a second thread).
 *
 * Also builds with MPICH 4.0 and Open MPI 4.1, which lack the MPI-4.1 status and request calls and the
 * MPI-5 ABI calls: those parts are guarded by MPI_VERSION / MPI_SUBVERSION (MPICH 4.0 says 4.0, Open MPI
 * 4.1 says 3.1). The MPI-1 attribute calls are deprecated there (warnings silenced for -Werror). MPICH
 * keeps the Fortran 2008 status conversions in its Fortran library: build with `mpicc.mpich ...
 * -lmpichfort`. */
#include "testutil.h"

#include <pthread.h>

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#define HAVE_MPI_4_1 (MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1))

static void status_fields(void)
{
#if HAVE_MPI_4_1
    MPI_Status st;
    int v = 0, flag = 1;
    CHECK_MPI(MPI_Status_set_source(&st, 3));
    CHECK_MPI(MPI_Status_set_tag(&st, 77));
    CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
    CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
    CHECK_EQ(3, st.MPI_SOURCE);
    CHECK_EQ(77, st.MPI_TAG);
    CHECK_EQ(MPI_ERR_TRUNCATE, st.MPI_ERROR);
    CHECK_MPI(MPI_Status_get_source(&st, &v));
    CHECK_EQ(3, v);
    CHECK_MPI(MPI_Status_get_tag(&st, &v));
    CHECK_EQ(77, v);
    CHECK_MPI(MPI_Status_get_error(&st, &v));
    CHECK_EQ(MPI_ERR_TRUNCATE, v);
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(1, flag);
    /* Setting one field leaves the others, the hidden ones too. */
    CHECK_MPI(MPI_Status_set_tag(&st, 78));
    CHECK_EQ(3, st.MPI_SOURCE);
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(1, flag);
#endif
}

/* A status that went through Fortran 77 and Fortran 2008 forms answers as the original did. */
static void f08_round_trip(const MPI_Status *orig, int count)
{
#if MPI_VERSION >= 4
    MPI_F08_status f08;
    MPI_Fint f77[MPI_F_STATUS_SIZE];
    MPI_Status back;
    int n = -1;
    CHECK_MPI(MPI_Status_c2f08(orig, &f08));
    CHECK_EQ(orig->MPI_SOURCE, f08.MPI_SOURCE);
    CHECK_EQ(orig->MPI_TAG, f08.MPI_TAG);
#if !defined(MPICH_VERSION) /* MPICH 4.0 has no MPI_Status_f082f / MPI_Status_f2f08 */
    CHECK_MPI(MPI_Status_f082f(&f08, f77));
    CHECK_EQ(orig->MPI_SOURCE, f77[MPI_F_SOURCE]);
    CHECK_EQ(orig->MPI_TAG, f77[MPI_F_TAG]);
    memset(&f08, 0, sizeof f08);
    CHECK_MPI(MPI_Status_f2f08(f77, &f08));
#else
    (void)f77;
#endif
    memset(&back, 0, sizeof back);
    CHECK_MPI(MPI_Status_f082c(&f08, &back));
    CHECK_EQ(orig->MPI_SOURCE, back.MPI_SOURCE);
    CHECK_EQ(orig->MPI_TAG, back.MPI_TAG);
    CHECK_MPI(MPI_Get_count(&back, MPI_INT, &n));
    CHECK_EQ(count, n);
#else
    (void)orig;
    (void)count;
#endif
}

#define RING_TAG 21
#define N 4 /* ints per message */

/* Rank r receives N ints from r-1 (its value is the sender's rank + i) and sends to r+1; the statuses are
 * read with the get_status calls while the requests stay, then completed by Waitall. */
static void ring(int rank, int size)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        out[i] = rank * 100 + i;
    MPI_Request req[3];
    req[0] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Irecv(in, N, MPI_INT, left, RING_TAG, MPI_COMM_WORLD, &req[1]));
    CHECK_MPI(MPI_Isend(out, N, MPI_INT, right, RING_TAG, MPI_COMM_WORLD, &req[2]));
#if HAVE_MPI_4_1
    int flag = 0, indx = -5, polls = 0;
    MPI_Status st[3];
    unsigned pause = 0;
    /* get_status_all leaves the requests alone: poll until both are done. */
    while (!flag) {
        CHECK_MPI(MPI_Request_get_status_all(3, req, &flag, st));
        if (!flag)
            tu_poll_pause(&pause);
        polls++;
    }
    CHECK_EQ(left, st[1].MPI_SOURCE);
    CHECK_EQ(RING_TAG, st[1].MPI_TAG);
    CHECK_EQ(MPI_ANY_SOURCE, st[0].MPI_SOURCE); /* MPI_REQUEST_NULL: an empty status */
    CHECK_EQ(MPI_ANY_TAG, st[0].MPI_TAG);
    CHECK(req[1] != MPI_REQUEST_NULL && req[2] != MPI_REQUEST_NULL);
    /* Now every call finds completed requests, again and again. */
    MPI_Status one;
    CHECK_MPI(MPI_Request_get_status_any(3, req, &indx, &flag, &one));
    CHECK_EQ(1, flag);
    CHECK(indx == 1 || indx == 2);
    if (indx == 1)
        CHECK_EQ(left, one.MPI_SOURCE);
    int outcount = -1, idx[3];
    CHECK_MPI(MPI_Request_get_status_some(3, req, &outcount, idx, st));
    CHECK_EQ(2, outcount);
    CHECK_EQ(1, idx[0]);
    CHECK_EQ(2, idx[1]);
    CHECK_EQ(left, st[0].MPI_SOURCE);
    int n = -1;
    CHECK_MPI(MPI_Get_count(&st[0], MPI_INT, &n));
    CHECK_EQ(N, n);
    /* A request listed twice is fine here: nothing is freed. */
    MPI_Request twice[2] = {req[1], req[1]};
    CHECK_MPI(MPI_Request_get_status_all(2, twice, &flag, MPI_STATUSES_IGNORE));
    CHECK_EQ(1, flag);
    /* Only null requests: flag set, no index, outcount MPI_UNDEFINED. */
    CHECK_MPI(MPI_Request_get_status_any(1, req, &indx, &flag, &one));
    CHECK_EQ(1, flag);
    CHECK_EQ(MPI_UNDEFINED, indx);
    CHECK_MPI(MPI_Request_get_status_some(1, req, &outcount, idx, st));
    CHECK_EQ(MPI_UNDEFINED, outcount);
    CHECK_MPI(MPI_Request_get_status_any(0, NULL, &indx, &flag, &one));
    CHECK_EQ(MPI_UNDEFINED, indx);
#endif
    MPI_Status fin[3];
    CHECK_MPI(MPI_Waitall(3, req, fin));
    CHECK_STATUS(fin[1], left, RING_TAG, N * (int)sizeof(int));
    for (int i = 0; i < N; i++)
        CHECK_EQ(left * 100 + i, in[i]);
    f08_round_trip(&fin[1], N);
}

static int copies, deletes;
static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int delete_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

/* The MPI-1 names: keyvals with MPI_Copy_function callbacks, attributes copied by MPI_Comm_dup. */
static void mpi1_attributes(void)
{
    int key = MPI_KEYVAL_INVALID, flag = 0, value = 42, *got = NULL;
    CHECK_MPI(MPI_Keyval_create(copy_fn, delete_fn, &key, NULL));
    CHECK(key != MPI_KEYVAL_INVALID);
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Attr_put(dup, key, &value));
    CHECK_MPI(MPI_Attr_get(dup, key, &got, &flag));
    CHECK_EQ(1, flag);
    CHECK(got == &value);
    MPI_Comm dup2;
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK_EQ(1, copies);
    CHECK_MPI(MPI_Comm_get_attr(dup2, key, &got, &flag)); /* the MPI-2 call sees the same attribute */
    CHECK_EQ(1, flag);
    CHECK(got == &value);
    CHECK_MPI(MPI_Attr_delete(dup, key));
    CHECK_EQ(1, deletes);
    CHECK_MPI(MPI_Attr_get(dup, key, &got, &flag));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_EQ(2, deletes);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Keyval_free(&key));
    CHECK_EQ(MPI_KEYVAL_INVALID, key);
    /* The predefined attributes, through the old name. */
    int *tag_ub = NULL;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK_EQ(1, flag);
    CHECK_GE(32767, *tag_ub);
    /* MPI_DUP_FN and MPI_NULL_DELETE_FN. */
    int k2 = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k2, NULL));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k2, &value));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Attr_get(dup, k2, &got, &flag));
    CHECK_EQ(1, flag);
    CHECK(got == &value);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k2));
    CHECK_MPI(MPI_Keyval_free(&k2));
}

#if MPI_VERSION >= 5
/* MPI-5.0 makes MPI_Abi_get_version and MPI_Abi_get_info thread-safe at any time: a second thread calls
 * them while this one makes and frees info objects of its own and talks to its neighbours. */
struct abi_thread {
    int major, minor, rounds;
    MPI_Info infos[16];
};

static void *abi_worker(void *arg)
{
    struct abi_thread *a = arg;
    for (int i = 0; i < a->rounds; i++) {
        MPI_Abi_get_version(&a->major, &a->minor);
        MPI_Abi_get_info(&a->infos[i]);
    }
    return NULL;
}

static void abi_threads(int rank, int size)
{
    struct abi_thread a = {-1, -1, 16, {MPI_INFO_NULL}};
    pthread_t t;
    CHECK_EQ(0, pthread_create(&t, NULL, abi_worker, &a));
    for (int i = 0; i < 16; i++) {
        MPI_Info mine;
        int v = rank, got = -1;
        CHECK_MPI(MPI_Info_create(&mine));
        CHECK_MPI(MPI_Info_set(mine, "k", "v"));
        CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT, (rank + size - 1) % size, 5,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ((rank + size - 1) % size, got);
        CHECK_MPI(MPI_Info_free(&mine));
    }
    CHECK_EQ(0, pthread_join(t, NULL));
    CHECK_EQ(MPI_ABI_VERSION, a.major);
    CHECK_EQ(MPI_ABI_SUBVERSION, a.minor);
    for (int i = 0; i < 16; i++) {
        char v[MPI_MAX_INFO_VAL];
        int len = (int)sizeof v, flag = 0;
        CHECK_MPI(MPI_Info_get_string(a.infos[i], "mpi_count_size", &len, v, &flag));
        CHECK_EQ(1, flag);
        CHECK_EQ(sizeof(MPI_Count), atoi(v));
        CHECK_MPI(MPI_Info_free(&a.infos[i]));
    }
}
#endif

static void abi(int rank, int size)
{
#if MPI_VERSION >= 5
    abi_threads(rank, size);
    int major = -1, minor = -1, flag = 0;
    CHECK_MPI(MPI_Abi_get_version(&major, &minor));
    CHECK_EQ(MPI_ABI_VERSION, major);
    CHECK_EQ(MPI_ABI_SUBVERSION, minor);
    MPI_Info info = MPI_INFO_NULL;
    CHECK_MPI(MPI_Abi_get_info(&info));
    char v[MPI_MAX_INFO_VAL];
    int len = (int)sizeof v;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_aint_size", &len, v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(sizeof(MPI_Aint), atoi(v));
    len = (int)sizeof v;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_count_size", &len, v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(sizeof(MPI_Count), atoi(v));
    len = (int)sizeof v;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_offset_size", &len, v, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(sizeof(MPI_Offset), atoi(v));
    CHECK_MPI(MPI_Info_free(&info));
#else
    (void)rank;
    (void)size;
#endif
}

int main(int argc, char **argv)
{
#if MPI_VERSION >= 5
    int major = -1, minor = -1;
    CHECK_MPI(MPI_Abi_get_version(&major, &minor)); /* allowed before MPI_Init */
    CHECK_EQ(MPI_ABI_VERSION, major);
#endif
    tu_init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    status_fields();
    ring(rank, size);
    mpi1_attributes();
    abi(rank, size);
    /* Without a profiler every level is accepted and does nothing. */
    for (int level = 0; level <= 3; level++)
        CHECK_MPI(MPI_Pcontrol(level));
    CHECK_MPI(MPI_Pcontrol(1));
    return tu_finish("status_calls");
}
