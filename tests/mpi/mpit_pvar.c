/* MPI_T performance variables through sessions: every variable gets a handle, is read, started and
 * stopped when it may be; MPI_T_PVAR_ALL_HANDLES starts and stops them all; a handle belongs to its
 * session; freeing a session frees its handles.
 *
 * Under skiff (is_skiff) the variables themselves are checked too: skiff_recv_msgs moves by at least
 * the messages a ring sends while its handle is started and not at all while stopped, reset, readreset
 * and write set what a handle shows, the unexpected queue's counter, length and high-water mark see
 * messages that came before their receives (np >= 2), and continuous variables refuse start, stop,
 * write and reset. The generic part passes under MPICH 4.0 and Open MPI 4.1. */
#include "testutil.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMSG 20
#define TAG_RING 7
#define TAG_EARLY 8

static int is_skiff;

/* Every variable bound to nothing or to a communicator gets a handle in session s. */
static int handle_all(MPI_T_pvar_session s, MPI_T_pvar_handle *hs, int n)
{
    static MPI_Comm world;
    world = MPI_COMM_WORLD;
    int got = 0;
    for (int i = 0; i < n; i++) {
        int bind, cont, ro, count, cls, verbosity, atomic, nl = 256, dl = 0;
        char name[256];
        MPI_Datatype dt;
        MPI_T_enum et;
        hs[i] = MPI_T_PVAR_HANDLE_NULL;
        /* Open MPI 4.1 refuses NULL for outputs MPI-4 lets one skip: every one is asked for. */
        int rc = MPI_T_pvar_get_info(i, name, &nl, &verbosity, &cls, &dt, &et, NULL, &dl, &bind, &ro, &cont,
                                     &atomic);
        if (rc != MPI_SUCCESS && !is_skiff) /* Open MPI 4.1 leaves holes (variables no longer there) */
            continue;
        CHECK_MPI(rc);
        if (bind != MPI_T_BIND_NO_OBJECT && bind != MPI_T_BIND_MPI_COMM)
            continue;
        if (strstr(name, "psm2")) /* Open MPI 4.1 crashes allocating these when psm2 is not in use */
            continue;
        if (MPI_T_pvar_handle_alloc(s, i, bind == MPI_T_BIND_NO_OBJECT ? NULL : &world, &hs[i], &count) !=
            MPI_SUCCESS) {
            CHECK_MSG(!is_skiff, "pvar %d: no handle", i);
            hs[i] = MPI_T_PVAR_HANDLE_NULL;
            continue;
        }
        got++;
        CHECK(count >= 1);
        char *buf = tu_malloc((size_t)count * 32);
        CHECK_MPI(MPI_T_pvar_read(s, hs[i], buf));
        free(buf);
        if (!cont) {
            CHECK_MPI(MPI_T_pvar_start(s, hs[i]));
            CHECK_MPI(MPI_T_pvar_stop(s, hs[i]));
        } else if (is_skiff) {
            CHECK_EQ(MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_pvar_start(s, hs[i]));
            CHECK_EQ(MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_pvar_stop(s, hs[i]));
        }
        if (ro && is_skiff) {
            unsigned long long v = 0;
            CHECK_EQ(MPI_T_ERR_PVAR_NO_WRITE, MPI_T_pvar_write(s, hs[i], &v));
            CHECK_EQ(MPI_T_ERR_PVAR_NO_WRITE, MPI_T_pvar_reset(s, hs[i]));
        }
    }
    return got;
}

static void generic(void)
{
    int n;
    MPI_T_pvar_session s, s2;
    CHECK_MPI(MPI_T_pvar_get_num(&n));
    CHECK_MPI(MPI_T_pvar_session_create(&s));
    CHECK_MPI(MPI_T_pvar_session_create(&s2));
    MPI_T_pvar_handle *hs = tu_malloc(sizeof *hs * (size_t)(n + 1));
    int got = handle_all(s, hs, n);
    CHECK_MPI(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_MPI(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    char buf[64];
    CHECK_NE(MPI_SUCCESS, MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, buf));
    for (int i = 0; i < n; i++) {
        if (hs[i] == MPI_T_PVAR_HANDLE_NULL)
            continue;
        if (is_skiff) /* a handle is used with the session that made it */
            CHECK_EQ(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_read(s2, hs[i], buf));
        if (i % 2 == 0) { /* half freed one by one, the rest with their session */
            CHECK_MPI(MPI_T_pvar_handle_free(s, &hs[i]));
            CHECK(hs[i] == MPI_T_PVAR_HANDLE_NULL);
        }
    }
    MPI_T_pvar_session gone = s;
    CHECK_MPI(MPI_T_pvar_session_free(&s));
    CHECK(s == MPI_T_PVAR_SESSION_NULL);
    if (is_skiff) {
        CHECK_EQ(MPI_T_ERR_INVALID_SESSION, MPI_T_pvar_session_free(&gone));
        for (int i = 1; i < n; i += 2) /* went with their session */
            CHECK_EQ(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_read(s2, hs[i], buf));
        CHECK_EQ(MPI_T_ERR_INVALID_SESSION, MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, NULL, hs, &n));
        CHECK_EQ(MPI_T_ERR_INVALID_INDEX, MPI_T_pvar_handle_alloc(s2, n, NULL, hs, &n));
    }
    CHECK_MPI(MPI_T_pvar_session_free(&s2));
    free(hs);
    if (tu_rank() == 0)
        printf("mpit_pvar: %d performance variables, %d with handles\n", n, got);
}

static MPI_T_pvar_handle handle_for(MPI_T_pvar_session s, const char *name, int cls)
{
    int index, count;
    MPI_T_pvar_handle h;
    CHECK_MPI(MPI_T_pvar_get_index(name, cls, &index));
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, index, NULL, &h, &count));
    CHECK_EQ(1, count);
    return h;
}

static unsigned long long readv(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ull;
    CHECK_MPI(MPI_T_pvar_read(s, h, &v));
    return v;
}

static void ring(int n)
{
    int rank = tu_rank(), size = tu_size(), out = rank, in;
    for (int k = 0; k < n; k++)
        CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, TAG_RING, &in, 1, MPI_INT,
                               (rank + size - 1) % size, TAG_RING, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* skiff_recv_msgs counts while started, not while stopped; reset, readreset and write. */
static void skiff_counter(MPI_T_pvar_session s)
{
    MPI_T_pvar_handle h = handle_for(s, "skiff_recv_msgs", MPI_T_PVAR_CLASS_COUNTER);
    CHECK_EQ(0, readv(s, h)); /* a counter starts stopped at 0 */
    ring(NMSG);
    CHECK_EQ(0, readv(s, h));
    /* Started before a barrier and stopped after one: every rank counts while all the ring's
     * messages arrive, plus a few of the barriers'. */
    CHECK_MPI(MPI_T_pvar_start(s, h));
    tu_barrier();
    ring(NMSG);
    tu_barrier();
    CHECK_MPI(MPI_T_pvar_stop(s, h));
    unsigned long long v = readv(s, h);
    CHECK_GE(NMSG, v);
    CHECK_LE(NMSG + 4 * tu_size(), v);
    ring(NMSG);
    tu_barrier();
    CHECK_EQ(v, readv(s, h));
    CHECK_MPI(MPI_T_pvar_start(s, h)); /* it goes on from where it stopped */
    tu_barrier();
    ring(NMSG);
    unsigned long long got = 0;
    CHECK_MPI(MPI_T_pvar_readreset(s, h, &got));
    CHECK_GE(v + NMSG, got);
    CHECK_EQ(0, readv(s, h)); /* no MPI call in between: nothing arrived */
    CHECK_MPI(MPI_T_pvar_stop(s, h));
    CHECK_MPI(MPI_T_pvar_reset(s, h));
    CHECK_EQ(0, readv(s, h));
    unsigned long long w = 1000;
    CHECK_MPI(MPI_T_pvar_write(s, h, &w));
    CHECK_EQ(1000, readv(s, h));
    CHECK_EQ(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_write(s, MPI_T_PVAR_ALL_HANDLES, &w));
    CHECK_EQ(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_readreset(s, MPI_T_PVAR_ALL_HANDLES, &w));
    CHECK_MPI(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES)); /* read-only ones are skipped */
    CHECK_EQ(0, readv(s, h));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &h));
}

/* Every handle of the session counts over one ring of NMSG messages, between barriers. */
static void measure_ring(MPI_T_pvar_session s)
{
    CHECK_MPI(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    tu_barrier();
    ring(NMSG);
    tu_barrier();
    CHECK_MPI(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
}

/* With every pair on tcp (the _tcp_ variants) the ring's bytes go through sockets and none through
 * shared memory; on one node with shared memory, the other way round. */
static void skiff_tcp(MPI_T_pvar_session s)
{
    const char *tr = getenv("SKIFF_TRANSPORTS");
    int all_tcp = tr && strcmp(tr, "tcp") == 0, size = tu_size();
    MPI_T_pvar_handle sent = handle_for(s, "skiff_tcp_sent_bytes", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle recv = handle_for(s, "skiff_tcp_recv_bytes", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle fbox_sent = handle_for(s, "skiff_shm_fbox_sent_bytes", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle fbox_recv = handle_for(s, "skiff_shm_fbox_recv_bytes", MPI_T_PVAR_CLASS_COUNTER);
    measure_ring(s);
    if (all_tcp && size >= 2) {
        CHECK_GE(NMSG * sizeof(int), readv(s, sent));
        CHECK_GE(NMSG * sizeof(int), readv(s, recv));
        CHECK_EQ(0, readv(s, fbox_sent));
    } else if (!tr && size >= 2 && size <= 4) { /* mpiexec's ranks share this node: small ones in fast boxes */
        CHECK_EQ(0, readv(s, sent));
        CHECK_EQ(0, readv(s, recv));
        CHECK_GE(NMSG * sizeof(int), readv(s, fbox_sent));
        CHECK_GE(NMSG * sizeof(int), readv(s, fbox_recv));
    }
    CHECK_MPI(MPI_T_pvar_handle_free(s, &sent));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &recv));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &fbox_sent));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &fbox_recv));
}

/* With every pair on ucx (the _ucx_ twins, tests/ucx.cmake) the ring's bytes go through UCX and none
 * through tcp or shared memory; elsewhere ucx carries nothing. A skiff built without UCX has no such
 * counters. */
static void skiff_ucx(MPI_T_pvar_session s)
{
    const char *tr = getenv("SKIFF_TRANSPORTS");
    int index, all_ucx = tr && strcmp(tr, "ucx") == 0, size = tu_size();
    if (MPI_T_pvar_get_index("skiff_ucx_sent_bytes", MPI_T_PVAR_CLASS_COUNTER, &index) != MPI_SUCCESS) {
        CHECK_MSG(!all_ucx, "SKIFF_TRANSPORTS=ucx but no skiff_ucx_sent_bytes counter");
        return;
    }
    MPI_T_pvar_handle sent = handle_for(s, "skiff_ucx_sent_bytes", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle recv = handle_for(s, "skiff_ucx_recv_bytes", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle tcp = handle_for(s, "skiff_tcp_sent_bytes", MPI_T_PVAR_CLASS_COUNTER);
    measure_ring(s);
    if (all_ucx && size >= 2) {
        CHECK_GE(NMSG * (64 + sizeof(int)), readv(s, sent));
        CHECK_GE(NMSG * (64 + sizeof(int)), readv(s, recv));
        CHECK_EQ(0, readv(s, tcp));
    } else if (!tr || strstr(tr, "ucx") == NULL) {
        CHECK_EQ(0, readv(s, sent));
        CHECK_EQ(0, readv(s, recv));
    }
    CHECK_MPI(MPI_T_pvar_handle_free(s, &sent));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &recv));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &tcp));
}

/* Rank 1 sends before rank 0 posts its receives: they wait in rank 0's unexpected queue. */
static void skiff_unexpected(MPI_T_pvar_session s)
{
    int rank = tu_rank();
    MPI_T_pvar_handle cnt = handle_for(s, "skiff_unexp_msgs", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle len = handle_for(s, "skiff_unexp_queued", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_pvar_handle hwm = handle_for(s, "skiff_unexp_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK);
    CHECK_MPI(MPI_T_pvar_start(s, cnt));
    if (rank == 1)
        for (int k = 0; k < 5; k++)
            CHECK_MPI(MPI_Send(&k, 1, MPI_INT, 0, TAG_EARLY, MPI_COMM_WORLD));
    tu_barrier(); /* rank 1's barrier message comes after its five */
    if (rank == 0) {
        CHECK_GE(5, readv(s, len));
        CHECK_GE(5, readv(s, hwm));
        CHECK_GE(5, readv(s, cnt));
        for (int k = 0; k < 5; k++) {
            int x;
            CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 1, TAG_EARLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_EQ(k, x);
        }
        CHECK_GE(5, readv(s, hwm)); /* the mark stays */
    }
    CHECK_MPI(MPI_T_pvar_handle_free(s, &cnt));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &len));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &hwm));
}

/* Collectives show which way they ran: a barrier of the whole job on one node takes the shared counter,
 * a nonblocking one a message schedule (even alone: a schedule of no steps). */
static void skiff_collectives(MPI_T_pvar_session s)
{
    MPI_T_pvar_handle sched = handle_for(s, "skiff_coll_scheds", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle node = handle_for(s, "skiff_coll_node_barriers", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES);
    MPI_Request req;
    for (int k = 0; k < 3; k++) {
        CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES);
    CHECK_GE(3, readv(s, sched));
    const char *tr = getenv("SKIFF_TRANSPORTS");
    if (!tr && tu_size() >= 2 && tu_size() <= 4) /* one node, shared memory */
        CHECK_EQ(3, readv(s, node));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &sched));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &node));
}

static void skiff_thread_level(MPI_T_pvar_session s)
{
    int provided, level = -1;
    MPI_T_enum et;
    int index;
    MPI_Query_thread(&provided);
    MPI_T_pvar_handle h = handle_for(s, "skiff_thread_level", MPI_T_PVAR_CLASS_STATE);
    CHECK_MPI(MPI_T_pvar_read(s, h, &level));
    CHECK_EQ(provided, level);
    CHECK_MPI(MPI_T_pvar_get_index("skiff_thread_level", MPI_T_PVAR_CLASS_STATE, &index));
    int nl = 0, dl = 0, verbosity, cls, bind, ro, cont, atomic;
    MPI_Datatype dt;
    CHECK_MPI(MPI_T_pvar_get_info(index, NULL, &nl, &verbosity, &cls, &dt, &et, NULL, &dl, &bind, &ro, &cont,
                                  &atomic));
    int num, found = 0;
    CHECK_MPI(MPI_T_enum_get_info(et, &num, NULL, NULL));
    for (int k = 0; k < num; k++) {
        int value, nl = 64;
        char name[64];
        CHECK_MPI(MPI_T_enum_get_item(et, k, &value, name, &nl));
        found += value == level && strncmp(name, "MPI_THREAD_", 11) == 0;
    }
    CHECK_EQ(1, found);
    CHECK_MPI(MPI_T_pvar_handle_free(s, &h));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init(&argc, &argv));
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int vlen;
    CHECK_MPI(MPI_Get_library_version(version, &vlen));
    is_skiff = strstr(version, "skiff") != NULL;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    generic();
    if (is_skiff) {
        MPI_T_pvar_session s;
        CHECK_MPI(MPI_T_pvar_session_create(&s));
        skiff_counter(s);
        skiff_tcp(s);
        skiff_ucx(s);
        if (tu_size() >= 2)
            skiff_unexpected(s);
        skiff_collectives(s);
        skiff_thread_level(s);
        CHECK_MPI(MPI_T_pvar_session_free(&s));
    }
    CHECK_MPI(MPI_T_finalize());
    CHECK_MPI(MPI_Finalize());
    return 0;
}
