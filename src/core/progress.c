#include "core/progress.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "boot/boot.h"
#include "core/comm.h"
#include "core/core.h"
#include "core/error.h"
#include "core/greq.h"
#include "core/mt.h"
#include "core/pt2pt.h"
#include "util/arch.h"
#include "util/config.h"
#include "util/log.h"
#include "util/timer.h"

/* Yields before sleeping: a yield hands the CPU to a rank that can make progress and costs a
 * syscall when none can; 256 measured best for barriers and rings at np=3..8 on 2 cores. */
#define YIELDS 256
#define SLEEP_SECONDS 0.05
#define MIXED_SLEEP_SECONDS 0.001
/* A dozer (skiff_mt_doze) is rung whenever it may have something to do; its timeout is only the safety net
 * and the clock of its own SKIFF_PROGRESS_TIMEOUT report (dead peers are the sleeping holder's to notice). */
#define DOZE_SECONDS 1.0

int (*skiff_progress_hook)(void);
int (*skiff_rma_progress_hook)(void);

int skiff_progress(void)
{
    int n = 0;
    for (int i = 0; i < skiff.nactive; i++)
        n += skiff.active[i]->progress();
    n += skiff_pt2pt_progress();
    if (SKIFF_UNLIKELY(skiff_progress_hook != NULL))
        n += skiff_progress_hook();
    if (SKIFF_UNLIKELY(skiff_rma_progress_hook != NULL))
        n += skiff_rma_progress_hook();
    if (SKIFF_UNLIKELY(skiff_greq_waiting))
        n += skiff_greq_poll();
    return n;
}

static void report_request(struct skiff_request *r, void *arg)
{
    (void)arg;
    if (r->state == SKIFF_RS_DONE || r->state == SKIFF_RS_IDLE)
        return;
    const char *comm = r->comm ? skiff_comm_label(r->comm) : "?";
    if (r->kind == SKIFF_REQ_COLL) {
        skiff_error("  pending %s: communicator %s", r->persist ? r->persist->what : "nonblocking collective", comm);
        return;
    }
    if (r->kind == SKIFF_REQ_GREQ) {
        skiff_error("  pending generalized request (MPI_Grequest_complete not called yet)");
        return;
    }
    char peer[16] = "any", tag[16] = "any";
    if (r->peer != MPI_ANY_SOURCE)
        snprintf(peer, sizeof peer, "%d", r->peer);
    if (r->tag != MPI_ANY_TAG)
        snprintf(tag, sizeof tag, "%d", r->tag);
    skiff_error("  pending %s: peer %s, tag %s, %zu bytes, communicator %s",
                r->kind == SKIFF_REQ_SEND ? "send" : "receive", peer, tag, r->bytes, comm);
}

/* SKIFF_PROGRESS_TIMEOUT: a rank blocked that long says what it is waiting for instead of hanging mutely. */
static void maybe_report(struct skiff_waiter *w)
{
    double now = skiff_now();
    if (w->start == 0) {
        w->start = now;
        return;
    }
    if (skiff_cfg.progress_timeout <= 0 || w->reported || now - w->start < skiff_cfg.progress_timeout)
        return;
    w->reported = 1;
    skiff_error("%s has been blocked for %.0f s (SKIFF_PROGRESS_TIMEOUT); %d sends wait for room, %d sends "
                "are incomplete; pending requests:",
                skiff_call, now - w->start, skiff_pt2pt_deferred(), skiff_pt2pt_outstanding());
    skiff_req_foreach(report_request, NULL);
}

/* One transport's sleep serves all (core/transports.c plans it): shared memory alone sleeps on its
 * futex doorbell, a network transport in epoll. With peers on both, shared memory's doorbell is a
 * datagram socket in the network's epoll that senders poke when they find this rank armed (the same
 * announce / fence / re-check as the futex). Without that socket the sleep can only be brief, so a
 * shared-memory message waits at most that long (MIXED_SLEEP_SECONDS). */
static void sleep_on_transports(double seconds, int (*ready)(void *arg), void *arg)
{
    const struct skiff_transport *s = skiff.sleeper;
    if (!s) { /* no peers: only another thread (a generalized request, say) can end the wait */
        struct timespec ts = {0, (long)(MIXED_SLEEP_SECONDS * 1e9)};
        nanosleep(&ts, NULL);
        return;
    }
    double t = skiff.sleep_brief && seconds > MIXED_SLEEP_SECONDS ? MIXED_SLEEP_SECONDS : seconds;
    if (!skiff.nbells) {
        s->sleep(t, ready, arg);
        return;
    }
    uint32_t token;
    int k = 0;
    while (k < skiff.nbells && !skiff.bells[k]->arm(&token))
        k++;
    if (k == skiff.nbells && !(ready && ready(arg)))
        s->sleep(t, NULL, NULL);
    while (k-- > 0)
        skiff.bells[k]->disarm();
}

/* Only when idle: a launcher that went away, or a dead neighbour it did not clean up after. A
 * launcher that ends jobs itself (skiff's mpiexec, Hydra) gets SKIFF_DEAD_PEER_GRACE_MS to do so, so that
 * it, not a bystander, names the rank that failed. */

static void check_job_alive(void)
{
    static double seen_at;
    int aborted = 0, dead;
    char why[128];
    if (SKIFF_UNLIKELY(skiff_boot_launcher_gone()))
        skiff_abort_job(1, "the launcher's PMI server closed its connection (mpiexec, srun or Hydra is gone)");
    /* A send to a peer that finalized without matching it can never complete: it ends with an error. */
    if (skiff_pt2pt_outstanding() || skiff_pt2pt_busy())
        skiff_pt2pt_abandon_finished();
    if (SKIFF_LIKELY((dead = skiff_boot_dead_peer(&aborted)) < 0)) {
        seen_at = 0;
        return;
    }
    if (seen_at == 0)
        seen_at = skiff_now();
    if (skiff_now() - seen_at < SKIFF_DEAD_PEER_GRACE_MS / 1000.0)
        return;
    snprintf(why, sizeof why, "rank %d %s", dead, aborted ? "aborted the job" : "died without calling MPI_Finalize");
    skiff_abort_job(1, why);
}

/* SKIFF_SPIN=auto, a core per rank: polling wins only while nothing else wants the core. A rank the
 * kernel keeps preempting (involuntary context switches, more than one per CONTENDED_GAP seconds since
 * the last look) shares its core with other work, and polling on holds the core away from that work,
 * which then crowds the core of the peer this rank waits for. So for CONTENDED_HOLD seconds a long wait
 * yields and sleeps at once, as SKIFF_SPIN=0 does (measured on CG under load: docs/performance.md).
 * Looked at only once a wait has outlasted the bare stretch, so short waits never pay the syscall. */
#define CONTENDED_GAP 0.02
#define CONTENDED_HOLD 0.1

static int spin_contended(void)
{
    static long seen = -1;
    static double seen_at, until;
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return 0;
    double now = skiff_now();
    long switches = ru.ru_nivcsw - seen;
    if (seen >= 0 && switches > 0 && (double)switches * CONTENDED_GAP > now - seen_at)
        until = now + CONTENDED_HOLD;
    seen = ru.ru_nivcsw;
    seen_at = now;
    return now < until;
}

/* MPI_THREAD_MULTIPLE (core/mt.h). A waiter holding the lock hands it over at every step while another
 * thread is blocked on it, and otherwise waits exactly as a single thread does (spin, yield, sleep), so
 * a program that asked for MULTIPLE and calls from one thread waits like one that did not.
 *
 * Sleeping: the waiter sleeps in the transports' sleep still holding the lock, as a single thread
 * does, and a thread that then finds the lock taken wakes it through the sleeper's wake
 * (skiff_progress_wake_holder, from the lock's slow path: shared memory's doorbell, or the eventfd in
 * tcp's or ucx's epoll set); the sleeper also checks, after arming, whether anyone is blocked on the
 * lock, so the wake-up cannot slip past (the lock's exchange and holder_sleeps are ordered by seq_cst,
 * as a sender's message and the doorbell's flag are). Only a sleeper without a wake, or a brief mixed
 * sleep (shared memory beside a network without the doorbell's socket), makes the waiter nap without the
 * lock instead (50 us doubling to 1 ms). A waiter still wanted by others once its yields are spent dozes
 * (skiff_mt_doze): it lets go of the lock and sleeps until a pass moved something or a call let go of the
 * lock, while the thread that took the lock over waits, and sleeps in the transports, for both. So any
 * number of idle waiters cost what one does: one sleeps in the transports, the others on the dozers' futex. */
#define MT_NAP_FIRST 50e-6
#define MT_NAP_MAX 1e-3

static atomic_int holder_sleeps; /* a thread sleeps in the transports' sleep holding the lock */

static void mt_nap(unsigned naps)
{
    double t = MT_NAP_FIRST * (double)(1u << (naps < 5 ? naps : 5));
    struct timespec ts = {0, (long)((t < MT_NAP_MAX ? t : MT_NAP_MAX) * 1e9)};
    struct skiff_mt_parked p;
    skiff_mt_release(&p);
    nanosleep(&ts, NULL);
    skiff_mt_reacquire(&p);
}

void skiff_progress_wake_holder(void)
{
    if (atomic_load(&holder_sleeps))
        skiff.sleeper->wake();
}

static int lock_wanted_or_ready(void *arg)
{
    struct skiff_waiter *w = arg;
    return skiff_mt_contended() || (w->ready && w->ready(w->arg));
}

/* Another thread wants the lock: give it up at once (yield; once the yields are spent, doze until a
 * request may have completed, and let that thread progress for both). */
static void hand_over(struct skiff_waiter *w)
{
    unsigned p = ++w->polls, limit = skiff.spin_limit;
    if (p < limit + YIELDS) {
        skiff_mt_yield();
        return;
    }
    maybe_report(w);
    check_job_alive();
    /* The call may have completed a dozer's request before it began to wait (a send to this process, say),
     * and its own release may not ring if no dozer marked it; after this, only its passes change anything,
     * and they ring when they do. */
    skiff_mt_doze(DOZE_SECONDS, w->rang);
    w->rang = 1;
}

/* The sleep of a waiter holding the lock; 1 if it slept, 0 if it napped (its polls keep counting). */
static int mt_sleep(struct skiff_waiter *w)
{
    const struct skiff_transport *s = skiff.sleeper;
    if (s && s->wake && !skiff.sleep_brief) {
        atomic_store(&holder_sleeps, 1);
        sleep_on_transports(SLEEP_SECONDS, lock_wanted_or_ready, w);
        atomic_store(&holder_sleeps, 0);
        return 1;
    }
    mt_nap(w->polls - skiff.spin_limit - YIELDS);
    return 0;
}

void skiff_wait_step(struct skiff_waiter *w)
{
    if (skiff_progress()) {
        if (SKIFF_UNLIKELY(skiff_mt_on))
            skiff_mt_progressed();
        w->polls = 0;
        return;
    }
    int mt = SKIFF_UNLIKELY(skiff_mt_on) && skiff_mt_held();
    if (SKIFF_UNLIKELY(mt) && skiff_mt_contended()) {
        hand_over(w);
        return;
    }
    unsigned p = ++w->polls;
    if (SKIFF_LIKELY(p < skiff.spin_limit)) {
        /* pause costs ~40-140 cycles on current CPUs: poll bare for the first stretch, where the
         * next message of a ping-pong lands, and only then start to ease off. */
        if (p > 4096) {
            if ((p & 4095) == 1 && skiff.spin_adaptive && spin_contended()) {
                w->polls = skiff.spin_limit;
                return;
            }
            skiff_cpu_relax();
        }
        return;
    }
    if ((p & 1023) == 0 || p == skiff.spin_limit) {
        maybe_report(w);
        /* A rank whose sends wait for room never sleeps: if the receiver died, only this notices. */
        check_job_alive();
    }
    if (p < skiff.spin_limit + YIELDS || skiff_pt2pt_busy()) {
        sched_yield();
        return;
    }
    /* Nothing for a while: sleep until a sender rings our doorbell. Stay in this regime (no new
     * spin phase) until something arrives, so an idle rank costs nothing. */
    maybe_report(w); /* polls no longer count up here, so check the clock on every sleep */
    check_job_alive();
    if (SKIFF_UNLIKELY(mt)) {
        if (mt_sleep(w))
            w->polls = skiff.spin_limit + YIELDS;
        return;
    }
    sleep_on_transports(SLEEP_SECONDS, w->ready, w->arg);
    w->polls = skiff.spin_limit + YIELDS;
}

void skiff_wait_req(struct skiff_request *r)
{
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (!skiff_req_done(r))
        skiff_wait_step(&w);
}
