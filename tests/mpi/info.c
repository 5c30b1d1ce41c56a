/* info — info objects and info hints on communicators.
 *
 * Keys keep the order they were first set in (MPICH and Open MPI number them so too), setting a key again
 * replaces its value, MPI_Info_get cuts a value to valuelen characters, deleting a missing key is
 * MPI_ERR_INFO_NOKEY, a key of MPI_MAX_INFO_KEY characters is MPI_ERR_INFO_KEY and a value of
 * MPI_MAX_INFO_VAL characters MPI_ERR_INFO_VALUE, a dup is independent of its original, c2f/f2c round-trip
 * a user info, and 10000 infos made and freed leak nothing (the ASan build checks). MPI_INFO_ENV and
 * MPI_Info_create_env describe the program (started with the arguments "alpha beta", at
 * MPI_THREAD_FUNNELED, whose ABI value is not next to MPI_THREAD_SINGLE's). A communicator keeps
 * the assertions MPI_Comm_set_info gives it, MPI_Comm_dup passes them on, MPI_Comm_dup_with_info replaces
 * them.
 *
 * Also passes with MPICH 4 and Open MPI 4.1. Open MPI 4.1 (MPI 3.1) has no MPI_Info_get_string and no
 * MPI_Info_create_env: those parts need MPI_VERSION >= 4. What the standard leaves open is checked for
 * skiff only (SKIFF_MPI): the keys MPI_INFO_ENV has, what MPI_Comm_get_info reports, infos before
 * MPI_Init, the integer of a freed info. */
#include "testutil.h"

#define NLOOP 10000

static void expect_class(int rc, int cls, const char *what)
{
    int got = MPI_SUCCESS;
    CHECK_MSG(rc != MPI_SUCCESS, "%s succeeded", what);
    MPI_Error_class(rc, &got);
    CHECK_MSG(got == cls, "%s: error class %d, expected %d", what, got, cls);
}

static void check_value(MPI_Info info, const char *key, const char *want)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = 0, len = -1;
    CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag));
    CHECK_MSG(flag, "key %s is missing", key);
    CHECK_MSG(strcmp(buf, want) == 0, "key %s is \"%s\", expected \"%s\"", key, buf, want);
    CHECK_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    CHECK(flag);
    CHECK_EQ((long long)strlen(want), len);
}

static void check_absent(MPI_Info info, const char *key)
{
    char buf[8];
    int flag = 1, len = 0;
    CHECK_MPI(MPI_Info_get(info, key, (int)sizeof buf - 1, buf, &flag));
    CHECK_MSG(!flag, "key %s should be absent", key);
    CHECK_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    CHECK(!flag);
}

static void check_nthkey(MPI_Info info, int n, const char *want)
{
    char key[MPI_MAX_INFO_KEY + 1];
    CHECK_MPI(MPI_Info_get_nthkey(info, n, key));
    CHECK_MSG(strcmp(key, want) == 0, "key %d is \"%s\", expected \"%s\"", n, key, want);
}

static void set_get_delete(void)
{
    MPI_Info info;
    int n = -1, flag = 0;
    char buf[16];
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ(0, n);
    CHECK_MPI(MPI_Info_set(info, "first", "1"));
    CHECK_MPI(MPI_Info_set(info, "second", "two"));
    /* An empty value is a value (Open MPI 4.1 refuses it: it gets one there). */
#ifdef SKIFF_MPI
    const char *third = "";
#else
    const char *third = "3";
#endif
    CHECK_MPI(MPI_Info_set(info, "third", third));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ(3, n);
    check_nthkey(info, 0, "first");
    check_nthkey(info, 1, "second");
    check_nthkey(info, 2, "third");
    check_value(info, "second", "two");
    check_value(info, "third", third);
    check_absent(info, "fourth");
    check_absent(info, "Second"); /* keys are case sensitive */

    /* Setting again replaces the value where the key stands. */
    CHECK_MPI(MPI_Info_set(info, "first", "a much longer value"));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ(3, n);
    check_nthkey(info, 0, "first");
    check_value(info, "first", "a much longer value");

#ifdef SKIFF_MPI
    /* valuelen counts characters; the terminator comes on top. (MPICH 4.0 refuses a value longer than
     * valuelen instead of cutting it as the standard says.) */
    memset(buf, 'x', sizeof buf);
    CHECK_MPI(MPI_Info_get(info, "first", 6, buf, &flag));
    CHECK(flag);
    CHECK_MSG(strcmp(buf, "a much") == 0, "cut to 6: \"%s\"", buf);
    CHECK_EQ('x', buf[7]);
#else
    (void)buf;
    (void)flag;
#endif

    CHECK_MPI(MPI_Info_delete(info, "second"));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ(2, n);
    check_nthkey(info, 0, "first");
    check_nthkey(info, 1, "third");
    check_absent(info, "second");
    CHECK_MPI(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL);
}

#if MPI_VERSION >= 4
static void get_string(void)
{
    MPI_Info info;
    char buf[8];
    int flag = 0, buflen = 0;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "k", "0123456789"));
    /* buflen 0 asks for the size only (the standard lets value be NULL then; MPICH 4.0 refuses NULL). */
    CHECK_MPI(MPI_Info_get_string(info, "k", &buflen, buf, &flag));
    CHECK(flag);
    CHECK_EQ(11, buflen);
    buflen = (int)sizeof buf;
    CHECK_MPI(MPI_Info_get_string(info, "k", &buflen, buf, &flag));
    CHECK(flag);
    CHECK_EQ(11, buflen);
    CHECK_MSG(strcmp(buf, "0123456") == 0, "cut to 8 bytes: \"%s\"", buf);
    buflen = (int)sizeof buf;
    CHECK_MPI(MPI_Info_get_string(info, "missing", &buflen, buf, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Info_free(&info));
}
#endif

static void dup_is_independent(void)
{
    MPI_Info a, b;
    int n = 0;
    CHECK_MPI(MPI_Info_create(&a));
    CHECK_MPI(MPI_Info_set(a, "x", "1"));
    CHECK_MPI(MPI_Info_set(a, "y", "2"));
    CHECK_MPI(MPI_Info_dup(a, &b));
    CHECK(a != b);
    CHECK_MPI(MPI_Info_set(b, "x", "changed"));
    CHECK_MPI(MPI_Info_set(b, "z", "3"));
    CHECK_MPI(MPI_Info_delete(a, "y"));
    check_value(a, "x", "1");
    check_absent(a, "z");
    check_value(b, "x", "changed");
    check_value(b, "y", "2");
    CHECK_MPI(MPI_Info_get_nkeys(b, &n));
    CHECK_EQ(3, n);
    check_nthkey(b, 2, "z");
    CHECK_MPI(MPI_Info_free(&a));
    check_value(b, "y", "2");
    CHECK_MPI(MPI_Info_free(&b));
}

/* A string of n copies of c (n + 1 bytes in buf). */
static char *repeat(char *buf, char c, int n)
{
    memset(buf, c, (size_t)n);
    buf[n] = '\0';
    return buf;
}

/* Under the standard ABI MPI_MAX_INFO_KEY (256) and MPI_MAX_INFO_VAL (1024) count the terminator, so a
 * key or value of that many characters is one too long; MPICH's constants count characters only (a key
 * of MPI_MAX_INFO_KEY characters is fine there), so elsewhere one more is the first too long. */
#ifdef SKIFF_MPI
#define TOO_LONG 0
#else
#define TOO_LONG 1
#endif

static void errors(void)
{
    MPI_Info info;
    char *key = tu_malloc(MPI_MAX_INFO_KEY + 2), *val = tu_malloc(MPI_MAX_INFO_VAL + 2), out[MPI_MAX_INFO_KEY + 1];
    int flag = 0;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Info_create(&info));
    /* The longest key and value fit; one character more does not. */
    CHECK_MPI(MPI_Info_set(info, repeat(key, 'k', MPI_MAX_INFO_KEY - 1), repeat(val, 'v', MPI_MAX_INFO_VAL - 1)));
    check_value(info, key, val);
    CHECK_MPI(MPI_Info_get_nthkey(info, 0, out));
    CHECK(strcmp(out, key) == 0);
    expect_class(MPI_Info_set(info, repeat(key, 'k', MPI_MAX_INFO_KEY + TOO_LONG), "v"), MPI_ERR_INFO_KEY,
                 "MPI_Info_set with a key too long");
    expect_class(MPI_Info_set(info, "k", repeat(val, 'v', MPI_MAX_INFO_VAL + TOO_LONG)), MPI_ERR_INFO_VALUE,
                 "MPI_Info_set with a value too long");
    expect_class(MPI_Info_delete(info, "never set"), MPI_ERR_INFO_NOKEY, "MPI_Info_delete of a missing key");
    CHECK_NE(MPI_SUCCESS, MPI_Info_get_nthkey(info, 1, out));
    CHECK_NE(MPI_SUCCESS, MPI_Info_get_nthkey(info, -1, out));
#ifdef SKIFF_MPI
    expect_class(MPI_Info_get_nthkey(info, 1, out), MPI_ERR_ARG, "MPI_Info_get_nthkey past the end");
    expect_class(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY, "MPI_Info_set with an empty key");
    expect_class(MPI_Info_get(MPI_INFO_NULL, "k", 1, out, &flag), MPI_ERR_INFO, "MPI_Info_get on MPI_INFO_NULL");
    expect_class(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO, "MPI_Info_set on MPI_INFO_ENV");
#endif
    (void)flag;
    CHECK_MPI(MPI_Info_free(&info));
    free(key);
    free(val);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void fortran_integers(void)
{
    MPI_Info a, b;
    CHECK_MPI(MPI_Info_create(&a));
    CHECK_MPI(MPI_Info_create(&b));
    MPI_Fint fa = MPI_Info_c2f(a), fb = MPI_Info_c2f(b);
    CHECK(fa != fb);
    CHECK_EQ(fa, MPI_Info_c2f(a));
    CHECK(MPI_Info_f2c(fa) == a);
    CHECK(MPI_Info_f2c(fb) == b);
    CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL);
    CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_ENV)) == MPI_INFO_ENV);
    CHECK_MPI(MPI_Info_free(&a));
#ifdef SKIFF_MPI
    CHECK(MPI_Info_f2c(fa) == MPI_INFO_NULL); /* freed: its integer names nothing */
#endif
    CHECK(MPI_Info_f2c(fb) == b);
    CHECK_MPI(MPI_Info_free(&b));
}

/* Sets every key of an info the loop made on a fresh one: whatever an info holds must go with it. */
static void many(void)
{
    for (int i = 0; i < NLOOP; i++) {
        MPI_Info a, b;
        char v[32];
        snprintf(v, sizeof v, "%d", i);
        CHECK_MPI(MPI_Info_create(&a));
        CHECK_MPI(MPI_Info_set(a, "iteration", v));
        CHECK_MPI(MPI_Info_set(a, "other", "x"));
        CHECK_MPI(MPI_Info_dup(a, &b));
        CHECK_MPI(MPI_Info_delete(b, "other"));
        CHECK_MPI(MPI_Info_free(&a));
        if (i == NLOOP - 1)
            check_value(b, "iteration", v);
        CHECK_MPI(MPI_Info_free(&b));
    }
}

/* "a b" from argv[1..]. */
static void joined(int argc, char **argv, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            strncat(out, " ", len - strlen(out) - 1);
        strncat(out, argv[i], len - strlen(out) - 1);
    }
}

static void environment(int argc, char **argv)
{
    int n = -1, size = tu_size();
    CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    CHECK_GE(0, n);
#ifdef SKIFF_MPI
    char want[64], args[256];
    snprintf(want, sizeof want, "%d", size);
    check_value(MPI_INFO_ENV, "maxprocs", want);
    check_value(MPI_INFO_ENV, "command", argv[0]);
    joined(argc, argv, args, sizeof args);
    check_value(MPI_INFO_ENV, "argv", args);
    check_value(MPI_INFO_ENV, "thread_level", "MPI_THREAD_FUNNELED"); /* what main asked for and got */
    int flag = 0, len = 0;
    CHECK_MPI(MPI_Info_get_valuelen(MPI_INFO_ENV, "host", &len, &flag));
    CHECK(flag && len > 0);
    CHECK_MPI(MPI_Info_get_valuelen(MPI_INFO_ENV, "wdir", &len, &flag));
    CHECK(flag && len > 0);
    CHECK_MPI(MPI_Info_get_valuelen(MPI_INFO_ENV, "arch", &len, &flag));
    CHECK(flag && len > 0);
#else
    (void)size;
#endif
#if MPI_VERSION >= 4
    /* MPICH 4.0 gives an empty info here (and an empty MPI_INFO_ENV). */
    MPI_Info env;
    CHECK_MPI(MPI_Info_create_env(argc, argv, &env));
#ifdef SKIFF_MPI
    char args2[256];
    check_value(env, "command", argv[0]);
    joined(argc, argv, args2, sizeof args2);
    check_value(env, "argv", args2);
#endif
    CHECK_MPI(MPI_Info_free(&env));
#endif
#ifndef SKIFF_MPI
    (void)argc;
    (void)argv;
    (void)joined;
#endif
}

/* The assertion hints a communicator holds: "true" when set (skiff reports all four, "false" for the
 * others; MPICH and Open MPI report what they keep, so elsewhere only a reported value is compared). */
static void check_hint(MPI_Comm comm, const char *key, int want)
{
    MPI_Info used;
    char buf[16];
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_info(comm, &used));
    CHECK_MPI(MPI_Info_get(used, key, (int)sizeof buf - 1, buf, &flag));
#ifdef SKIFF_MPI
    CHECK_MSG(flag, "MPI_Comm_get_info has no %s", key);
#endif
    if (flag)
        CHECK_MSG(strcmp(buf, want ? "true" : "false") == 0, "%s is \"%s\", expected %s", key, buf,
                  want ? "true" : "false");
    CHECK_MPI(MPI_Info_free(&used));
}

static void comm_hints(void)
{
    MPI_Comm a, b, c;
    MPI_Info info;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    check_hint(a, "mpi_assert_no_any_tag", 0);
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Info_set(info, "a_key_no_mpi_knows", "whatever"));
    CHECK_MPI(MPI_Comm_set_info(a, info));
    CHECK_MPI(MPI_Info_free(&info));
    check_hint(a, "mpi_assert_no_any_tag", 1);
    check_hint(a, "mpi_assert_no_any_source", 0);

    CHECK_MPI(MPI_Comm_dup(a, &b)); /* MPI-4: a duplicate keeps the hints */
#ifdef SKIFF_MPI
    check_hint(b, "mpi_assert_no_any_tag", 1);
#endif

    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_allow_overtaking", "true"));
    CHECK_MPI(MPI_Comm_dup_with_info(a, info, &c)); /* ... unless given others */
    CHECK_MPI(MPI_Info_free(&info));
    check_hint(c, "mpi_assert_allow_overtaking", 1);
    check_hint(c, "mpi_assert_no_any_tag", 0);

    /* Traffic on c is still ordinary traffic. */
    int rank = 0, size = tu_size(), got = -1;
    MPI_Comm_rank(c, &rank);
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 7, &got, 1, MPI_INT, (rank + size - 1) % size, 7, c,
                           MPI_STATUS_IGNORE));
    CHECK_EQ((rank + size - 1) % size, got);
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK_MPI(MPI_Comm_free(&b));
    CHECK_MPI(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
#ifdef SKIFF_MPI
    /* MPI-4 lets info objects be made before MPI_Init (MPICH 4.0 and Open MPI 4.1 do not all). */
    MPI_Info early;
    int n = 0;
    CHECK_MPI(MPI_Info_create(&early));
    CHECK_MPI(MPI_Info_set(early, "made", "before MPI_Init"));
#endif
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    CHECK_GE(MPI_THREAD_FUNNELED, provided);
#ifdef SKIFF_MPI
    check_value(early, "made", "before MPI_Init");
    CHECK_MPI(MPI_Info_get_nkeys(early, &n));
    CHECK_EQ(1, n);
    CHECK_MPI(MPI_Info_free(&early));
#endif
    set_get_delete();
#if MPI_VERSION >= 4
    get_string();
#endif
    dup_is_independent();
    errors();
    fortran_integers();
    many();
    environment(argc, argv);
    comm_hints();
    tu_barrier();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("OK info\n");
    MPI_Finalize();
    return 0;
}
