/* MPI_THREAD_MULTIPLE (issue 19): every rank runs NT threads that call MPI at once. One program, one
 * mode per run (argv[1]), each a CTest test labelled "threads" (tests/threads.cmake):
 *
 *   pairs      each thread exchanges with the same thread of the partner rank, all on MPI_COMM_WORLD
 *              (told apart by tag), blocking and nonblocking;
 *   comms      the same, each thread on a communicator of its own;
 *   anysrc     every thread of rank 0 receives MPI_ANY_SOURCE / MPI_ANY_TAG while every thread of every
 *              other rank sends: each message is received exactly once;
 *   mprobe     the same through MPI_Mprobe / MPI_Improbe + MPI_Mrecv, sizes read from the status;
 *   waitany    requests posted by every thread, completed by one thread with MPI_Waitany and another with
 *              MPI_Testsome, while the posting threads send;
 *   coll       each thread dups and splits its own communicator, runs collectives on it and frees it;
 *   inter      each thread makes intercommunicators (create between the even and odd ranks of its own
 *              communicator, merge, dup, split) and runs a collective on each;
 *   objects    datatype, info, group, keyval and attribute create/free storms;
 *   rma        each thread locks, puts, accumulates and gets on a window of its own;
 *   tools      MPI_T variable queries and pvar sessions from every thread while messages flow (MPI_T is
 *              initialized once, by the main thread: MPICH 4.0 crashes on MPI_T_init_thread from threads);
 *   relay      one token passed along every thread of every rank in turn (to the next thread of the same
 *              rank by a send to itself, from a rank's last thread to the next rank's first), so all but
 *              one thread of each rank wait idle in MPI_Recv: what completes a thread's receive is another
 *              thread's send (within the rank) or a pass of whichever thread progresses (between ranks),
 *              and either must wake it. A wake-up lost would cost the waiter its doze's full timeout per
 *              hop, and the test its timeout;
 *   order      every thread of every rank but 0 sends rank 0 a numbered stream with MPI_Send, sizes mixed
 *              so that some messages take shm's direct path (no library lock), some a cell or a rendezvous
 *              (under it) and some wait behind a full fast box; thread t of rank 0 receives the stream
 *              of thread t of each rank, by exact source and tag, and checks that none overtook another;
 *   window     thread t of each pair of ranks streams windows of 64 MPI_Isends to thread t of the partner
 *              on a communicator of its own, ended by MPI_Waitall or by MPI_Testall polls (a message-rate
 *              loop: on skiff, sends that leave at once end without the library lock); sizes mixed so that
 *              some sends are complete at once and some are not (cells, rendezvous); the partner's thread
 *              checks every message; the direction turns each window;
 *   soak       a mix of all of the above for a fixed number of rounds (also run under skiff's profiler
 *              and tracer, whose per-call state a waiting thread sets aside).
 *
 * Every wait is for a message or a collective, never for time. Validated with MPICH 4 and Open MPI 4.1
 * (both grant MULTIPLE), and with skiff over shared memory and tcp. */
#include "testutil.h"

#include <pthread.h>
#include <stdatomic.h>

#define NT 4
#define TAG_BASE 100

static int rank, size, partner;
static MPI_Comm tcomm[NT];
static int rounds = 200;

typedef void mode_fn(int t);

/* ---------------------------------------------------------------- point to point */

static void exchange(MPI_Comm comm, int t, int tag, int iters)
{
    if (partner == MPI_PROC_NULL)
        return;
    for (int i = 0; i < iters; i++) {
        int out[4] = {rank, t, i, tag}, in[4] = {-1, -1, -1, -1};
        if ((i & 1) == 0) {
            CHECK_MPI(MPI_Sendrecv(out, 4, MPI_INT, partner, tag, in, 4, MPI_INT, partner, tag, comm,
                                   MPI_STATUS_IGNORE));
        } else {
            MPI_Request r[2];
            CHECK_MPI(MPI_Irecv(in, 4, MPI_INT, partner, tag, comm, &r[0]));
            CHECK_MPI(MPI_Isend(out, 4, MPI_INT, partner, tag, comm, &r[1]));
            CHECK_MPI(MPI_Waitall(2, r, TU_STATUSES_IGNORE));
        }
        CHECK_EQ(partner, in[0]);
        CHECK_EQ(t, in[1]);
        CHECK_EQ(i, in[2]);
        CHECK_EQ(tag, in[3]);
    }
}

static void mode_pairs(int t)
{
    exchange(MPI_COMM_WORLD, t, TAG_BASE + t, rounds);
}

static void mode_comms(int t)
{
    exchange(tcomm[t], t, TAG_BASE, rounds); /* one tag: only the communicator keeps threads apart */
}

/* Rank 0's threads receive from anyone what every other rank's threads send: msgs per sender thread. */
static atomic_int seen[64][NT];
static atomic_int received;

static int total_msgs(int msgs)
{
    return (size - 1) * NT * msgs;
}

static void note(int src, int tag, int t_from, int seq, int msgs)
{
    CHECK(src >= 1 && src < size && src < 64);
    CHECK(t_from >= 0 && t_from < NT);
    CHECK_EQ(TAG_BASE + t_from, tag);
    CHECK(seq >= 0 && seq < msgs);
    atomic_fetch_add(&seen[src][t_from], 1);
}

static void senders(int t, int msgs, int varied)
{
    int buf[64];
    for (int i = 0; i < msgs; i++) {
        int n = varied ? 2 + (i + t) % 60 : 2;
        buf[0] = t;
        buf[1] = i;
        for (int k = 2; k < n; k++)
            buf[k] = rank * 1000 + k;
        CHECK_MPI(MPI_Send(buf, n, MPI_INT, 0, TAG_BASE + t, MPI_COMM_WORLD));
    }
}

/* Each receiving thread takes a fixed share, so every thread ends without having to be told. */
static int my_share(int t, int msgs)
{
    int total = total_msgs(msgs);
    return total / NT + (t < total % NT);
}

static void mode_anysrc(int t)
{
    int msgs = rounds;
    if (rank != 0) {
        senders(t, msgs, 0);
        return;
    }
    for (int i = 0, n = my_share(t, msgs); i < n; i++) {
        int buf[2];
        MPI_Status st;
        CHECK_MPI(MPI_Recv(buf, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        note(st.MPI_SOURCE, st.MPI_TAG, buf[0], buf[1], msgs);
        atomic_fetch_add(&received, 1);
    }
}

/* Sizes in ints of message i of an ordered stream: mostly small, every 5th a few KB, every 13th past the
 * eager limits (a rendezvous). */
static int order_len(int i)
{
    return i % 13 == 0 ? 40000 : i % 5 == 0 ? 1000 : 2 + i % 30;
}

static void mode_order(int t)
{
    int msgs = rounds, *buf = malloc(40000 * sizeof *buf);
    CHECK(buf != NULL);
    if (rank != 0) {
        for (int i = 0; i < msgs; i++) {
            int n = order_len(i);
            for (int k = 0; k < n; k++)
                buf[k] = i + k;
            CHECK_MPI(MPI_Send(buf, n, MPI_INT, 0, TAG_BASE + t, MPI_COMM_WORLD));
        }
    } else {
        for (int i = 0; i < msgs; i++)
            for (int r = 1; r < size; r++) {
                MPI_Status st;
                int n = -1;
                CHECK_MPI(MPI_Recv(buf, 40000, MPI_INT, r, TAG_BASE + t, MPI_COMM_WORLD, &st));
                CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
                CHECK_EQ(order_len(i), n);
                CHECK_EQ(i, buf[0]); /* the i-th message of that thread, none overtaken */
                CHECK_EQ(i + n - 1, buf[n - 1]);
            }
    }
    free(buf);
}

#define WIN 64

/* Every fourth window only small messages, which all leave at once as long as the fast box has room. */
static int win_len(int w, int i)
{
    return w % 4 == 3 ? 1 + i % 4 : i % 31 == 5 ? 20000 : i % 9 == 0 ? 600 : 1 + i % 4;
}

static void mode_window(int t)
{
    if (partner == MPI_PROC_NULL)
        return;
    int off[WIN + 1] = {0};
    for (int i = 0; i < WIN; i++)
        off[i + 1] = off[i] + win_len(0, i);
    int *buf = malloc((size_t)off[WIN] * sizeof *buf);
    CHECK(buf != NULL);
    for (int w = 0; w < rounds / 10; w++) {
        int sending = (w & 1) == (rank < partner);
        MPI_Request r[WIN];
        for (int i = 0; i < WIN; i++) {
            int *m = buf + off[i];
            if (sending) {
                for (int k = 0; k < win_len(w, i); k++)
                    m[k] = w * 100000 + i * 100 + k;
                CHECK_MPI(MPI_Isend(m, win_len(w, i), MPI_INT, partner, i, tcomm[t], &r[i]));
            } else {
                m[0] = -1;
                CHECK_MPI(MPI_Irecv(m, win_len(w, i), MPI_INT, partner, i, tcomm[t], &r[i]));
            }
        }
        if (w % 3 == 2) {
            int flag = 0;
            unsigned polls = 0;
            while (!flag) {
                CHECK_MPI(MPI_Testall(WIN, r, &flag, TU_STATUSES_IGNORE));
                if (!flag)
                    tu_poll_pause(&polls);
            }
        } else {
            CHECK_MPI(MPI_Waitall(WIN, r, TU_STATUSES_IGNORE));
        }
        for (int i = 0; i < WIN; i++) {
            CHECK(r[i] == MPI_REQUEST_NULL);
            int n = win_len(w, i) - 1, *m = buf + off[i];
            if (!sending) {
                CHECK_EQ(w * 100000 + i * 100, m[0]);
                CHECK_EQ(w * 100000 + i * 100 + n, m[n]);
            }
        }
    }
    free(buf);
}

static void mode_mprobe(int t)
{
    int msgs = rounds;
    if (rank != 0) {
        senders(t, msgs, 1);
        return;
    }
    for (int i = 0, n = my_share(t, msgs); i < n; i++) {
        MPI_Message m;
        MPI_Status st;
        if (i & 1) {
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st));
        } else {
            CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &m, &st));
        }
        int count = -1, buf[64];
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count >= 2 && count <= 62);
        CHECK_MPI(MPI_Mrecv(buf, count, MPI_INT, &m, MPI_STATUS_IGNORE));
        CHECK_EQ(2 + (buf[1] + buf[0]) % 60, count);
        for (int k = 2; k < count; k++)
            CHECK_EQ(st.MPI_SOURCE * 1000 + k, buf[k]);
        note(st.MPI_SOURCE, st.MPI_TAG, buf[0], buf[1], msgs);
        atomic_fetch_add(&received, 1);
    }
}

/* ---------------------------------------------------------------- completion of others' requests */

#define PER_THREAD 16
static MPI_Request reqs[NT * PER_THREAD];
static int inbox[NT * PER_THREAD];
static pthread_barrier_t posted, drained;

static void mode_waitany(int t)
{
    int n = NT * PER_THREAD, half = n / 2;
    for (int round = 0; round < rounds / 20 + 1; round++) {
        for (int k = 0; k < PER_THREAD; k++) {
            int slot = t * PER_THREAD + k;
            inbox[slot] = -1;
            CHECK_MPI(MPI_Irecv(&inbox[slot], 1, MPI_INT, partner == MPI_PROC_NULL ? MPI_PROC_NULL : partner,
                                TAG_BASE + slot, MPI_COMM_WORLD, &reqs[slot]));
        }
        pthread_barrier_wait(&posted);
        /* Every thread sends its share; thread 0 completes the first half with Waitany, thread 1 the
         * second with Testsome: requests another thread posted, matched while yet others send. */
        for (int k = 0; k < PER_THREAD && partner != MPI_PROC_NULL; k++) {
            int slot = t * PER_THREAD + k, v = round * 1000 + slot;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, TAG_BASE + slot, MPI_COMM_WORLD));
        }
        if (t == 0) {
            for (int done = 0; done < half; done++) {
                int idx = -1;
                CHECK_MPI(MPI_Waitany(half, reqs, &idx, MPI_STATUS_IGNORE));
                CHECK(idx >= 0 && idx < half);
            }
        } else if (t == 1) {
            int done = 0, out = 0, idx[NT * PER_THREAD];
            while (done < n - half) {
                CHECK_MPI(MPI_Testsome(n - half, reqs + half, &out, idx, TU_STATUSES_IGNORE));
                CHECK(out != MPI_UNDEFINED);
                done += out;
            }
        }
        pthread_barrier_wait(&drained);
        for (int k = 0; k < PER_THREAD; k++) {
            int slot = t * PER_THREAD + k;
            CHECK(reqs[slot] == MPI_REQUEST_NULL);
            if (partner != MPI_PROC_NULL)
                CHECK_EQ(round * 1000 + slot, inbox[slot]);
        }
        pthread_barrier_wait(&posted); /* nobody reposts before everyone has checked */
    }
}

/* ---------------------------------------------------------------- communicators and collectives */

static void coll_round(MPI_Comm base, int t, int i)
{
    MPI_Comm dup, half;
    int csize, crank;
    CHECK_MPI(MPI_Comm_dup(base, &dup));
    CHECK_MPI(MPI_Comm_size(dup, &csize));
    int v = rank + t + i, sum = -1;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK_EQ(csize * (csize - 1) / 2 + csize * (t + i), sum);
    CHECK_MPI(MPI_Comm_split(dup, rank % 2, -rank, &half));
    CHECK_MPI(MPI_Comm_rank(half, &crank));
    int root_val = crank == 0 ? 1000 * t + i : -1;
    CHECK_MPI(MPI_Bcast(&root_val, 1, MPI_INT, 0, half));
    CHECK_EQ(1000 * t + i, root_val);
    CHECK_MPI(MPI_Barrier(half));
    int all[64];
    CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, dup));
    for (int r = 0; r < csize && r < 64; r++)
        CHECK_EQ(r, all[r]);
    MPI_Request rq;
    CHECK_MPI(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_MAX, half, &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&dup));
}

static void mode_coll(int t)
{
    for (int i = 0; i < rounds / 10 + 1; i++)
        coll_round(tcomm[t], t, i);
}

static void inter_round(int t, int i)
{
    MPI_Comm half, inter, merged, dup, split;
    CHECK_MPI(MPI_Comm_split(tcomm[t], rank % 2, rank, &half));
    /* The leaders: rank 0 (even half) and rank 1 (odd half) of tcomm[t]; the tag is the thread's. */
    CHECK_MPI(MPI_Intercomm_create(half, 0, tcomm[t], rank % 2 ? 0 : 1, TAG_BASE + t, &inter));
    int rsize = -1;
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK_EQ(rank % 2 ? (size + 1) / 2 : size / 2, rsize);
    CHECK_MPI(MPI_Intercomm_merge(inter, rank % 2, &merged));
    int v = 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK_EQ(size, sum);
    CHECK_MPI(MPI_Comm_dup(inter, &dup));
    int x = rank + i, got = -1;
    /* Over an intercommunicator, allreduce gives the reduction of the remote group's values. */
    CHECK_MPI(MPI_Allreduce(&x, &got, 1, MPI_INT, MPI_MAX, dup));
    int top_remote = -1;
    for (int r = 0; r < size; r++)
        if (r % 2 != rank % 2)
            top_remote = r;
    CHECK_EQ(top_remote + i, got);
    CHECK_MPI(MPI_Comm_split(inter, 0, rank, &split));
    CHECK_MPI(MPI_Barrier(split));
    CHECK_MPI(MPI_Comm_free(&split));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
}

static void mode_inter(int t)
{
    for (int i = 0; i < rounds / 20 + 1; i++)
        inter_round(t, i);
}

/* ---------------------------------------------------------------- object storms */

static int delete_calls_ok(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c;
    (void)key;
    (void)extra;
    free(val);
    return MPI_SUCCESS;
}

static void objects_round(int t, int i)
{
    MPI_Datatype vec, idx, st, res;
    CHECK_MPI(MPI_Type_vector(3 + t, 2, 4, MPI_INT, &vec));
    int lens[3] = {1, 2, 3}, disps[3] = {0, 4, 9};
    CHECK_MPI(MPI_Type_indexed(3, lens, disps, MPI_DOUBLE, &idx));
    int blens[2] = {1, 1};
    MPI_Aint sdisps[2] = {0, 64};
    MPI_Datatype types[2] = {vec, idx};
    CHECK_MPI(MPI_Type_create_struct(2, blens, sdisps, types, &st));
    CHECK_MPI(MPI_Type_create_resized(st, 0, 1024, &res));
    CHECK_MPI(MPI_Type_commit(&res));
    int sz = -1;
    CHECK_MPI(MPI_Type_size(res, &sz));
    CHECK_EQ((3 + t) * 2 * 4 + 6 * 8, sz);
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(res, &lb, &ext));
    CHECK_EQ(1024, (int)ext);
    MPI_Type_free(&res);
    MPI_Type_free(&st);
    MPI_Type_free(&idx);
    MPI_Type_free(&vec);

    MPI_Info info;
    char key[32], val[32], got[32];
    int flag = 0;
    CHECK_MPI(MPI_Info_create(&info));
    snprintf(key, sizeof key, "k%d", t);
    snprintf(val, sizeof val, "%d", i);
    CHECK_MPI(MPI_Info_set(info, key, val));
#if MPI_VERSION >= 4
    int vlen = (int)sizeof got;
    CHECK_MPI(MPI_Info_get_string(info, key, &vlen, got, &flag));
#else
    CHECK_MPI(MPI_Info_get(info, key, (int)sizeof got - 1, got, &flag));
#endif
    CHECK(flag && strcmp(got, val) == 0);
    CHECK_MPI(MPI_Info_free(&info));

    MPI_Group world, g;
    int one = rank, gs = -1;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_incl(world, 1, &one, &g));
    CHECK_MPI(MPI_Group_size(g, &gs));
    CHECK_EQ(1, gs);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_free(&world));

    int kv;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_calls_ok, &kv, NULL));
    int *p = malloc(sizeof *p);
    *p = t * 100 + i;
    CHECK_MPI(MPI_Comm_set_attr(tcomm[t], kv, p));
    int *q = NULL;
    CHECK_MPI(MPI_Comm_get_attr(tcomm[t], kv, &q, &flag));
    CHECK(flag && q == p);
    CHECK_MPI(MPI_Comm_delete_attr(tcomm[t], kv));
    CHECK_MPI(MPI_Comm_free_keyval(&kv));
}

static void mode_objects(int t)
{
    for (int i = 0; i < rounds; i++)
        objects_round(t, i);
}

/* ---------------------------------------------------------------- one-sided */

static MPI_Win win[NT];
static int *winmem[NT];
#define WIN_INTS 8

static void mode_rma(int t)
{
    int target = partner == MPI_PROC_NULL ? rank : partner;
    for (int i = 0; i < rounds / 4 + 1; i++) {
        int v = 1000 * t + i, one = 1, back = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win[t]));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, target, 1 + rank % 2, 1, MPI_INT, win[t]));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_SUM, win[t]));
        CHECK_MPI(MPI_Win_flush(target, win[t]));
        CHECK_MPI(MPI_Get(&back, 1, MPI_INT, target, 1 + rank % 2, 1, MPI_INT, win[t]));
        CHECK_MPI(MPI_Win_unlock(target, win[t]));
        CHECK_EQ(v, back);
    }
}

static void rma_setup(void)
{
    for (int t = 0; t < NT; t++)
        CHECK_MPI(MPI_Win_allocate(WIN_INTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &winmem[t],
                                   &win[t]));
    for (int t = 0; t < NT; t++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win[t]));
        memset(winmem[t], 0, WIN_INTS * sizeof(int));
        CHECK_MPI(MPI_Win_unlock(rank, win[t]));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void rma_check(void)
{
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* Who targets this rank: its partner, or itself without one (odd size: the last rank). */
    int from = partner == MPI_PROC_NULL ? rank : partner;
    for (int t = 0; t < NT; t++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win[t]));
        CHECK_EQ(rounds / 4 + 1, winmem[t][0]);
        CHECK_EQ(1000 * t + rounds / 4, winmem[t][1 + from % 2]);
        CHECK_MPI(MPI_Win_unlock(rank, win[t]));
        CHECK_MPI(MPI_Win_free(&win[t]));
    }
}

/* ---------------------------------------------------------------- tools interface */

static void mode_tools(int t)
{
    for (int i = 0; i < rounds / 4 + 1; i++) {
        int npvar = -1, ncvar = -1;
        CHECK_EQ(MPI_SUCCESS, MPI_T_pvar_get_num(&npvar));
        CHECK_EQ(MPI_SUCCESS, MPI_T_cvar_get_num(&ncvar));
        CHECK(npvar >= 0 && ncvar >= 0);
        if (ncvar > 0) {
            char name[256], desc[1024];
            int nlen = (int)sizeof name, dlen = (int)sizeof desc, verb, bind, scope;
            MPI_Datatype dt;
            MPI_T_enum en;
            CHECK_EQ(MPI_SUCCESS, MPI_T_cvar_get_info(i % ncvar, name, &nlen, &verb, &dt, &en, desc, &dlen, &bind,
                                                      &scope));
        }
        MPI_T_pvar_session ses;
        CHECK_EQ(MPI_SUCCESS, MPI_T_pvar_session_create(&ses));
        exchange(MPI_COMM_WORLD, t, TAG_BASE + t, 2);
        CHECK_EQ(MPI_SUCCESS, MPI_T_pvar_session_free(&ses));
    }
}

/* ---------------------------------------------------------------- soak */

static void mode_soak(int t)
{
    for (int i = 0; i < rounds / 10; i++) {
        exchange(tcomm[t], t, TAG_BASE + i % 7, 5);
        exchange(MPI_COMM_WORLD, t, TAG_BASE + t, 3);
        if (i % 5 == 0)
            coll_round(tcomm[t], t, i);
        objects_round(t, i);
        MPI_Request r;
        int flag = 0, x = i;
        CHECK_MPI(MPI_Ibarrier(tcomm[t], &r));
        while (!flag)
            CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, tcomm[t]));
        CHECK_EQ(i, x);
    }
}

/* ---------------------------------------------------------------- relay */

static void mode_relay(int t)
{
    int laps = rounds / 4 > 0 ? rounds / 4 : 1, hops = NT * size, me = rank * NT + t;
    int next = t == NT - 1 ? (rank + 1) % size : rank, prev = t == 0 ? (rank + size - 1) % size : rank;
    int next_tag = TAG_BASE + (t + 1) % NT;
    for (int lap = 0; lap < laps; lap++) {
        int token = 0;
        if (me != 0 || lap != 0)
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, prev, TAG_BASE + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(lap * hops + me, token);
        token++;
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, next_tag, MPI_COMM_WORLD));
    }
    if (me == 0) { /* the last lap's token comes home */
        int token = -1;
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, prev, TAG_BASE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(laps * hops, token);
    }
}

/* ---------------------------------------------------------------- driver */

static mode_fn *mode;

static void *thread_main(void *arg)
{
    mode((int)(intptr_t)arg);
    return NULL;
}

static void check_anysrc_counts(void)
{
    if (rank != 0)
        return;
    CHECK_EQ(total_msgs(rounds), atomic_load(&received));
    for (int r = 1; r < size && r < 64; r++)
        for (int t = 0; t < NT; t++)
            CHECK_EQ(rounds, atomic_load(&seen[r][t]));
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_EQ(MPI_THREAD_MULTIPLE, provided);
    int main_thread = 0;
    CHECK_MPI(MPI_Is_thread_main(&main_thread));
    CHECK(main_thread);
    const char *name = argc > 1 ? argv[1] : "pairs";
    if (argc > 2)
        rounds = atoi(argv[2]);
    partner = (rank ^ 1) < size ? (rank ^ 1) : MPI_PROC_NULL;
    static const struct {
        const char *name;
        mode_fn *fn;
    } modes[] = {{"pairs", mode_pairs},     {"comms", mode_comms}, {"anysrc", mode_anysrc},
                 {"mprobe", mode_mprobe},   {"waitany", mode_waitany}, {"coll", mode_coll}, {"inter", mode_inter},
                 {"objects", mode_objects}, {"rma", mode_rma},     {"tools", mode_tools},
                 {"relay", mode_relay},     {"soak", mode_soak},   {"order", mode_order},
                 {"window", mode_window}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(name, modes[i].name) == 0)
            mode = modes[i].fn;
    if (!mode)
        TU_FAIL("unknown mode %s", name);
    for (int t = 0; t < NT; t++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &tcomm[t]));
    pthread_barrier_init(&posted, NULL, NT);
    pthread_barrier_init(&drained, NULL, NT);
    if (mode == mode_rma)
        rma_setup();
    if (mode == mode_tools) {
        int tprov = -1;
        CHECK_EQ(MPI_SUCCESS, MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tprov));
        CHECK_EQ(MPI_THREAD_MULTIPLE, tprov);
    }

    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        CHECK(pthread_create(&th[t], NULL, thread_main, (void *)(intptr_t)t) == 0);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);

    if (mode == mode_anysrc || mode == mode_mprobe)
        check_anysrc_counts();
    if (mode == mode_rma)
        rma_check();
    if (mode == mode_tools)
        CHECK_EQ(MPI_SUCCESS, MPI_T_finalize());
    for (int t = 0; t < NT; t++)
        CHECK_MPI(MPI_Comm_free(&tcomm[t]));
    pthread_barrier_destroy(&posted);
    pthread_barrier_destroy(&drained);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        printf("OK threads %s\n", name);
    MPI_Finalize();
    return 0;
}
