/* Every SKIFF_* environment variable is read here, once, at MPI_Init: one table, one place. */
#ifndef SKIFF_CONFIG_H
#define SKIFF_CONFIG_H

#include "util/arch.h"

#include <stddef.h>

struct skiff_config {
    int debug;                  /* SKIFF_DEBUG: log level (0 errors only, 1 info, 2 debug) */
    int shm_cma;                /* SKIFF_SHM_CMA: -1 probe, 0 never, 1 require single-copy */
    size_t shm_eager;           /* SKIFF_SHM_EAGER: largest message sent eagerly (bytes) */
    size_t shm_fbox;            /* SKIFF_SHM_FBOX: bytes of each per-pair fast box ring */
    size_t shm_cell;            /* SKIFF_SHM_CELL: payload bytes of one queue cell */
    int shm_cells;              /* SKIFF_SHM_CELLS: cells owned by each rank */
    int spin;                   /* SKIFF_SPIN: polls before yielding (-1 = automatic) */
    int async_progress;         /* SKIFF_ASYNC_PROGRESS: 1 starts a progress thread in MPI_Init */
    double finalize_timeout;    /* SKIFF_FINALIZE_TIMEOUT: seconds MPI_Finalize waits for unmatched sends before withdrawing them */
    double progress_timeout;    /* SKIFF_PROGRESS_TIMEOUT: seconds blocked before a deadlock report (0 off) */
    int node_size;              /* SKIFF_NODE_SIZE: pretend nodes of this many ranks (0: the real hosts) */
    int barrier_ways;           /* SKIFF_BARRIER_N: messages per round of the dissemination barrier */
    int transports;             /* SKIFF_TRANSPORTS: skiff_transport_bit()s allowed */
    const char *tcp_nets;       /* SKIFF_TCP_NETS: CIDRs or interface names, comma-separated (NULL: all shared) */
    size_t tcp_eager;           /* SKIFF_TCP_EAGER: largest message sent eagerly over tcp */
    size_t tcp_piece;           /* SKIFF_TCP_PIECE: bytes of one striped piece of a large message */
    size_t ucx_eager;           /* SKIFF_UCX_EAGER: largest message sent eagerly over ucx */
    size_t ucx_piece;           /* SKIFF_UCX_PIECE: bytes of one piece of a large message over ucx */
    int ucx_rdma;               /* SKIFF_UCX_RDMA: 1 moves windows' put and get with UCX's RMA, 0 as messages */
    const char *ucx_fabric;     /* SKIFF_UCX_FABRIC: how auto asks UCX (NULL: probe; "ask"; else UCX's answer, for tests) */
    size_t tcp_sockbuf;         /* SKIFF_TCP_SOCKBUF: socket buffer bytes (0: kernel autotuning) */
    int profile;                /* SKIFF_PROFILE: 1 records every MPI call and writes a report at MPI_Finalize */
    const char *profile_file;   /* SKIFF_PROFILE_FILE: the report's path (NULL: skiff-profile.<job>.txt) */
    int trace;                  /* SKIFF_TRACE: 1 records every MPI call and its messages, one file per rank */
    const char *trace_file;     /* SKIFF_TRACE_FILE: the files' prefix, rank appended (NULL: skiff-trace.<job>) */
    size_t trace_records;       /* SKIFF_TRACE_RECORDS: records each rank keeps at most (40 bytes each) */
};

/* SKIFF_TRANSPORTS=auto, beside the bits of shm and tcp, until a job that spans nodes picks tcp or ucx
 * between them (ucx/load.c, called from core/transports.c). Above every transport's bit. */
#define SKIFF_TRANSPORTS_AUTO (1 << 30)

/* How a setting's text becomes its value. */
enum skiff_config_kind {
    SKIFF_CFG_SIZE,       /* size_t, bytes, with k/m suffixes, in [min, max] */
    SKIFF_CFG_INT,        /* int in [min, max] */
    SKIFF_CFG_AUTO_INT,   /* int in [min, max], or "auto": -1 */
    SKIFF_CFG_SECONDS,    /* double >= 0 */
    SKIFF_CFG_TRANSPORTS, /* bits of the list of transports (core/transports.h) from names */
    SKIFF_CFG_STRING,     /* const char *, NULL when unset or equal to the default's text */
};

/* One row per variable: the parser, skiff-info, MPI_T and docs/configuration.md's test all read it. */
struct skiff_config_row {
    const char *name;
    enum skiff_config_kind kind;
    const char *dflt;
    double min, max;
    size_t offset; /* of its field in struct skiff_config */
    const char *help;
};

extern SKIFF_HIDDEN struct skiff_config skiff_cfg;
extern const struct skiff_config_row skiff_config_table[];

/* Returns 0, or -1 with a message on stderr naming the bad variable. */
int skiff_config_load(void);

/* The value in force of r's setting as text (after rounding and clamping: what the library uses);
 * loads the configuration if nothing has yet. -1 when the environment holds an invalid value. */
int skiff_config_value(const struct skiff_config_row *r, char *out, size_t len);

/* Launcher-provided variables (rank, size, job fd, ...), read only by src/boot. */
const char *skiff_config_launch_var(const char *name);

#endif
