/* testutil.h — shared helpers for skiff's multi-rank MPI tests.
 *
 * Only standard MPI point-to-point calls are used (no collectives), so the suite also builds and
 * passes against MPICH: `mpicc.mpich -std=c11 -Wall -Wextra -Werror t.c && mpiexec.mpich -n 4
 * ./a.out`.
 *
 * Conventions:
 *   - Every failed CHECK prints "[rank R] file:line: ..." with expected and actual values and ends
 *     the job with MPI_Abort (or exit(1) outside Init..Finalize).
 *   - Tags >= TU_TAG_RESERVED belong to the helpers; tests use smaller tags.
 *   - tu_barrier() lets rank 0 speak first, so rank 0 may post fully wildcard receives
 *     (MPI_ANY_SOURCE + MPI_ANY_TAG) right up to a barrier without stealing barrier traffic.
 *     Other ranks must not hold such receives open across a barrier.
 *   - Rank 0 prints "OK <name>" as the last line on success.
 */
#ifndef SKIFF_TESTUTIL_H
#define SKIFF_TESTUTIL_H

#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c11 */

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TU_TAG_RESERVED 30000
#define TU_TAG_BARRIER 30001

/* ---------------------------------------------------------------- failure reporting */

static inline int tu_rank(void)
{
    int init = 0, fin = 0, rank = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/* Print the failure and end the whole job: a test that fails on one rank must not leave the
 * others blocked in a receive until the timeout. */
static inline void tu_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL [rank %d] %s:%d: ", tu_rank(), file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    fflush(stdout);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define TU_FAIL(...) tu_fail(__FILE__, __LINE__, __VA_ARGS__)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            TU_FAIL("CHECK(%s) failed", #cond);                                                    \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond))                                                                               \
            TU_FAIL(__VA_ARGS__);                                                                  \
    } while (0)

/* Integer comparisons print both sides; evaluated once, widened to long long. */
#define CHECK_EQ(expected, actual)                                                                 \
    do {                                                                                           \
        long long e_ = (long long)(expected), a_ = (long long)(actual);                            \
        if (e_ != a_)                                                                              \
            TU_FAIL("CHECK_EQ(%s, %s): expected %lld, got %lld", #expected, #actual, e_, a_);      \
    } while (0)

#define CHECK_NE(unexpected, actual)                                                               \
    do {                                                                                           \
        long long e_ = (long long)(unexpected), a_ = (long long)(actual);                          \
        if (e_ == a_)                                                                              \
            TU_FAIL("CHECK_NE(%s, %s): both are %lld", #unexpected, #actual, a_);                  \
    } while (0)

#define CHECK_GE(lower, actual)                                                                    \
    do {                                                                                           \
        double l_ = (double)(lower), a_ = (double)(actual);                                        \
        if (!(a_ >= l_))                                                                           \
            TU_FAIL("CHECK_GE(%s, %s): expected >= %g, got %g", #lower, #actual, l_, a_);          \
    } while (0)

#define CHECK_LE(upper, actual)                                                                    \
    do {                                                                                           \
        double u_ = (double)(upper), a_ = (double)(actual);                                        \
        if (!(a_ <= u_))                                                                           \
            TU_FAIL("CHECK_LE(%s, %s): expected <= %g, got %g", #upper, #actual, u_, a_);          \
    } while (0)

/* An MPI call that must succeed; on failure show the library's own error text. */
#define CHECK_MPI(call)                                                                            \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_ != MPI_SUCCESS) {                                                                  \
            char s_[MPI_MAX_ERROR_STRING] = "";                                                    \
            int l_ = 0;                                                                            \
            MPI_Error_string(rc_, s_, &l_);                                                        \
            TU_FAIL("%s: expected MPI_SUCCESS, got %d (%s)", #call, rc_, s_);                      \
        }                                                                                          \
    } while (0)

/* Status checks used everywhere: source, tag and received byte count. */
#define CHECK_STATUS(st, src, tg, nbytes)                                                          \
    do {                                                                                           \
        int n_ = -1;                                                                               \
        CHECK_EQ((src), (st).MPI_SOURCE);                                                          \
        CHECK_EQ((tg), (st).MPI_TAG);                                                              \
        CHECK_MPI(MPI_Get_count(&(st), MPI_BYTE, &n_));                                            \
        CHECK_EQ((nbytes), n_);                                                                    \
    } while (0)

/* ---------------------------------------------------------------- small utilities */

/* MPI_STATUSES_IGNORE laundered through a volatile: GCC's -Wstringop-overflow otherwise flags
 * MPICH's (MPI_Status *)1 passed to an array parameter, a false positive under -Werror. The value
 * the library sees is exactly MPI_STATUSES_IGNORE. */
static inline MPI_Status *tu_statuses_ignore(void)
{
    MPI_Status *volatile p = MPI_STATUSES_IGNORE;
    return p;
}
#define TU_STATUSES_IGNORE tu_statuses_ignore()

static inline int tu_size(void)
{
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

static inline void tu_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* Between two polls (MPI_Test, MPI_Iprobe) that found nothing yet. The rank we wait for may not be
 * running: ranks can outnumber the cores and the machine may be busy. A short bare poll first, where an
 * answer from a running peer lands; then a nap per poll, so the core goes to the ranks that have work
 * (a rank that wakes from a nap is scheduled at once, whereas a yield hands its turn to any busy
 * process). Progress is not lost: every poll still drives the library. Reset *polls to 0 per wait. */
static inline void tu_poll_pause(unsigned *polls)
{
    if (++*polls < 64)
        return;
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
}

static inline void *tu_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK_MSG(p != NULL, "malloc(%zu) failed", n);
    return p;
}

/* Barrier from point-to-point: rank 0 announces, everyone checks in, rank 0 releases.
 * Rank 0 sends first so that its own pending wildcard receives cannot match barrier traffic. */
static inline void tu_barrier(void)
{
    int rank = tu_rank(), size = tu_size();
    char token = 0;
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, r, TU_TAG_BARRIER, MPI_COMM_WORLD));
        for (int r = 1; r < size; r++)
            CHECK_MPI(MPI_Recv(&token, 1, MPI_CHAR, r, TU_TAG_BARRIER, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        for (int r = 1; r < size; r++)
            CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, r, TU_TAG_BARRIER, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(
            MPI_Recv(&token, 1, MPI_CHAR, 0, TU_TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, 0, TU_TAG_BARRIER, MPI_COMM_WORLD));
        CHECK_MPI(
            MPI_Recv(&token, 1, MPI_CHAR, 0, TU_TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
}

/* ---------------------------------------------------------------- MPI_T counters */

/* One of skiff's MPI_T counters by name (MPI_T_init_thread in tu_counter_open, MPI_T_finalize in
 * tu_counter_close), for tests that check which path a transfer took. Under a library without the
 * counter (MPICH, Open MPI) tu_counter_on is 0 and every read gives 0. */
struct tu_counter {
    MPI_T_pvar_session session;
    MPI_T_pvar_handle handle;
};

static inline void tu_counter_open(struct tu_counter *c, const char *name)
{
    int provided, index, count;
    c->handle = MPI_T_PVAR_HANDLE_NULL;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) != MPI_SUCCESS)
        return;
    CHECK_MPI(MPI_T_pvar_session_create(&c->session));
    CHECK_MPI(MPI_T_pvar_handle_alloc(c->session, index, NULL, &c->handle, &count));
    CHECK_MPI(MPI_T_pvar_start(c->session, c->handle));
}

static inline int tu_counter_on(const struct tu_counter *c)
{
    return c->handle != MPI_T_PVAR_HANDLE_NULL;
}

static inline unsigned long long tu_counter_read(struct tu_counter *c)
{
    unsigned long long v = 0;
    if (tu_counter_on(c))
        CHECK_MPI(MPI_T_pvar_read(c->session, c->handle, &v));
    return v;
}

static inline void tu_counter_close(struct tu_counter *c)
{
    if (tu_counter_on(c)) {
        CHECK_MPI(MPI_T_pvar_handle_free(c->session, &c->handle));
        CHECK_MPI(MPI_T_pvar_session_free(&c->session));
    }
    CHECK_MPI(MPI_T_finalize());
}

/* ---------------------------------------------------------------- payload patterns */

/* Seed mixing (size, sender rank, iteration, ...) so that a message delivered to the wrong
 * receive, or stale data from a previous iteration, fails verification. */
static inline uint32_t tu_seed(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    uint64_t v[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) {
        h ^= v[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
    }
    return (uint32_t)h;
}

/* Byte i depends on the whole offset (not just i mod 256), so a chunk copied to the wrong
 * place in a pipelined transfer is detected as well as a wrong byte. */
static inline uint8_t tu_byte(size_t i, uint32_t seed)
{
    uint32_t v = (uint32_t)i * 2654435761u + seed;
    v ^= (uint32_t)(i >> 16) * 40503u;
    return (uint8_t)((v >> 24) ^ v);
}

static inline void tu_fill(void *buf, size_t n, uint32_t seed)
{
    uint8_t *p = buf;
    for (size_t i = 0; i < n; i++)
        p[i] = tu_byte(i, seed);
}

/* Check every byte; report the first mismatch and how many bytes differ. */
#define CHECK_PATTERN(buf, n, seed) tu_check_pattern(__FILE__, __LINE__, (buf), (n), (seed))
static inline void tu_check_pattern(const char *file, int line, const void *buf, size_t n,
                                    uint32_t seed)
{
    const uint8_t *p = buf;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != tu_byte(i, seed)) {
            if (bad++ == 0)
                first = i;
        }
    }
    if (bad)
        tu_fail(file, line,
                "payload of %zu bytes: %zu bytes wrong, first at offset %zu: "
                "expected 0x%02x, got 0x%02x",
                n, bad, first, tu_byte(first, seed), p[first]);
}

/* Guard bytes after a receive buffer: a receive must never write past its count. */
#define TU_GUARD 64
#define TU_GUARD_BYTE 0xA5
static inline void tu_set_guard(void *buf, size_t n)
{
    memset((uint8_t *)buf + n, TU_GUARD_BYTE, TU_GUARD);
}
#define CHECK_GUARD(buf, n)                                                                        \
    do {                                                                                           \
        const uint8_t *g_ = (const uint8_t *)(buf) + (n);                                          \
        for (int i_ = 0; i_ < TU_GUARD; i_++)                                                      \
            CHECK_MSG(g_[i_] == TU_GUARD_BYTE,                                                     \
                      "guard byte %d after %zu-byte buffer overwritten: expected 0x%02x, got "     \
                      "0x%02x",                                                                    \
                      i_, (size_t)(n), TU_GUARD_BYTE, g_[i_]);                                     \
    } while (0)

/* ---------------------------------------------------------------- start / finish */

static inline void tu_init(int *argc, char ***argv)
{
    CHECK_MPI(MPI_Init(argc, argv));
}

/* Tests that need a peer still pass at np=1, and say why. Returns 1 if the caller should skip. */
static inline int tu_need_ranks(int n, const char *name)
{
    if (tu_size() >= n)
        return 0;
    if (tu_rank() == 0)
        printf("%s: needs >= %d ranks, np=%d: nothing to check (trivial pass)\n", name, n,
               tu_size());
    return 1;
}

/* Final synchronisation, then rank 0 reports success. */
static inline int tu_finish(const char *name)
{
    tu_barrier();
    int rank = tu_rank();
    CHECK_MPI(MPI_Finalize());
    if (rank == 0) {
        printf("OK %s\n", name);
        fflush(stdout);
    }
    return 0;
}

/* argv helpers: positional integer with default. */
static inline long tu_arg_long(int argc, char **argv, int idx, long dflt)
{
    if (idx < argc && argv[idx][0] != '\0')
        return strtol(argv[idx], NULL, 0);
    return dflt;
}

#endif /* SKIFF_TESTUTIL_H */
