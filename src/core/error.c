#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/comm.h"
#include "core/core.h"
#include "core/errhandler.h"
#include "util/arch.h"
#include "util/log.h"

__thread const char *skiff_call __attribute__((tls_model("initial-exec"))) = "MPI";

#define SLOTS 127 /* class | slot << 7 stays within MPI_ERR_LASTCODE (0x3fff) */
#define CLASS_BITS 7

/* Messages of recent errors, one slot each. A thread claims its slot with one atomic add and writes only
 * there, so errors raised at once in several threads do not share a slot (up to SLOTS of them). */
static struct {
    char msg[SLOTS][MPI_MAX_ERROR_STRING];
    unsigned next;
} ring;

/* One row per class: the text MPI_Error_string gives for a bare class. */
#define SKIFF_ERROR_CLASSES(X)                                                                          \
    X(MPI_SUCCESS, "no error")                                                                          \
    X(MPI_ERR_BUFFER, "invalid buffer")                                                                 \
    X(MPI_ERR_COUNT, "invalid count")                                                                   \
    X(MPI_ERR_TYPE, "invalid datatype")                                                                 \
    X(MPI_ERR_TAG, "invalid tag")                                                                       \
    X(MPI_ERR_COMM, "invalid communicator")                                                             \
    X(MPI_ERR_RANK, "invalid rank")                                                                     \
    X(MPI_ERR_REQUEST, "invalid request")                                                               \
    X(MPI_ERR_ROOT, "invalid root")                                                                     \
    X(MPI_ERR_GROUP, "invalid group")                                                                   \
    X(MPI_ERR_OP, "invalid operation")                                                                  \
    X(MPI_ERR_TOPOLOGY, "invalid topology")                                                             \
    X(MPI_ERR_DIMS, "invalid dimensions")                                                               \
    X(MPI_ERR_ARG, "invalid argument")                                                                  \
    X(MPI_ERR_UNKNOWN, "unknown error")                                                                 \
    X(MPI_ERR_TRUNCATE, "message truncated")                                                            \
    X(MPI_ERR_OTHER, "other error")                                                                     \
    X(MPI_ERR_INTERN, "internal error")                                                                 \
    X(MPI_ERR_PENDING, "request pending")                                                               \
    X(MPI_ERR_IN_STATUS, "error code in status")                                                        \
    X(MPI_ERR_KEYVAL, "invalid keyval")                                                                 \
    X(MPI_ERR_INFO_KEY, "invalid info key")                                                             \
    X(MPI_ERR_INFO_VALUE, "invalid info value")                                                         \
    X(MPI_ERR_INFO_NOKEY, "no such key in the info object")                                             \
    X(MPI_ERR_INFO, "invalid info object")                                                              \
    X(MPI_ERR_NO_MEM, "out of memory")                                                                  \
    X(MPI_ERR_UNSUPPORTED_OPERATION, "unsupported operation")                                           \
    X(MPI_ERR_PROC_ABORTED, "a process aborted")                                                        \
    X(MPI_ERR_ERRHANDLER, "invalid error handler")                                                     \
    X(MPI_ERR_ABI, "the ABI's Fortran settings cannot be changed")

static const char *class_text(int cls)
{
#define X(c, s)                                                                                         \
    case c:                                                                                             \
        return s;
    switch (cls) {
        SKIFF_ERROR_CLASSES(X)
    default:
        return cls > 0 && cls <= MPI_ERR_ABI ? "error" : NULL;
    }
#undef X
}

int skiff_err(int errclass, const char *fmt, ...)
{
    int slot = (int)(__atomic_fetch_add(&ring.next, 1, __ATOMIC_RELAXED) % SLOTS);
    char *m = ring.msg[slot];
    int n = snprintf(m, MPI_MAX_ERROR_STRING, "%s on rank %d: ", skiff_call, skiff.rank);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m + n, (size_t)(MPI_MAX_ERROR_STRING - n), fmt, ap);
    va_end(ap);
    return errclass | (slot + 1) << CLASS_BITS;
}

int skiff_err_class(int code)
{
    if (SKIFF_UNLIKELY(code > MPI_ERR_LASTCODE)) {
        int cls = skiff_err_user_class(code);
        return cls >= 0 ? cls : MPI_ERR_UNKNOWN;
    }
    return code & ((1 << CLASS_BITS) - 1);
}

int skiff_err_string(int code, char *str)
{
    int cls = skiff_err_class(code), slot = (code >> CLASS_BITS) - 1;
    if (code > MPI_ERR_LASTCODE) {
        const char *u = skiff_err_user_string(code);
        if (!u)
            return -1;
        snprintf(str, MPI_MAX_ERROR_STRING, "%s", u);
        return 0;
    }
    const char *t = class_text(cls);
    if (code < 0 || code > MPI_ERR_LASTCODE || !t)
        return -1;
    if (slot >= 0 && slot < SLOTS && ring.msg[slot][0])
        snprintf(str, MPI_MAX_ERROR_STRING, "%s", ring.msg[slot]);
    else
        snprintf(str, MPI_MAX_ERROR_STRING, "%s", t);
    return 0;
}

/* Says why on stderr, records how this rank ended for the launcher, and exits. */
static _Noreturn void end_job(int code, const char *why, enum skiff_rank_state state)
{
    skiff_error("%s: ending the job (exit code %d)", why, code);
    skiff_boot_set_state(state, code);
    /* Flush what the program printed so far; the launcher tears the other ranks down. */
    fflush(NULL);
    /* A PMIx launcher is asked to end the job with this code (it may kill us right here). A rank
     * that only lost a peer leaves the launcher to blame that peer. */
    if (state == SKIFF_RANK_ABORTED)
        skiff_boot_abort(code, why);
    _exit(code & 0xff ? code & 0xff : 1);
}

_Noreturn void skiff_abort_job(int code, const char *why)
{
    end_job(code, why, SKIFF_RANK_ABORTED);
}

_Noreturn void skiff_abort_job_peer_lost(const char *why)
{
    /* Nothing can progress without the peer, so sleeping costs nothing; a launcher that ends the job
     * meanwhile kills us here. */
    struct timespec ts = {SKIFF_DEAD_PEER_GRACE_MS / 1000, SKIFF_DEAD_PEER_GRACE_MS % 1000 * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    end_job(1, why, SKIFF_RANK_LOST_PEER); /* so the launcher blames the peer if it sees both */
}

int skiff_err_handle(struct skiff_comm *comm, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!comm)
        comm = skiff_comm_world.magic ? &skiff_comm_world : NULL;
    if (!comm)
        return skiff_eh_invoke(MPI_ERRORS_ARE_FATAL, SKIFF_EH_COMM, NULL, "(none)", code);
    /* The handler gets a copy: a user handler may write through its MPI_Comm pointer. */
    MPI_Comm h = comm->handle;
    return skiff_eh_invoke(comm->errhandler, SKIFF_EH_COMM, &h, skiff_comm_label(comm), code);
}
