/* The shared-memory transport: per-pair fast boxes for small messages, the receiver's lock-free
 * queue of cells for everything larger (or when a fast box is full), futex doorbells for sleepers,
 * process_vm_readv for single-copy pulls.
 *
 * Ordering per pair: a sender uses the fast box only while none of its queue cells to that receiver
 * is unconsumed, and the receiver drains a sender's fast box before it handles that sender's next
 * cell. So a pair's messages are delivered in the order they were sent, whichever path each took.
 */
#include "shm/shm.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "core/core.h"
#include "util/cma.h"
#include "shm/doorbell.h"
#include "shm/fbox.h"
#include "shm/node_area.h"
#include "shm/queue.h"
#include "util/arch.h"
#include "util/config.h"
#include "util/log.h"

static struct {
    unsigned char *base;
    struct skiff_shm_layout l;
    int me, n;                         /* node-local rank and count: the segment spans one node */
    const int *local;                  /* job rank -> node-local rank */
    int *world;                        /* node-local rank -> job rank */
    struct skiff_shm_mailbox *mailbox; /* indexed by receiver */
    struct skiff_fbox_tx *tx;          /* me -> peer */
    struct skiff_fbox_rx *rx;          /* peer -> me */
    uint64_t *q_sent;                  /* cells sent to each peer */
    uint64_t *q_recv;                  /* cells received from each peer */
    uint64_t *q_known;                 /* last q_done read per peer: spares a shared read per send */
    struct skiff_cell_pool pool;
    size_t fbox_max;
    int cma;
    int wake_fd;   /* our wake socket when we sleep in epoll (tcp peers too), else -1 */
    int poke_fd;   /* an unbound datagram socket to poke peers' wake sockets with */
} shm;

static struct skiff_transport shm_ops;

/* What went through shared memory since MPI_Init, from the positions and cell counts the transport keeps
 * anyway; 0 when it is not running. */
#define TRAFFIC(what, sum)                                                                               \
    static unsigned long long what(void)                                                                 \
    {                                                                                                    \
        unsigned long long n = 0;                                                                        \
        for (int p = 0; shm.tx && shm.rx && shm.q_sent && shm.q_recv && p < shm.n; p++)                  \
            n += sum;                                                                                    \
        return n;                                                                                        \
    }
TRAFFIC(fbox_sent, shm.tx[p].head)
TRAFFIC(fbox_recv, shm.rx[p].pos)
TRAFFIC(cells_sent, shm.q_sent[p])
TRAFFIC(cells_recv, shm.q_recv[p])

const struct skiff_transport_counter skiff_shm_counters[] = {
    {"skiff_shm_fbox_sent_bytes", "bytes written to the fast boxes of peers on this node (record heads and padding "
     "included)", fbox_sent},
    {"skiff_shm_fbox_recv_bytes", "bytes read from this rank's fast boxes (record heads and padding included)",
     fbox_recv},
    {"skiff_shm_cells_sent", "shared-memory queue cells sent (eager messages too large for a fast box, pieces of "
     "pipelined copies)", cells_sent},
    {"skiff_shm_cells_recv", "shared-memory queue cells received", cells_recv},
    {NULL, NULL, NULL},
};

static struct skiff_fbox_ctl *fctl(int sender, int receiver)
{
    return (struct skiff_fbox_ctl *)(shm.base + shm.l.off_fctl) + skiff_pair(&shm.l, sender, receiver);
}

static unsigned char *fring(int sender, int receiver)
{
    return shm.base + shm.l.off_fbox + skiff_pair(&shm.l, sender, receiver) * shm.l.fbox_size;
}

static unsigned char *pool_of(int rank)
{
    return shm.base + shm.l.off_cells + (size_t)rank * shm.l.ncells * shm.l.cell_stride;
}

/* A peer that sleeps in epoll (it has tcp peers too) cannot hear the futex: it listens on a datagram
 * socket in the abstract namespace (no file anywhere), named after the job and its rank. */
static socklen_t wake_addr(int world_rank, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    int n = snprintf(a->sun_path + 1, sizeof a->sun_path - 1, "skiff.%llx.%d", (unsigned long long)skiff_boot.jobid,
                     world_rank);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/* Created on the first poke: only ranks with peers on other nodes sleep in epoll and need one. Two
 * threads that send at once may both create one; the first to publish it wins and the other closes its
 * own, so the socket needs no lock (docs/per-communicator-locks.md, step 2). */
static int poke_socket(void)
{
    int fd = __atomic_load_n(&shm.poke_fd, __ATOMIC_ACQUIRE);
    if (fd >= 0)
        return fd;
    int mine = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (mine < 0)
        return -1;
    int none = -1;
    if (__atomic_compare_exchange_n(&shm.poke_fd, &none, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return mine;
    close(mine);
    return none;
}

static void poke(int peer)
{
    struct sockaddr_un a;
    socklen_t len = wake_addr(shm.world[peer], &a);
    char one = 1;
    int fd = poke_socket();
    /* A full socket already holds a wake-up: losing this one is harmless. */
    if (fd >= 0)
        (void)sendto(fd, &one, 1, MSG_DONTWAIT, (struct sockaddr *)&a, len);
}

static void ring_bell(int peer)
{
    struct skiff_shm_mailbox *mb = &shm.mailbox[peer];
    /* Pairs with the fence in shm_arm: either the peer sees our message, or we see it asleep. */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&mb->sleeping, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&mb->bell, 1, memory_order_relaxed);
        skiff_futex_wake(&mb->bell);
        if (atomic_load_explicit(&mb->wake_sock, memory_order_relaxed))
            poke(peer);
    }
}

/* Another thread of this process (MPI_THREAD_MULTIPLE, the progress thread's stop) wakes the one asleep
 * on our doorbell: only atomics on the mailbox, safe without the library's lock. */
static void shm_wake(void)
{
    ring_bell(shm.me);
}

/* 1 when the peer has consumed every cell we queued to it, so the fast box cannot overtake one. */
static inline int queue_idle(int peer)
{
    if (shm.q_sent[peer] == shm.q_known[peer])
        return 1;
    shm.q_known[peer] = atomic_load_explicit(&fctl(shm.me, peer)->q_done, memory_order_acquire);
    return shm.q_sent[peer] == shm.q_known[peer];
}

static int shm_send(int world_peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    int peer = shm.local[world_peer];
    if (len <= shm.fbox_max && queue_idle(peer) && skiff_fbox_push(&shm.tx[peer], h, payload, len) == 0) {
        ring_bell(peer);
        return 0;
    }
    struct skiff_cell *c = skiff_cell_alloc(&shm.pool);
    if (!c)
        return -EAGAIN;
    c->hdr = *h;
    c->plen = (uint32_t)len;
    if (len)
        memcpy(c->payload, payload, len);
    shm.q_sent[peer]++;
    skiff_queue_push(shm.base, &shm.mailbox[peer], (uint64_t)((unsigned char *)c - shm.base));
    ring_bell(peer);
    return 0;
}

/* MPI_THREAD_MULTIPLE: a lock per peer over what sending to it writes (its fast box's producer side,
 * q_sent, q_known), so that send_direct, called outside the library lock, and send, under it, take
 * turns (docs/per-communicator-locks.md, "The first slice"). The cell pool stays the library lock's:
 * send_direct never takes a cell. NULL until threads. */
static pthread_mutex_t *tx_lock;

static int shm_send_locked(int world_peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    pthread_mutex_t *m = &tx_lock[shm.local[world_peer]];
    pthread_mutex_lock(m);
    int rc = shm_send(world_peer, h, payload, len);
    pthread_mutex_unlock(m);
    return rc;
}

/* The fast box or nothing: a cell would need the pool, and a box that is full or has cells queued ahead
 * of it (they must not be overtaken) leaves the message to the library's deferral. */
static int shm_send_direct(int world_peer, const struct skiff_hdr *h, const void *payload, size_t len)
{
    int peer = shm.local[world_peer];
    if (len > shm.fbox_max)
        return -EAGAIN;
    pthread_mutex_lock(&tx_lock[peer]);
    int ok = queue_idle(peer) && skiff_fbox_push(&shm.tx[peer], h, payload, len) == 0;
    pthread_mutex_unlock(&tx_lock[peer]);
    if (!ok)
        return -EAGAIN;
    ring_bell(peer);
    return 0;
}

static void corrupt(const char *what, int peer, unsigned long long value)
{
    skiff_error("shared memory from rank %d is corrupt (%s = %llu): ending the job", peer < 0 ? -1 : shm.world[peer],
                what, value);
    skiff_boot_set_state(SKIFF_RANK_ABORTED, 1);
    _Exit(1);
}

static int drain_fbox(int peer)
{
    int n = 0;
    struct skiff_fbox_rx *rx = &shm.rx[peer];
    const struct skiff_fbox_entry *e;
    while ((e = skiff_fbox_peek(rx)) != NULL) {
        if (e == SKIFF_FBOX_CORRUPT)
            corrupt("fast box entry length", peer, 0);
        skiff_core_incoming(shm.world[peer], &e->hdr, e->payload, rx->len);
        skiff_fbox_pop(rx);
        n++;
    }
    return n;
}

static int drain_queue(void)
{
    int n = 0;
    uint64_t off;
    while ((off = skiff_queue_pop(shm.base, &shm.mailbox[shm.me])) != 0) {
        int peer = -1;
        size_t len = 0;
        int bad = skiff_cell_check(&shm.l, shm.base, off, &peer, &len);
        if (SKIFF_UNLIKELY(bad))
            corrupt(bad == -1 ? "queue cell offset" : "queue cell length", peer, bad == -1 ? off : len);
        struct skiff_cell *c = (struct skiff_cell *)(shm.base + off);
        n += drain_fbox(peer); /* everything the peer put in its fast box precedes this cell */
        skiff_core_incoming(shm.world[peer], &c->hdr, c->payload, len);
        atomic_store_explicit(&fctl(peer, shm.me)->q_done, ++shm.q_recv[peer], memory_order_release);
        skiff_cell_release(c);
        n++;
    }
    return n;
}

static int shm_progress(void)
{
    int n = 0;
    for (int p = 0; p < shm.n; p++)
        if (p != shm.me)
            n += drain_fbox(p);
    return n + drain_queue();
}

static int anything_waiting(void)
{
    if (!skiff_queue_empty(&shm.mailbox[shm.me]))
        return 1;
    for (int p = 0; p < shm.n; p++)
        if (p != shm.me && skiff_fbox_peek(&shm.rx[p]) != NULL)
            return 1;
    return 0;
}

/* The announcement is a count: an application thread and the progress thread may sleep on the doorbell
 * at once (shm_sleep counts too). */
static int shm_arm(uint32_t *bell)
{
    struct skiff_shm_mailbox *mb = &shm.mailbox[shm.me];
    *bell = atomic_load_explicit(&mb->bell, memory_order_relaxed);
    atomic_fetch_add_explicit(&mb->sleeping, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with ring_bell's: we see its message or it sees us */
    if (!anything_waiting())
        return 0;
    atomic_fetch_sub_explicit(&mb->sleeping, 1, memory_order_relaxed);
    return 1;
}

static void shm_disarm(void)
{
    char buf[64];
    atomic_fetch_sub_explicit(&shm.mailbox[shm.me].sleeping, 1, memory_order_relaxed);
    if (shm.wake_fd >= 0)
        while (recv(shm.wake_fd, buf, sizeof buf, MSG_DONTWAIT) > 0) /* drain the pokes */
            ;
}

static void shm_doze(uint32_t bell, double seconds)
{
    skiff_futex_wait(&shm.mailbox[shm.me].bell, bell, seconds);
    shm_disarm();
}

static void shm_sleep(double seconds, int (*ready)(void *arg), void *arg)
{
    uint32_t bell;
    if (shm_arm(&bell))
        return;
    if (!(ready && ready(arg)))
        skiff_futex_wait(&shm.mailbox[shm.me].bell, bell, seconds);
    shm_disarm();
}

/* For a sleep in another transport's epoll (ranks with peers on other nodes too): a datagram socket
 * that senders poke when they find this rank armed. Created on first call; -1 if it cannot be. */
static int shm_wake_fd(void)
{
    if (shm.wake_fd >= 0)
        return shm.wake_fd;
    struct sockaddr_un a;
    socklen_t len = wake_addr(skiff.rank, &a);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) != 0) {
        skiff_log(SKIFF_LOG_INFO, "shm: no wake socket (%s): sleeping briefly instead", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    shm.wake_fd = fd;
    atomic_store(&shm.mailbox[shm.me].wake_sock, 1);
    return fd;
}

/* Once the kernel has refused a single copy, every later one answers -ENOSYS at once, and the core
 * asks for pipelined pieces instead (the table itself stays as it was set up). */
static int shm_pull(int peer, uint64_t remote_addr, void *dst, size_t len)
{
    /* A one-way flag: a thread that still sees 1 only asks the kernel once more and is refused. */
    if (!__atomic_load_n(&shm.cma, __ATOMIC_RELAXED))
        return -ENOSYS;
    int rc = skiff_cma_read(skiff_boot_pid(peer), remote_addr, dst, len);
    if (rc == -EPERM || rc == -ENOSYS) {
        skiff_log(SKIFF_LOG_INFO, "process_vm_readv from rank %d refused (%s): using pipelined copies", peer,
                  strerror(-rc));
        __atomic_store_n(&shm.cma, 0, __ATOMIC_RELAXED);
    }
    return rc;
}

static void shm_threads(void)
{
    if (tx_lock)
        return;
    if (!(tx_lock = calloc((size_t)shm.n, sizeof *tx_lock))) {
        skiff_log(SKIFF_LOG_INFO, "shm: no memory for send locks: every send takes the library lock");
        return;
    }
    for (int p = 0; p < shm.n; p++)
        pthread_mutex_init(&tx_lock[p], NULL);
    shm_ops.send = shm_send_locked;
    shm_ops.send_direct = shm_send_direct;
}

static void shm_finalize(void)
{
    skiff_node_area_detach();
    for (int p = 0; tx_lock && p < shm.n; p++)
        pthread_mutex_destroy(&tx_lock[p]);
    free(tx_lock);
    tx_lock = NULL;
    shm_ops.send = shm_send;
    shm_ops.send_direct = NULL;
    free(shm.tx);
    free(shm.rx);
    free(shm.q_sent);
    free(shm.q_recv);
    free(shm.q_known);
    free(shm.world);
    if (shm.wake_fd >= 0)
        close(shm.wake_fd);
    if (shm.poke_fd >= 0)
        close(shm.poke_fd);
    memset(&shm, 0, sizeof shm);
    shm.wake_fd = shm.poke_fd = -1;
}

static struct skiff_transport shm_ops = {
    .name = "shm",
    .send = shm_send,
    .progress = shm_progress,
    .pull = shm_pull,
    .finalize = shm_finalize,
    .peer_finalized = skiff_boot_peer_finalized,
    .sleep = shm_sleep,
    .wake_fd = shm_wake_fd,
    .arm = shm_arm,
    .disarm = shm_disarm,
    .doze = shm_doze,
    .wake = shm_wake,
    .threads = shm_threads,
};

static int setup_cma(void)
{
    int ok = skiff_cma_probe();
    if (skiff_cfg.shm_cma == 1 && !ok) {
        skiff_error("SKIFF_SHM_CMA=1 but this kernel forbids process_vm_readv");
        return -1;
    }
    shm.cma = ok && (skiff_cfg.shm_cma == 1 || (skiff_cfg.shm_cma == -1 && skiff_cma_worthwhile()));
    shm_ops.pull = shm.cma ? shm_pull : NULL;
    return 0;
}

static void setup_pairs(void)
{
    for (int p = 0; p < shm.n; p++) {
        shm.tx[p] = (struct skiff_fbox_tx){fring(shm.me, p), fctl(shm.me, p), shm.l.fbox_size, 0, 0};
        shm.rx[p] = (struct skiff_fbox_rx){.ring = fring(p, shm.me), .ctl = fctl(p, shm.me), .size = shm.l.fbox_size};
    }
    shm.pool = (struct skiff_cell_pool){pool_of(shm.me), shm.l.cell_stride, shm.l.ncells, 0};
}

void skiff_shm_describe(char *out, size_t len)
{
    int e = skiff_cma_probe_errno();
    snprintf(out, len, "fast boxes, lock-free queues; single copy: %s%s",
             e ? "refused by the kernel: " : skiff_cma_worthwhile() ? "available and faster than the pipelined copy"
                                                                     : "available but slower than the pipelined copy here, not used by default",
             e ? strerror(e) : "");
}

const struct skiff_transport *skiff_shm_init(const unsigned char *uses)
{
    (void)uses; /* every rank of this node */
    shm.me = skiff_boot.local_rank;
    shm.n = skiff_boot.local_size;
    shm.local = skiff_boot.map.local;
    skiff_shm_layout_compute(&shm.l, (uint32_t)shm.n, skiff_job_header_size((uint32_t)shm.n), skiff_cfg.shm_fbox,
                             skiff_cfg.shm_cell, (uint32_t)skiff_cfg.shm_cells);
    shm.base = skiff_boot_map(shm.l.total);
    if (!shm.base)
        return NULL;
    shm.mailbox = (struct skiff_shm_mailbox *)(shm.base + shm.l.off_mailbox);
    shm.tx = calloc((size_t)shm.n, sizeof *shm.tx);
    shm.rx = calloc((size_t)shm.n, sizeof *shm.rx);
    shm.q_sent = calloc((size_t)shm.n, sizeof *shm.q_sent);
    shm.q_recv = calloc((size_t)shm.n, sizeof *shm.q_recv);
    shm.q_known = calloc((size_t)shm.n, sizeof *shm.q_known);
    shm.world = calloc((size_t)shm.n, sizeof *shm.world);
    shm.wake_fd = shm.poke_fd = -1;
    for (int r = 0; shm.world && r < skiff.size; r++)
        if (skiff_boot.map.node[r] == skiff_boot.node)
            shm.world[shm.local[r]] = r;
    if (!shm.world || !shm.tx || !shm.rx || !shm.q_sent || !shm.q_recv || !shm.q_known || setup_cma()) {
        shm_finalize();
        return NULL;
    }
    setup_pairs();
    skiff_node_area_attach((struct skiff_shm_barrier *)(shm.base + shm.l.off_barrier), shm.base + shm.l.off_slots,
                           shm.n, shm.me, ring_bell);
    shm.fbox_max = skiff_fbox_max_payload(shm.l.fbox_size);
    shm_ops.max_eager = skiff_cfg.shm_eager;
    shm_ops.max_piece = shm.l.cell_payload;
    skiff_log(SKIFF_LOG_DEBUG, "shm: %d ranks, segment %zu bytes, fast box %zu, cell %zu x %u, single copy %s",
              shm.n, shm.l.total, shm.l.fbox_size, shm.l.cell_payload, shm.l.ncells, shm.cma ? "yes" : "no");
    return &shm_ops;
}
