/* The profiler's recorder: a fixed table indexed by call id, filled by the spans that SKIFF_ENTER
 * opens, and its start (MPI_Init) and end (MPI_Finalize). */
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

static struct skiff_prof_stat table[SKIFF_PC_COUNT];
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

enum skiff_prof_state skiff_prof_enter(void)
{
    if (depth++)
        return SKIFF_PROF_NESTED;
    call_start = skiff_now();
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
    if (skiff_cfg.profile)
        add_time(&table[s->id], skiff_now() - call_start);
    skiff_trace_call_end(s->id);
}

void skiff_prof_msg_slow(enum skiff_prof_call id, size_t bytes)
{
    skiff_trace_call_bytes(bytes);
    if (!skiff_cfg.profile)
        return;
    struct skiff_prof_stat *st = &table[id];
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
    memset(table, 0, sizeof table);
    depth = 0;
    init_start = t_enter;
    if (skiff_cfg.profile)
        add_time(&table[id], skiff_now() - t_enter);
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
    /* Counted, not timed: its work comes after the report, and the wall time ends where it starts. */
    add_time(&table[SKIFF_PC_MPI_Finalize], 0.0);
    skiff_prof_on = 0;
    depth = 0;
    struct skiff_prof_job job = {0};
    int rc = skiff_prof_gather(table, wall, &job);
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
    if (enabled && skiff_prof_on)
        skiff_trace_pause();
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
    struct skiff_prof_head head = {skiff_now() - init_start, 0};
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
