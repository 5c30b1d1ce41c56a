/* The profiler's recorder: tables indexed by call id (one per thread, summed for reports), filled by
 * the spans that SKIFF_ENTER opens, and its start (MPI_Init) and end (MPI_Finalize). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/comm.h"
#include "core/core.h"
#include "core/datatype.h"
#include "core/mt.h"
#include "core/trace.h"
#include "mpi/profile.h"
#include "mpi/profile_table.h"
#include "util/config.h"
#include "util/timer.h"
#include "util/log.h"

/* The spans' gate: set while the profiler or the tracer (core/trace.h) records. */
int skiff_prof_on;
/* SKIFF_PROFILE=1 or SKIFF_TRACE=1, between MPI_Init and MPI_Finalize: MPI_Pcontrol(0) pauses the
 * recording (skiff_prof_on), not the report, which MPI_Finalize still gathers from every rank. */
static int enabled;

const char *const skiff_prof_names[SKIFF_PC_COUNT] = {
#define SKIFF_PC_NAME(name) #name,
    SKIFF_PROFILE_CALLS(SKIFF_PC_NAME)
#undef SKIFF_PC_NAME
};

/* Per thread (MPI_THREAD_MULTIPLE: each thread's calls are its own, also while another thread's call
 * runs during its wait): MPI calls under way, more than one only inside callbacks, and when the
 * outermost began. Its time still counts the whole wait. */
static __thread int depth __attribute__((tls_model("initial-exec")));
static __thread double call_start __attribute__((tls_model("initial-exec")));
static double init_start;  /* when MPI_Init was called: the start of the wall time */

static void add_time(struct skiff_prof_stat *st, double t)
{
    if (!st->calls || t < st->tmin)
        st->tmin = t;
    if (t > st->tmax)
        st->tmax = t;
    st->time += t;
    st->calls++;
}

/* Each thread records into a table of its own, so that threads that run MPI calls at once (once the lock
 * is split: docs/per-communicator-locks.md) never write one entry together. Reports sum the tables. Only
 * the owner writes a table, inside its calls' spans; a report reads them all, which needs no recording
 * thread to be inside a call meanwhile: at MPI_Finalize none is (MPI forbids it), and MPI_Pcontrol(2)
 * holds the library's lock, as every recording thread does (a stop-the-world step once the lock is
 * split). A table outlives MPI_Finalize (its thread may call MPI_Init again after it, with a session);
 * when its thread exits, its counts fold into `retired`. */
struct table {
    struct skiff_prof_stat st[SKIFF_PC_COUNT];
    struct table *next;
};
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static struct table *tables;
static struct skiff_prof_stat retired[SKIFF_PC_COUNT];
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static __thread struct table *mine __attribute__((tls_model("initial-exec")));

static void fold(struct skiff_prof_stat *into, const struct table *t)
{
    for (int id = 0; id < SKIFF_PC_COUNT; id++)
        skiff_prof_stat_add(&into[id], &t->st[id]);
}

static void thread_exit(void *arg)
{
    struct table *t = arg;
    pthread_mutex_lock(&tables_lock);
    fold(retired, t);
    for (struct table **p = &tables; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    pthread_mutex_unlock(&tables_lock);
    free(t);
}

static void make_exit_key(void)
{
    if (pthread_key_create(&exit_key, thread_exit) != 0)
        skiff_warn("profile: no thread-exit hook: tables of exited threads stay allocated");
}

/* This thread's table, made on its first recorded call; NULL (nothing recorded) if out of memory. */
static struct table *my_table(void)
{
    if (SKIFF_LIKELY(mine != NULL))
        return mine;
    struct table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_once(&exit_key_once, make_exit_key);
    pthread_mutex_lock(&tables_lock);
    t->next = tables;
    tables = t;
    pthread_mutex_unlock(&tables_lock);
    (void)pthread_setspecific(exit_key, t);
    return mine = t;
}

/* The whole process's table: every thread's, and the exited threads' counts. Static, so that a report
 * cannot fail for memory (at MPI_Finalize every rank must take part in the gather). */
static struct skiff_prof_stat summed[SKIFF_PC_COUNT];

static const struct skiff_prof_stat *sum_tables(void)
{
    struct skiff_prof_stat *out = summed;
    pthread_mutex_lock(&tables_lock);
    memcpy(out, retired, sizeof retired);
    for (struct table *t = tables; t; t = t->next)
        fold(out, t);
    pthread_mutex_unlock(&tables_lock);
    return out;
}

/* Starts every count from zero (MPI_Init, also a second one after MPI_Finalize). */
static void clear_tables(void)
{
    pthread_mutex_lock(&tables_lock);
    memset(retired, 0, sizeof retired);
    for (struct table *t = tables; t; t = t->next)
        memset(t->st, 0, sizeof t->st);
    pthread_mutex_unlock(&tables_lock);
}

/* Adds one recorded call of time t to this thread's table. */
static void record_call(enum skiff_prof_call id, double t)
{
    struct table *tb = my_table();
    if (tb)
        add_time(&tb->st[id], t);
}

/* A rank's time in MPI is the wall time during which at least one of its threads was inside a recorded
 * call: with several threads in MPI at once the calls' own times add up to more than the wall time, and
 * time no thread spent in MPI is what the report calls compute. `inside` counts the threads in an
 * outermost call; `busy_ns` sums the stretches in which it was above 0, each begun at `since_ns`. Only
 * the thread that takes `inside` from 0 writes `since_ns`, so the thread that brings it back to 0 reads
 * it while it is still inside (before its decrement) and no one can change it. Atomics, not a mutex: two
 * read-modify-writes per recorded call. A pause (MPI_Pcontrol(0)) closes the stretch under way; calls
 * open across it then leave without counting. */
static int inside;
static int64_t since_ns, busy_ns;

static int64_t ns(double t)
{
    return (int64_t)(t * 1e9);
}

static void busy_enter(double t)
{
    if (__atomic_fetch_add(&inside, 1, __ATOMIC_ACQ_REL) == 0)
        __atomic_store_n(&since_ns, ns(t), __ATOMIC_RELAXED);
}

static void busy_leave(double t)
{
    int64_t since = __atomic_load_n(&since_ns, __ATOMIC_RELAXED);
    int n = __atomic_load_n(&inside, __ATOMIC_RELAXED);
    while (n > 0 && !__atomic_compare_exchange_n(&inside, &n, n - 1, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        ;
    if (n == 1)
        __atomic_fetch_add(&busy_ns, ns(t) - since, __ATOMIC_RELAXED);
}

/* The time in MPI up to t, the stretch under way included, read by a thread with no other inside MPI
 * (MPI_Finalize, a pause, MPI_Pcontrol(2) under the library's lock); `stop` also closes that stretch. */
static double busy_until(double t, int stop)
{
    int n = __atomic_load_n(&inside, __ATOMIC_ACQUIRE);
    int64_t b = __atomic_load_n(&busy_ns, __ATOMIC_RELAXED);
    if (n > 0)
        b += ns(t) - __atomic_load_n(&since_ns, __ATOMIC_RELAXED);
    if (stop) {
        __atomic_store_n(&busy_ns, b, __ATOMIC_RELAXED);
        __atomic_store_n(&inside, 0, __ATOMIC_RELEASE);
    }
    return (double)b * 1e-9;
}

enum skiff_prof_state skiff_prof_enter(void)
{
    if (depth++)
        return SKIFF_PROF_NESTED;
    call_start = skiff_now();
    if (skiff_cfg.profile)
        busy_enter(call_start);
    skiff_trace_call_begin();
    return SKIFF_PROF_TIMED;
}

void skiff_prof_leave_slow(const struct skiff_prof_span *s)
{
    /* MPI_Finalize ends recording while its own span is open. */
    if (!skiff_prof_on)
        return;
    depth--;
    if (s->state != SKIFF_PROF_TIMED)
        return;
    if (skiff_cfg.profile) {
        double end = skiff_now();
        record_call(s->id, end - call_start);
        busy_leave(end);
    }
    skiff_trace_call_end(s->id);
}

void skiff_prof_msg_slow(enum skiff_prof_call id, size_t bytes)
{
    skiff_trace_call_bytes(bytes);
    if (!skiff_cfg.profile)
        return;
    struct table *tb = my_table();
    if (!tb)
        return;
    struct skiff_prof_stat *st = &tb->st[id];
    st->msgs++;
    st->bytes += bytes;
    st->hist[skiff_prof_bucket(bytes)]++;
}

size_t skiff_prof_bytes(MPI_Count count, MPI_Datatype dt)
{
    const struct skiff_type *t = skiff_type_get(dt);
    return t && count > 0 ? (size_t)count * t->size : 0;
}

size_t skiff_prof_vbytes(const int counts[], MPI_Datatype dt, MPI_Comm comm)
{
    const struct skiff_comm *c = skiff_comm_get(comm);
    size_t sum = 0;
    for (int i = 0; counts && c && i < c->size; i++)
        sum += skiff_prof_bytes(counts[i], dt);
    return sum;
}

size_t skiff_prof_vbytes_c(const MPI_Count counts[], MPI_Datatype dt, MPI_Comm comm)
{
    const struct skiff_comm *c = skiff_comm_get(comm);
    size_t sum = 0;
    for (int i = 0; counts && c && i < c->size; i++)
        sum += skiff_prof_bytes(counts[i], dt);
    return sum;
}

void skiff_prof_init(enum skiff_prof_call id, double t_enter)
{
    int tracing = skiff_cfg.trace && skiff_trace_init() == 0;
    if (!skiff_cfg.profile && !tracing)
        return;
    clear_tables();
    depth = 0;
    init_start = t_enter;
    double now = skiff_now();
    __atomic_store_n(&inside, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&busy_ns, ns(now) - ns(t_enter), __ATOMIC_RELAXED); /* MPI_Init's own time */
    if (skiff_cfg.profile)
        record_call(id, now - t_enter);
    skiff_prof_on = 1;
    enabled = 1;
}

/* skiff's mpiexec names the job (16 hex digits); a one-rank job, or one started by another
 * launcher, is named by rank 0's pid. */
static void job_name(char *out, size_t len)
{
    if (skiff_boot.jobid == (uint64_t)getpid())
        snprintf(out, len, "%d", (int)getpid());
    else
        snprintf(out, len, "%016llx", (unsigned long long)skiff_boot.jobid);
}

static void report(const struct skiff_prof_job *job)
{
    char name[32], path[4096];
    job_name(name, sizeof name);
    if (skiff_cfg.profile_file)
        snprintf(path, sizeof path, "%s", skiff_cfg.profile_file);
    else
        snprintf(path, sizeof path, "skiff-profile.%s.txt", name);
    skiff_prof_report(job, path, name);
}

void skiff_prof_finalize(void)
{
    if (!enabled)
        return;
    enabled = 0;
    /* The trace first: the profile's gather below sends messages that are not the program's. */
    skiff_trace_finalize();
    if (!skiff_cfg.profile) {
        skiff_prof_on = 0;
        depth = 0;
        return;
    }
    double wall = skiff_now() - init_start;
    /* Counted, not timed: its work comes after the report, and the wall time ends where it starts. No
     * other thread is inside MPI now, so the stretch under way began at or before MPI_Finalize did. */
    double mpi = busy_until(call_start, 1);
    record_call(SKIFF_PC_MPI_Finalize, 0.0);
    skiff_prof_on = 0;
    depth = 0;
    struct skiff_prof_job job = {0};
    int rc = skiff_prof_gather(sum_tables(), wall, mpi, &job);
    if (rc) {
        skiff_error("profile: gathering the tables at MPI_Finalize failed; no report");
        return;
    }
    if (skiff.rank == 0)
        report(&job);
    skiff_prof_job_free(&job);
}

/* MPI_Pcontrol(0): calls from here on are not recorded. The span of the MPI_Pcontrol call itself sees
 * the profiler off when it closes, and leaves depth as it is: resuming starts depth afresh. */
void skiff_prof_pause(void)
{
    if (enabled && skiff_prof_on) {
        skiff_trace_pause();
        (void)busy_until(skiff_now(), 1);
    }
    skiff_prof_on = 0;
}

void skiff_prof_resume(void)
{
    if (!enabled || skiff_prof_on)
        return;
    depth = 0;
    skiff_prof_on = 1;
    skiff_trace_resume();
}

/* MPI_Pcontrol(2): this rank's table so far, as a one-rank report of its own (the job's report needs
 * every rank, and MPI_Pcontrol is not collective). Numbered, so that each flush keeps its file. */
void skiff_prof_flush(void)
{
    static int flushes;
    if (!enabled || !skiff_cfg.profile)
        return;
    struct skiff_prof_rec *recs = malloc(SKIFF_PC_COUNT * sizeof *recs);
    if (!recs) {
        skiff_error("profile: out of memory for a partial report");
        return;
    }
    const struct skiff_prof_stat *table = sum_tables();
    double now = skiff_now();
    struct skiff_prof_head head = {now - init_start, busy_until(now, 0), 0};
    for (int id = 0; id < SKIFF_PC_COUNT; id++)
        if (table[id].calls)
            recs[head.nrecs++] = (struct skiff_prof_rec){(uint64_t)id, table[id]};
    size_t first = 0;
    struct skiff_prof_job job = {1, &head, &first, recs};
    char name[32], title[96], path[4200];
    job_name(name, sizeof name);
    flushes++;
    snprintf(title, sizeof title, "%s, rank %d alone, partial report %d (MPI_Pcontrol(2))", name, skiff.rank,
             flushes);
    if (skiff_cfg.profile_file)
        snprintf(path, sizeof path, "%s.rank%d.%d", skiff_cfg.profile_file, skiff.rank, flushes);
    else
        snprintf(path, sizeof path, "skiff-profile.%s.rank%d.%d.txt", name, skiff.rank, flushes);
    skiff_prof_report(&job, path, title);
    free(recs);
}
