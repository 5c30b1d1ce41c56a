/* init_env — initialisation, thread levels and environment queries.
 *
 *   Initialized/Finalized before Init, between, and after Finalize;
 *   Init_thread: provided is a valid level, provided <= required, Query_thread agrees
 *     (skiff, MPICH and Open MPI all provide MULTIPLE);
 *   Comm_size/Comm_rank on WORLD and SELF; Get_version matches the header macros;
 *   Get_library_version and Get_processor_name: non-empty, length = strlen, within limits;
 *   Wtime never goes backwards and tracks a sleep; 0 < Wtick < 1 s;
 *   Type_size / Type_get_name of predefined datatypes.
 * Also run without mpiexec (CTest *_singleton): the program is then a one-rank job.
 *
 * usage: init_env [plain|single|funneled|serialized|multiple]   (default multiple)
 */
#include "testutil.h"

#define NAME "init_env"

static int level_from_name(const char *s)
{
    if (strcmp(s, "single") == 0)
        return MPI_THREAD_SINGLE;
    if (strcmp(s, "funneled") == 0)
        return MPI_THREAD_FUNNELED;
    if (strcmp(s, "serialized") == 0)
        return MPI_THREAD_SERIALIZED;
    if (strcmp(s, "multiple") == 0)
        return MPI_THREAD_MULTIPLE;
    TU_FAIL("unknown thread level '%s'", s);
    return -1;
}

/* Levels are ordered SINGLE < FUNNELED < SERIALIZED < MULTIPLE (MPI 12.4.3). */
static int is_level(int v)
{
    return v == MPI_THREAD_SINGLE || v == MPI_THREAD_FUNNELED || v == MPI_THREAD_SERIALIZED ||
           v == MPI_THREAD_MULTIPLE;
}

static void init(int *argc, char ***argv, const char *mode)
{
    int flag = 1, provided = -1, queried = -2;
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK_EQ(0, flag);
    if (strcmp(mode, "plain") == 0) {
        CHECK_MPI(MPI_Init(argc, argv));
        CHECK_MPI(MPI_Query_thread(&queried));
        CHECK_MSG(is_level(queried), "MPI_Query_thread gave %d, not a thread level", queried);
    } else {
        int required = level_from_name(mode);
        CHECK_MPI(MPI_Init_thread(argc, argv, required, &provided));
        CHECK_MSG(is_level(provided), "provided = %d is not a thread level", provided);
        CHECK_MSG(provided <= required, "provided %d > required %d", provided, required);
        CHECK_MPI(MPI_Query_thread(&queried));
        CHECK_EQ(provided, queried);
    }
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK_EQ(1, flag);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK_EQ(0, flag);
}

static void communicators(void)
{
    int size = -1, rank = -1;
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(size >= 1);
    CHECK(rank >= 0 && rank < size);
    CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &size));
    CHECK_EQ(1, size);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &rank));
    CHECK_EQ(0, rank);
}

static void versions_and_names(void)
{
    int v = -1, sv = -1, len = -1;
    CHECK_MPI(MPI_Get_version(&v, &sv));
    CHECK_EQ(MPI_VERSION, v);
    CHECK_EQ(MPI_SUBVERSION, sv);
    CHECK(v >= 3);

    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    CHECK_MPI(MPI_Get_library_version(lib, &len));
    CHECK_MSG(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (size_t)len == strlen(lib),
              "library version: len %d, strlen %zu", len, strlen(lib));

    char host[MPI_MAX_PROCESSOR_NAME];
    CHECK_MPI(MPI_Get_processor_name(host, &len));
    CHECK_MSG(len > 0 && len < MPI_MAX_PROCESSOR_NAME && (size_t)len == strlen(host),
              "processor name: len %d, strlen %zu", len, strlen(host));
    if (tu_rank() == 0)
        printf("library: %.*s\nhost: %s\n", (int)strcspn(lib, "\n"), lib, host);
}

static void timers(void)
{
    double tick = MPI_Wtick();
    CHECK_MSG(tick > 0.0 && tick < 1.0, "MPI_Wtick() = %g", tick);
    double prev = MPI_Wtime();
    for (int i = 0; i < 100000; i++) {
        double now = MPI_Wtime();
        CHECK_MSG(now >= prev, "MPI_Wtime went backwards: %.9f after %.9f", now, prev);
        prev = now;
    }
    double t0 = MPI_Wtime();
    tu_sleep_ms(50);
    double dt = MPI_Wtime() - t0;
    CHECK_MSG(dt >= 0.045 && dt < 5.0, "a 50 ms sleep measured %.4f s", dt);
}

/* alias: a second acceptable name for types that have a synonym (MPI_LONG_LONG_INT). */
static void check_type2(MPI_Datatype t, int size, const char *name, const char *alias)
{
    int s = -1, len = -1;
    char got[MPI_MAX_OBJECT_NAME] = "";
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK_MSG(s == size, "MPI_Type_size(%s): expected %d, got %d", name, size, s);
    CHECK_MPI(MPI_Type_get_name(t, got, &len));
    int match = strcmp(got, name) == 0 || (alias && strcmp(got, alias) == 0);
    CHECK_MSG(match && (size_t)len == strlen(got),
              "MPI_Type_get_name: expected \"%s\", got \"%s\" (len %d)", name, got, len);
}
#define check_type(t, size, name) check_type2((t), (size), (name), NULL)

static void datatypes(void)
{
    check_type(MPI_CHAR, 1, "MPI_CHAR");
    check_type(MPI_BYTE, 1, "MPI_BYTE");
    check_type(MPI_SHORT, (int)sizeof(short), "MPI_SHORT");
    check_type(MPI_INT, (int)sizeof(int), "MPI_INT");
    check_type(MPI_LONG, (int)sizeof(long), "MPI_LONG");
    check_type2(MPI_LONG_LONG, (int)sizeof(long long), "MPI_LONG_LONG", "MPI_LONG_LONG_INT");
    check_type(MPI_UNSIGNED, (int)sizeof(unsigned), "MPI_UNSIGNED");
    check_type(MPI_FLOAT, (int)sizeof(float), "MPI_FLOAT");
    check_type(MPI_DOUBLE, (int)sizeof(double), "MPI_DOUBLE");
    check_type(MPI_INT8_T, 1, "MPI_INT8_T");
    check_type(MPI_INT32_T, 4, "MPI_INT32_T");
    check_type(MPI_INT64_T, 8, "MPI_INT64_T");
    check_type(MPI_UINT64_T, 8, "MPI_UINT64_T");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "multiple";
    init(&argc, &argv, mode);
    communicators();
    versions_and_names();
    timers();
    datatypes();
    tu_barrier();

    int rank = tu_rank(), flag = 0;
    CHECK_MPI(MPI_Finalize());
    /* After Finalize only these may be called; CHECK falls back to exit(1). */
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK_EQ(1, flag);
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK_EQ(1, flag);
    if (rank == 0)
        printf("OK %s\n", NAME);
    return 0;
}
