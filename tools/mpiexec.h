/* Internal interfaces of skiff's mpiexec (tools/mpiexec*.c). Not installed. */
#ifndef SKIFF_MPIEXEC_H
#define SKIFF_MPIEXEC_H

#include <hwloc.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "boot/job_proto.h"

/* ---- options ---------------------------------------------------------------------------------- */

struct options {
    int nranks;
    bool bind;          /* --bind-to core (default) vs none */
    bool tag_output;
    double timeout;     /* seconds; 0 = none */
    char **xvars;       /* -x arguments, VAR or VAR=VAL */
    int nxvars;
    char **argv;        /* program and its arguments (NULL-terminated) */
};

/* ---- output forwarding (mpiexec_io.c) --------------------------------------------------------- */

/* One rank's stdout or stderr: a pipe read end plus the bytes of a line not yet complete. */
struct stream {
    int fd;             /* read end; -1 once closed */
    int dest;           /* 1 or 2: where complete lines go */
    char *buf;
    size_t len, cap;
    bool midline;       /* part of the current line was already written (oversized line) */
    bool cut;           /* we ended an oversized line with our own newline (see emit) */
};

/* tag: prefix lines with "[rank] "; end_partial: terminate an unterminated last line with '\n'. */
void streams_configure(bool tag, bool end_partial);
void streams_release(void);
void stream_init(struct stream *s, int fd, int dest);
/* Reads what is available (once, or until EAGAIN when drain is set) and writes out complete lines.
 * Closes the stream at EOF or when its destination is gone. */
void stream_pump(struct stream *s, int rank, bool drain);
/* Writes out a final partial line and closes the stream. */
void stream_finish(struct stream *s, int rank);
/* True once writing to our fd 1 or 2 failed (the reader went away). */
bool output_broken(int fd);
/* Writes a whole message with one write() so it never splits a forwarded line. */
void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the job (mpiexec.c) and starting ranks (mpiexec_spawn.c) -------------------------------- */

struct rank {
    pid_t pid;          /* 0 until started */
    bool alive;         /* started and not yet reaped */
    struct stream out[2];
};

enum phase {
    PHASE_RUNNING,      /* no failure yet */
    PHASE_TERMINATING,  /* SIGTERM (or a forwarded signal) sent; SIGKILL at kill_at */
    PHASE_KILLING,      /* SIGKILL sent; giving up on stray pipes at give_up_at */
};

struct job {
    struct options opt;
    pid_t self;
    uint64_t jobid, secret;
    int memfd;
    struct skiff_job_header *hdr;

    hwloc_topology_t topo;      /* NULL if hwloc failed: no binding */
    int node_cpus;
    int ncores;                 /* binding targets available */
    hwloc_obj_type_t bind_type; /* HWLOC_OBJ_CORE, or PU where the topology has no cores */

    sigset_t orig_mask;          /* restored in ranks before exec */
    struct sigaction orig_pipe;  /* mpiexec ignores SIGPIPE; ranks get the original back */
    struct rlimit orig_nofile;   /* mpiexec raises its fd limit; ranks get the original back */
    int sigfd;

    struct rank *ranks;
    struct pid_rank { pid_t pid; int rank; } *by_pid; /* sorted by pid, built after spawning */
    int nalive;

    enum phase phase;
    bool have_status;
    int status;                 /* exit status once decided (first failure wins) */
    int term_signal;            /* signal that mpiexec received and re-raises at the end, or 0 */
    double timeout_at, kill_at, give_up_at; /* CLOCK_MONOTONIC seconds; 0 = not armed */
};

/* Fills jobid/secret, creates and maps the job memfd. Returns false (with a message) on failure. */
bool job_segment_create(struct job *job);
void job_segment_release(struct job *job);
/* Loads the topology and decides node_cpus and the binding targets. Never fatal. */
void job_topology_load(struct job *job);
/* Starts rank r. Returns 0; an errno > 0 if the program could not be run (the child is reaped);
 * -errno if mpiexec itself could not create the pipes or fork. */
int rank_spawn(struct job *job, int r);

#endif
