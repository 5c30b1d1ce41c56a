/* soak.h — shared types of the randomized traffic generator (see soak.c for the overview).
 *
 * Only the standard MPI API and C11 (plus POSIX alarm/nanosleep) are used, so the generator also
 * builds with other MPI implementations:
 *   mpicc.mpich -std=c11 -Wall -Wextra -Werror -o soak tests/soak/{soak,schedule,p2p,coll,payload}.c
 *   mpiexec.mpich -n 4 ./soak --seconds 5
 */
#ifndef SKIFF_SOAK_H
#define SKIFF_SOAK_H

#define _POSIX_C_SOURCE 200809L /* alarm, nanosleep, sched_yield under -std=c11 */

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define SK_KIB ((size_t)1024)
#define SK_MIB ((size_t)1024 * 1024)
#define SK_HDR 32         /* payload header bytes; shorter messages carry none */
#define SK_GUARD 64       /* untouchable bytes after every receive buffer */
#define SK_GUARD_BYTE 0xA5
#define SK_GAP_BYTE 0x5A  /* holes of a vector-typed send buffer: never on the wire */
#define SK_MAX_OVER 2     /* nonblocking collectives overlapping one round's point-to-point */
#define SK_MAX_COLL 4     /* blocking collectives after it */
#define SK_BSEND_MSGS 32  /* buffered sends per rank and round */

/* ---------------------------------------------------------------- PRNG (splitmix64) */

static inline uint64_t sk_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A key from up to four numbers; order matters, so (sender, seq) and (seq, sender) differ. */
static inline uint64_t sk_key(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    return sk_mix(sk_mix(sk_mix(sk_mix(a) ^ b) ^ c) ^ d);
}

struct sk_rng {
    uint64_t s;
};

static inline uint64_t sk_next(struct sk_rng *r)
{
    r->s += 0x9e3779b97f4a7c15ull;
    return sk_mix(r->s);
}

/* Uniform in [0, n); n == 0 gives 0. The modulo bias is irrelevant for a test schedule. */
static inline uint64_t sk_below(struct sk_rng *r, uint64_t n)
{
    return n ? sk_next(r) % n : 0;
}

static inline int sk_chance(struct sk_rng *r, int percent)
{
    return (int)sk_below(r, 100) < percent;
}

/* ---------------------------------------------------------------- options and run state */

struct sk_opts {
    uint64_t seed;
    double seconds;    /* 0: no time limit */
    long rounds;       /* 0: no round limit */
    long first_round;
    size_t max_bytes;
    double hang;       /* a round taking longer than this is reported as a hang */
    int verbose;
    int no_dup;        /* keep all point-to-point traffic on MPI_COMM_WORLD */
    int inject;        /* self-test of the checks: enum sk_inject */
};

/* Faults the generator can inject into the first round, to show that it notices them. */
enum sk_inject { INJECT_NONE, INJECT_CORRUPT, INJECT_DROP };

struct sk_stats {
    long long messages, bytes, collectives;
};

/* ---------------------------------------------------------------- one round's schedule */

enum sk_send_mode { SM_SEND, SM_SSEND, SM_RSEND, SM_ISEND, SM_ISSEND, SM_IRSEND, SM_BSEND, SM_IBSEND, SM_COUNT };

/* How a receive is issued. EARLY ones are posted at the start of the round, before any send. */
enum sk_recv_how { RH_EARLY, RH_IRECV, RH_RECV, RH_PROBE, RH_IPROBE, RH_IRECV_TEST, RH_COUNT };

/* The receive's envelope: exact, one wildcard (which one is the receiver's per-round mode), both. */
enum sk_level { LV_EXACT, LV_PARTIAL, LV_ANY };

enum sk_complete { CM_WAIT, CM_WAITALL, CM_WAITANY, CM_WAITSOME, CM_TEST, CM_TESTALL, CM_TESTANY, CM_TESTSOME,
                   CM_COUNT };

struct sk_msg {
    int seq, src, dst, tag, comm; /* comm: 0 = MPI_COMM_WORLD, 1 = its duplicate */
    size_t n;                     /* payload bytes */
    int mode;                     /* enum sk_send_mode */
    int send_vec, recv_vec;       /* sent / received through the round's vector datatype */
    int level;                    /* enum sk_level */
    int how;                      /* enum sk_recv_how */
    int send_pos;                 /* position in the sender's send order */
    int recv_pos;                 /* position in the receiver's receive order */
    int class_pos;                /* position among messages of equal (comm, src, dst, tag), in send order */
    size_t cap;                   /* receive buffer bytes: the largest message the receive could match */
};

enum sk_coll_kind { C_BARRIER, C_BCAST, C_REDUCE, C_ALLREDUCE, C_GATHER, C_GATHERV, C_ALLGATHER, C_ALLTOALL,
                    C_ALLTOALLV, C_SCAN, C_IBARRIER, C_IBCAST, C_IALLREDUCE, C_IREDUCE, C_NKINDS };

/* Reduction flavours whose results are exact, so every rank can check them. */
enum sk_red { R_I64_SUM, R_I64_MAX, R_U64_BXOR, R_DBL_SUM, R_INT_MIN, R_COUNT };

struct sk_coll {
    int kind, on_sub, red, in_place;
    uint64_t root_pick; /* root = root_pick % communicator size */
    size_t count;       /* bytes (data movement) or elements (reductions); per rank or per pair */
    uint64_t key;       /* seeds every contribution */
};

struct sk_round {
    long round;
    int np, nmsg;
    struct sk_msg *m;
    int *early;        /* per receiver: how many of its receives are posted before the sends */
    int *wild_src;     /* per receiver: partial wildcards are (ANY_SOURCE, tag) if 1, (src, ANY_TAG) if 0 */
    int tag_range, vec_k, vec_gap, ready, complete;
    int need_sub, *color, *key; /* MPI_Comm_split of MPI_COMM_WORLD for the collectives */
    int nover, ncoll;
    struct sk_coll over[SK_MAX_OVER], coll[SK_MAX_COLL];
    size_t bytes;      /* payload bytes of all messages */
    const char *shape; /* traffic pattern, for -v */
};

/* ---------------------------------------------------------------- modules */

/* soak.c: failure reports (print "FAIL [rank R] seed=... round=..." and MPI_Abort) and the
 * description of the current operation that hang and error reports show. */
_Noreturn void sk_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sk_where(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sk_check_mpi(int rc, const char *call);
#define SK_MPI(call) sk_check_mpi((call), #call)
void *sk_alloc(size_t n);
void sk_relax(unsigned long *polls); /* inside polling loops: yield the CPU now and then */

extern const struct sk_opts *sk_opt;
extern int sk_rank, sk_np;
extern long sk_cur_round;

/* schedule.c */
struct sk_round *sk_schedule(const struct sk_opts *o, int np, long round);
void sk_schedule_free(struct sk_round *r);
void sk_schedule_print(const struct sk_round *r, int detail);
size_t sk_bsend_limit(size_t max_bytes); /* buffered-mode payload bytes per rank and round */
extern const char *const sk_mode_name[SM_COUNT];
extern const char *const sk_how_name[RH_COUNT];
extern const char *const sk_complete_name[CM_COUNT];
extern const char *const sk_coll_name[C_NKINDS];

/* payload.c: the byte stream of a message is a function of its key; messages of >= SK_HDR bytes
 * start with a header naming sender, round, sequence, length, tag and the checksum of the rest. */
struct sk_hdr {
    uint32_t sender, round, seq, len, tag;
    uint64_t body_sum;
};
struct sk_verdict {
    size_t bad, first; /* bytes that differ, the first of them */
    uint8_t want, got; /* at the first */
    uint64_t sum_want, sum_got;
};
uint64_t sk_msg_key(uint64_t seed, int sender, long round, int seq);
void sk_fill(uint8_t *buf, size_t n, uint64_t key, const struct sk_hdr *h); /* h->body_sum is computed */
void sk_fill_plain(uint8_t *buf, size_t n, uint64_t key);                   /* no header */
int sk_verify(const uint8_t *got, size_t n, uint64_t key, const struct sk_hdr *h, struct sk_verdict *v);
int sk_read_hdr(const uint8_t *buf, size_t n, struct sk_hdr *h);
size_t sk_untouched(const uint8_t *p, size_t n, uint8_t byte); /* offset of first byte != byte, or n */
uint64_t sk_log_uniform(struct sk_rng *r, uint64_t max);

/* p2p.c: one round's point-to-point traffic; the nonblocking collectives started before it
 * (over[i], NULL where this rank takes no part) complete among its requests. */
struct sk_coll_run;
void sk_p2p_round(const struct sk_round *r, MPI_Comm dup, struct sk_coll_run **over, struct sk_stats *st);
void sk_bsend_attach(void);
void sk_bsend_detach(void);

/* coll.c */
struct sk_group {
    MPI_Comm comm; /* MPI_COMM_NULL if this rank is not a member */
    int size, rank, *world; /* world[i]: MPI_COMM_WORLD rank of member i */
};
struct sk_coll_run; /* a started collective: buffers, request */
struct sk_coll_run *sk_coll_start(const struct sk_coll *c, const struct sk_group *g);
MPI_Request *sk_coll_request(struct sk_coll_run *run); /* NULL for blocking ones */
void sk_coll_finish(struct sk_coll_run *run);          /* verify and free */
void sk_group_world(struct sk_group *g);
void sk_group_split(struct sk_group *g, const struct sk_round *r);
void sk_group_free(struct sk_group *g);

#endif /* SKIFF_SOAK_H */
