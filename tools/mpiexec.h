/* Internal interfaces of skiff's mpiexec (tools/mpiexec*.c). Not installed. */
#ifndef SKIFF_MPIEXEC_H
#define SKIFF_MPIEXEC_H

#include <hwloc.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "boot/job_proto.h"

/* ---- options (mpiexec_options.c) ------------------------------------------------------------- */

/* How a rank on a host is started. */
enum launcher {
    LAUNCH_DEFAULT,     /* option not given: local for this host's names, else ssh */
    LAUNCH_LOCAL,       /* fork + exec on this machine, no prefix */
    LAUNCH_SSH,         /* prefix + one shell-quoted command string (ssh, or a template starting with ssh) */
    LAUNCH_TEMPLATE,    /* prefix + env + VAR=VAL... + program + args, as separate words */
};

/* How a rank reaches mpiexec's PMI server. */
enum pmi_channel { CHAN_DEFAULT, CHAN_FD, CHAN_PORT };

struct host {
    char *name;
    int slots;          /* 0 = not given */
};

struct options {
    int nranks;
    bool nranks_given;
    bool bind;          /* --bind-to core (default) vs none */
    bool tag_output;
    double timeout;     /* seconds; 0 = none */
    bool timeout_env;   /* timeout came from MPIEXEC_TIMEOUT, not --timeout */
    char **xvars;       /* -x arguments, VAR or VAR=VAL */
    int nxvars;
    char **argv;        /* program and its arguments (NULL-terminated) */
    bool profile;       /* --profile: SKIFF_PROFILE=1 for every rank */
    bool trace;         /* --trace: SKIFF_TRACE=1 for every rank */

    /* PMI mode: set by any of --hosts, --hostfile, --launcher, --launcher-template, --pmi. */
    bool pmi_mode;
    struct host *hosts; /* --hosts and --hostfile entries in order; none = this machine */
    int nhosts;
    int ppn;            /* -ppn; 0 = not given */
    enum launcher launcher;
    char **prefix;      /* --launcher-template words, "{host}" not yet replaced; NULL-ended; NULL for
                         * --launcher ssh|local and the default */
    enum pmi_channel channel;
    const char *pmi_host; /* --pmi-host */
    bool pmi_trace;     /* --pmi-trace: every PMI line in and out, on stderr */
};

void parse_options(int argc, char **argv, struct options *o);
void options_release(struct options *o);
_Noreturn void usage_error(const char *what, const char *arg);

/* ---- output forwarding (mpiexec_io.c) --------------------------------------------------------- */

/* One rank's stdout or stderr: a pipe read end plus the bytes of a line not yet forwarded. */
struct stream {
    int fd;             /* read end; -1 once closed */
    int dest;           /* 1 or 2: where its output goes */
    char *buf;
    size_t len, cap;
    double since;       /* when the partial line in buf began to wait (clock_now), or 0 */
    bool cut;           /* another stream's output ended our open line (see end_open_line) */
};

/* CLOCK_MONOTONIC in seconds: the clock of every deadline. */
static inline double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* tag: prefix lines with "[rank] "; end_partial: ranks could mix, so partial lines wait a little
 * and are ended by other streams' output and at EOF (mpiexec_io.c). */
void streams_configure(bool tag, bool end_partial);
void streams_release(void);
void stream_init(struct stream *s, int fd, int dest);
/* Reads what is available (once, or until EAGAIN when drain is set) and writes out complete lines,
 * and a partial line when it may go. Closes the stream at EOF or when its destination is gone. */
void stream_pump(struct stream *s, int rank, bool drain);
/* When the partial line held back in s should go out (clock_now seconds), or 0 if none waits. */
double stream_due(const struct stream *s);
/* Writes out the partial line held back in s. */
void stream_flush_partial(struct stream *s, int rank);
/* Writes out a final partial line and closes the stream. */
void stream_finish(struct stream *s, int rank);
/* True once writing to our fd 1 or 2 failed (the reader went away). */
bool output_broken(int fd);
/* Writes a whole message with one write() so it never splits a forwarded line. */
void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the job (mpiexec.c) and starting ranks (mpiexec_spawn.c) -------------------------------- */

struct rank {
    pid_t pid;          /* 0 until started (in PMI mode, the launcher's pid: the rank's own for local) */
    bool alive;         /* started and not yet reaped */
    struct stream out[2];
};

/* PMI mode: one node of the job, a host entry that got at least one rank. Two entries with the same
 * name are two nodes (the entry identifies the node, not the name). */
struct node {
    const char *host;
    enum launcher launcher;     /* resolved: LOCAL, SSH or TEMPLATE */
    enum pmi_channel channel;   /* resolved: FD or PORT */
    int first, count;           /* its ranks: first .. first+count-1 */
};

enum phase {
    PHASE_RUNNING,      /* no failure yet */
    PHASE_TERMINATING,  /* SIGTERM (or a forwarded signal) sent; SIGKILL at kill_at */
    PHASE_KILLING,      /* SIGKILL sent; giving up on stray pipes at give_up_at */
};

struct pmi_server;

struct job {
    struct options opt;
    pid_t self;
    uint64_t jobid, secret;
    int memfd;                  /* one host only; -1 in PMI mode */
    struct skiff_job_header *hdr;

    /* PMI mode only (pmi == NULL otherwise): placement and the PMI-1 server. */
    struct pmi_server *pmi;
    struct node *nodes;
    int nnodes;
    int nlocal;                 /* ranks started with LAUNCH_LOCAL (they share this machine's cores) */
    char hostname[256];         /* gethostname() */
    char *cwd;                  /* where remote ranks start */

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

/* Draws the job id and the secret. Returns false (with a message) on failure. */
bool job_identity_create(struct job *job);
/* Creates and maps the job memfd (one host). Returns false (with a message) on failure. */
bool job_segment_create(struct job *job);
void job_segment_release(struct job *job);
/* Loads the topology and decides node_cpus and the binding targets. Never fatal. */
void job_topology_load(struct job *job);
/* Starts rank r. Returns 0; an errno > 0 if the program could not be run (the child is reaped);
 * -errno if mpiexec itself could not create the pipes or fork. */
int rank_spawn(struct job *job, int r);
/* For a rank that exited without joining the job: the MPI library other than skiff's that the
 * program is linked with (a path, as ldd would show it), or NULL for a plain program. */
const char *program_foreign_mpi(const struct job *job);
/* The PMI server's news that rank r called abort: ends the job as MPI_Abort does (mpiexec.c). */
void job_rank_aborted(struct job *job, int r);

/* ---- placement of a PMI-mode job (mpiexec_place.c) ------------------------------------------- */

/* Decides nranks (if not given), the nodes with their launchers and PMI channels. Exits with a
 * usage error when the ranks do not fit. */
void placement_build(struct job *job);
void placement_release(struct job *job);
/* The node that runs rank r. */
int rank_node(const struct job *job, int r);
/* Rank r's binding slot among the ranks started locally (they share this machine's cores), or -1
 * if it is started through a launcher. */
int rank_local_slot(const struct job *job, int r);
/* PMI_process_mapping, as MPICH's Hydra writes it: "(vector,(first_node,nodes,ranks_per_node),...)". */
char *placement_mapping(const struct job *job);
/* The nodes' host names in node order, comma-separated (the "skiff-hosts" key). */
char *placement_hostlist(const struct job *job);
const char *rank_host(const struct job *job, int r);

/* ---- the command that starts a rank in PMI mode (mpiexec_launch.c) --------------------------- */

/* In the child: sets rank r's environment and execs its command (launcher prefix or the program
 * itself). pmi_fd is the rank's end of its PMI socket, or -1 for a PMI_PORT rank. Returns only on
 * failure, with errno set. */
void launch_exec(const struct job *job, int r, int pmi_fd);
/* What launch_exec runs first (for "cannot run 'X'"). */
const char *launch_name(const struct job *job, int r);

/* ---- the PMI-1 server (mpiexec_pmi.c) --------------------------------------------------------- */

/* Creates the key-value space with its pre-filled keys and, if any node uses PMI_PORT, the listening
 * socket. False (with a message) on failure. */
bool pmi_start(struct job *job);
void pmi_stop(struct job *job);
/* The TCP port ranks connect to (PMI_PORT), or 0 when there is no listening socket. */
int pmi_port(const struct job *job);
/* Hands the server its end of rank r's socketpair (PMI_FD): already bound to r. */
void pmi_attach(struct job *job, int r, int fd);
/* The server's part of the event loop: pmi_poll_size() entries, filled and handled in place. */
int pmi_poll_size(const struct job *job);
void pmi_poll_fill(const struct job *job, struct pollfd *pfd);
void pmi_poll_handle(struct job *job, const struct pollfd *pfd);
/* Before rank r's end is judged: reads what it (or a connection not yet identified) still sent. */
void pmi_catch_up(struct job *job, int r);
/* What rank r told the server: an enum skiff_rank_state, its abort code, whether it waits in the
 * PMI barrier. */
uint32_t pmi_rank_state(const struct job *job, int r, int *abort_code, bool *in_barrier);

/* ---- the PMI key-value space (mpiexec_kvs.c) -------------------------------------------------- */

struct kvs;
struct kvs *kvs_new(void);
void kvs_free(struct kvs *k);
/* 0: stored, or already there with the same value; 1: there with another value; -1: out of memory
 * or full. */
int kvs_put(struct kvs *k, const char *key, const char *value);
const char *kvs_get(const struct kvs *k, const char *key);

#endif
