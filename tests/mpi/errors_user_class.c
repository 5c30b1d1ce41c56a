/* errors_user_class — error classes, codes and strings the program adds:
 *   - MPI_Add_error_class gives values above MPI_ERR_LASTCODE, distinct, each its own class;
 *     MPI_Add_error_code gives codes whose MPI_Error_class is the class they were added to (an added
 *     class or a predefined one);
 *   - MPI_Error_string gives "" until MPI_Add_error_string sets a string, which a second call
 *     replaces; classes take strings too;
 *   - the MPI_LASTUSEDCODE attribute of MPI_COMM_WORLD is at least every class added (with skiff,
 *     every code too);
 *   - the calls are local: each rank adds a different number of classes and codes (rank + 1), and
 *     500 codes with their strings read back;
 *   - a user handler receives an added code from MPI_Comm_call_errhandler and can read its string;
 *   - MPI-4.1's MPI_Remove_error_string/_code/_class: after them the values are no longer error
 *     codes (MPI_Error_class refuses them with MPI_ERR_ARG). MPICH 4.0 and Open MPI 4.1 predate
 *     them: that part runs only where MPI_VERSION says 4.1 or later;
 *   - (skiff) MPI-4.1 allows the calls before MPI_Init and after MPI_Finalize. */
#include "testutil.h"

#define NAME "errors_user_class"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
#define HAVE_REMOVE 1
#endif

static int class_of(int code)
{
    int cls = -1;
    CHECK_MPI(MPI_Error_class(code, &cls));
    return cls;
}

static void expect_string(int line, int code, const char *want)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = -1;
    memset(s, 'x', sizeof s);
    CHECK_MPI(MPI_Error_string(code, s, &len));
    if (strcmp(s, want) != 0 || len != (int)strlen(want))
        tu_fail(__FILE__, line, "MPI_Error_string(%d) = \"%s\" (len %d), want \"%s\"", code, s, len, want);
}
#define EXPECT_STRING(code, want) expect_string(__LINE__, (code), (want))

static int lastused(void)
{
    int *v = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag && v);
    return *v;
}

static int seen_code;
static char seen_string[MPI_MAX_ERROR_STRING];

static void handler(MPI_Comm *comm, int *code, ...)
{
    int len;
    (void)comm;
    seen_code = *code;
    MPI_Error_string(*code, seen_string, &len);
}

static void basics(int rank)
{
    int cls, cls2, code, code2, argcode;
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_class(&cls2));
    CHECK_GE(MPI_ERR_LASTCODE, cls);
    CHECK_NE(cls, cls2);
#ifndef OPEN_MPI /* Open MPI 4.1 answers MPI_ERR_UNKNOWN for an added class: it keeps classes apart from codes */
    CHECK_EQ(cls, class_of(cls));
    CHECK_EQ(cls2, class_of(cls2));
#endif
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Add_error_code(cls, &code2));
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &argcode));
    CHECK_NE(code, code2);
    CHECK_NE(code, cls);
    CHECK_EQ(cls, class_of(code));
    CHECK_EQ(cls, class_of(code2));
    CHECK_EQ(MPI_ERR_ARG, class_of(argcode));
    /* The standard puts added classes above MPI_ERR_LASTCODE and bounds the attribute by them; codes
     * may be numbered otherwise (MPICH gives a code of MPI_ERR_ARG a value below it). */
    CHECK_GE(cls2, lastused());

    EXPECT_STRING(code, "");
    char text[64];
    snprintf(text, sizeof text, "disk on fire (rank %d)", rank);
    CHECK_MPI(MPI_Add_error_string(code, text));
    EXPECT_STRING(code, text);
    CHECK_MPI(MPI_Add_error_string(code, "replaced"));
    EXPECT_STRING(code, "replaced");
    CHECK_MPI(MPI_Add_error_string(cls, "the fire class"));
    EXPECT_STRING(cls, "the fire class");
    EXPECT_STRING(code2, "");

    /* Through a user handler. */
    MPI_Errhandler eh;
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(d, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_call_errhandler(d, code));
    CHECK_EQ(code, seen_code);
    CHECK(strcmp(seen_string, "replaced") == 0);
    CHECK_MPI(MPI_Comm_free(&d));

#ifdef HAVE_REMOVE
    CHECK_MPI(MPI_Remove_error_string(code));
    EXPECT_STRING(code, "");
    CHECK_MPI(MPI_Remove_error_code(code));
    CHECK_MPI(MPI_Remove_error_code(code2));
    CHECK_MPI(MPI_Remove_error_code(argcode));
    CHECK_MPI(MPI_Remove_error_string(cls));
    CHECK_MPI(MPI_Remove_error_class(cls));
    CHECK_MPI(MPI_Remove_error_class(cls2));
    int got = -1;
    CHECK_EQ(MPI_ERR_ARG, class_of(MPI_Error_class(code, &got)));
    CHECK_EQ(MPI_ERR_ARG, class_of(MPI_Error_class(cls, &got)));
    CHECK_GE(cls2, lastused());
#endif
}

/* Each rank adds its own number of classes; then many codes with strings. */
static void local_and_many(int rank)
{
    enum { N = 500 };
    int classes[8], codes[N];
    int n = rank % 8 + 1;
    for (int i = 0; i < n; i++) {
        CHECK_MPI(MPI_Add_error_class(&classes[i]));
        for (int j = 0; j < i; j++)
            CHECK_NE(classes[j], classes[i]);
    }
    for (int i = 0; i < N; i++) {
        char s[32];
        CHECK_MPI(MPI_Add_error_code(classes[i % n], &codes[i]));
        snprintf(s, sizeof s, "code %d of rank %d", i, rank);
        CHECK_MPI(MPI_Add_error_string(codes[i], s));
    }
    for (int i = 0; i < N; i++) {
        char s[32];
        snprintf(s, sizeof s, "code %d of rank %d", i, rank);
        EXPECT_STRING(codes[i], s);
        CHECK_EQ(classes[i % n], class_of(codes[i]));
#ifdef SKIFF_MPI
        CHECK_GE(codes[i], lastused());
#endif
    }
}

#ifdef SKIFF_MPI
/* MPI-4.1 lets these calls be made at any time (its table of functions always available); MPICH 4.0
 * and Open MPI 4.1 predate that. Outside MPI_Init..MPI_Finalize the test cannot use tu_fail (it asks
 * for the rank): it prints and exits. */
static int early_class, early_code;

static void outside_check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL %s: %s outside MPI_Init..MPI_Finalize\n", NAME, what);
        exit(1);
    }
}

static void before_init(void)
{
    outside_check(MPI_Add_error_class(&early_class) == MPI_SUCCESS, "MPI_Add_error_class");
    outside_check(MPI_Add_error_code(early_class, &early_code) == MPI_SUCCESS, "MPI_Add_error_code");
    outside_check(MPI_Add_error_string(early_code, "added before MPI_Init") == MPI_SUCCESS, "MPI_Add_error_string");
}

static void after_init(void)
{
    CHECK_EQ(early_class, class_of(early_code));
    EXPECT_STRING(early_code, "added before MPI_Init");
}

static void after_finalize(void)
{
    char s[MPI_MAX_ERROR_STRING];
    int len, cls;
    outside_check(MPI_Error_class(early_code, &cls) == MPI_SUCCESS && cls == early_class, "MPI_Error_class");
    outside_check(MPI_Error_string(early_code, s, &len) == MPI_SUCCESS && strcmp(s, "added before MPI_Init") == 0,
                  "MPI_Error_string");
    outside_check(MPI_Remove_error_string(early_code) == MPI_SUCCESS, "MPI_Remove_error_string");
    outside_check(MPI_Remove_error_code(early_code) == MPI_SUCCESS, "MPI_Remove_error_code");
    outside_check(MPI_Remove_error_class(early_class) == MPI_SUCCESS, "MPI_Remove_error_class");
    MPI_Errhandler eh = MPI_ERRORS_RETURN;
    outside_check(MPI_Errhandler_free(&eh) == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free");
}
#endif

int main(int argc, char **argv)
{
#ifdef SKIFF_MPI
    before_init();
#endif
    tu_init(&argc, &argv);
    int rank = tu_rank();
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
#ifdef SKIFF_MPI
    after_init();
#endif
    CHECK_GE(MPI_ERR_LASTCODE, lastused());
    basics(rank);
    local_and_many(rank);
    int rc = tu_finish(NAME);
#ifdef SKIFF_MPI
    after_finalize();
#endif
    return rc;
}
