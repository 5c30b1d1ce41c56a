/* fint_convert — handles and statuses as Fortran integers (MPI_X_c2f / MPI_X_f2c, MPI_Status_c2f /
 * MPI_Status_f2c) and, with an MPI-5 header, MPI_X_toint / MPI_X_fromint.
 *
 * Every kind of handle, predefined and user-made: f2c(c2f(h)) == h, c2f gives the same integer every
 * time, different live handles get different integers, and under the standard ABI a predefined handle's
 * integer is its ABI value. Statuses survive the round trip (MPI_Get_count still reads them).
 * What the standard leaves open is checked for skiff only (SKIFF_MPI): an integer kept after its handle
 * was freed, or one that was never handed out, gives the null handle.
 *
 * Also passes with MPICH 4 and Open MPI 4.1, which have no _toint/_fromint (MPI_VERSION < 5). */
#include "testutil.h"

#define NREQ 2000

/* Open MPI 4.1 (MPI-3.1) has no C names for the Fortran status layout; it is source, tag, error. */
#if defined(OPEN_MPI) && MPI_VERSION < 4
#define MPI_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(int)))
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#endif /* converted requests, more than a table of the first size holds */

#if defined(MPI_ABI_VERSION)
#define CHECK_ABI(value, fint) CHECK_EQ(value, fint)
#else
#define CHECK_ABI(value, fint) ((void)0)
#endif

#if MPI_VERSION >= 5
#define CHECK_TOINT(Kind, h, fint)                                                                 \
    do {                                                                                           \
        CHECK_EQ((fint), MPI_##Kind##_toint(h));                                                   \
        CHECK(MPI_##Kind##_fromint(fint) == (h));                                                  \
    } while (0)
#else
#define CHECK_TOINT(Kind, h, fint) ((void)0)
#endif

/* Round trip of one handle: out is set to its integer. */
#define ROUND_TRIP(Kind, h, out)                                                                   \
    do {                                                                                           \
        MPI_Fint f_ = MPI_##Kind##_c2f(h);                                                         \
        CHECK_MSG(MPI_##Kind##_f2c(f_) == (h), "MPI_%s_f2c(MPI_%s_c2f(%s)) is not %s", #Kind,      \
                  #Kind, #h, #h);                                                                  \
        CHECK_EQ(f_, MPI_##Kind##_c2f(h));                                                         \
        CHECK_TOINT(Kind, h, f_);                                                                  \
        (out) = f_;                                                                                \
    } while (0)

/* ... of a predefined handle, whose integer is its ABI value under the standard ABI. */
#define PREDEFINED(Kind, h, abi)                                                                   \
    do {                                                                                           \
        MPI_Fint p_;                                                                               \
        ROUND_TRIP(Kind, h, p_);                                                                   \
        CHECK_ABI(abi, p_);                                                                        \
        (void)p_;                                                                                  \
    } while (0)

static void predefined_handles(void)
{
    PREDEFINED(Comm, MPI_COMM_NULL, 0x100);
    PREDEFINED(Comm, MPI_COMM_WORLD, 0x101);
    PREDEFINED(Comm, MPI_COMM_SELF, 0x102);
    CHECK_NE(MPI_Comm_c2f(MPI_COMM_WORLD), MPI_Comm_c2f(MPI_COMM_SELF));
    PREDEFINED(Group, MPI_GROUP_NULL, 0x108);
    PREDEFINED(Group, MPI_GROUP_EMPTY, 0x109);
    PREDEFINED(Win, MPI_WIN_NULL, 0x110);
    PREDEFINED(File, MPI_FILE_NULL, 0x118);
    PREDEFINED(Message, MPI_MESSAGE_NULL, 0x128);
    PREDEFINED(Message, MPI_MESSAGE_NO_PROC, 0x129);
    PREDEFINED(Info, MPI_INFO_NULL, 0x130);
    PREDEFINED(Info, MPI_INFO_ENV, 0x131);
    PREDEFINED(Errhandler, MPI_ERRHANDLER_NULL, 0x140);
    PREDEFINED(Errhandler, MPI_ERRORS_ARE_FATAL, 0x141);
    PREDEFINED(Errhandler, MPI_ERRORS_RETURN, 0x142);
#if MPI_VERSION >= 4
    PREDEFINED(Errhandler, MPI_ERRORS_ABORT, 0x143);
#endif
    PREDEFINED(Request, MPI_REQUEST_NULL, 0x180);
#if MPI_VERSION >= 4 && !defined(OPEN_MPI)
    PREDEFINED(Session, MPI_SESSION_NULL, 0x120);
#endif

    static const struct { MPI_Op op; int abi; } ops[] = {
        {MPI_OP_NULL, 0x20}, {MPI_SUM, 0x21},  {MPI_MIN, 0x22},    {MPI_MAX, 0x23},    {MPI_PROD, 0x24},
        {MPI_BAND, 0x28},    {MPI_BOR, 0x29},  {MPI_BXOR, 0x2a},   {MPI_LAND, 0x30},   {MPI_LOR, 0x31},
        {MPI_LXOR, 0x32},    {MPI_MINLOC, 0x38}, {MPI_MAXLOC, 0x39}, {MPI_REPLACE, 0x3c}, {MPI_NO_OP, 0x3d}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        PREDEFINED(Op, ops[i].op, ops[i].abi);
    }

    /* Every datatype skiff's mpi.h names (the ABI's), with its ABI value. */
    static const struct { MPI_Datatype dt; int abi; const char *name; } types[] = {
        {MPI_DATATYPE_NULL, 0x200, "MPI_DATATYPE_NULL"}, {MPI_AINT, 0x201, "MPI_AINT"},
        {MPI_COUNT, 0x202, "MPI_COUNT"}, {MPI_OFFSET, 0x203, "MPI_OFFSET"}, {MPI_PACKED, 0x207, "MPI_PACKED"},
        {MPI_SHORT, 0x208, "MPI_SHORT"}, {MPI_INT, 0x209, "MPI_INT"}, {MPI_LONG, 0x20a, "MPI_LONG"},
        {MPI_LONG_LONG, 0x20b, "MPI_LONG_LONG"}, {MPI_UNSIGNED_SHORT, 0x20c, "MPI_UNSIGNED_SHORT"},
        {MPI_UNSIGNED, 0x20d, "MPI_UNSIGNED"}, {MPI_UNSIGNED_LONG, 0x20e, "MPI_UNSIGNED_LONG"},
        {MPI_UNSIGNED_LONG_LONG, 0x20f, "MPI_UNSIGNED_LONG_LONG"}, {MPI_FLOAT, 0x210, "MPI_FLOAT"},
        {MPI_C_FLOAT_COMPLEX, 0x212, "MPI_C_FLOAT_COMPLEX"}, {MPI_CXX_FLOAT_COMPLEX, 0x213, "MPI_CXX_FLOAT_COMPLEX"},
        {MPI_DOUBLE, 0x214, "MPI_DOUBLE"}, {MPI_C_DOUBLE_COMPLEX, 0x216, "MPI_C_DOUBLE_COMPLEX"},
        {MPI_CXX_DOUBLE_COMPLEX, 0x217, "MPI_CXX_DOUBLE_COMPLEX"}, {MPI_LOGICAL, 0x218, "MPI_LOGICAL"},
        {MPI_INTEGER, 0x219, "MPI_INTEGER"}, {MPI_REAL, 0x21a, "MPI_REAL"}, {MPI_COMPLEX, 0x21b, "MPI_COMPLEX"},
        {MPI_DOUBLE_PRECISION, 0x21c, "MPI_DOUBLE_PRECISION"}, {MPI_DOUBLE_COMPLEX, 0x21d, "MPI_DOUBLE_COMPLEX"},
        {MPI_CHARACTER, 0x21e, "MPI_CHARACTER"}, {MPI_LONG_DOUBLE, 0x220, "MPI_LONG_DOUBLE"},
        {MPI_C_LONG_DOUBLE_COMPLEX, 0x224, "MPI_C_LONG_DOUBLE_COMPLEX"},
        {MPI_CXX_LONG_DOUBLE_COMPLEX, 0x225, "MPI_CXX_LONG_DOUBLE_COMPLEX"}, {MPI_FLOAT_INT, 0x228, "MPI_FLOAT_INT"},
        {MPI_DOUBLE_INT, 0x229, "MPI_DOUBLE_INT"}, {MPI_LONG_INT, 0x22a, "MPI_LONG_INT"}, {MPI_2INT, 0x22b, "MPI_2INT"},
        {MPI_SHORT_INT, 0x22c, "MPI_SHORT_INT"}, {MPI_LONG_DOUBLE_INT, 0x22d, "MPI_LONG_DOUBLE_INT"},
        {MPI_2REAL, 0x230, "MPI_2REAL"}, {MPI_2DOUBLE_PRECISION, 0x231, "MPI_2DOUBLE_PRECISION"},
        {MPI_2INTEGER, 0x232, "MPI_2INTEGER"}, {MPI_C_BOOL, 0x238, "MPI_C_BOOL"}, {MPI_CXX_BOOL, 0x239, "MPI_CXX_BOOL"},
        {MPI_WCHAR, 0x23c, "MPI_WCHAR"}, {MPI_INT8_T, 0x240, "MPI_INT8_T"}, {MPI_UINT8_T, 0x241, "MPI_UINT8_T"},
        {MPI_CHAR, 0x243, "MPI_CHAR"}, {MPI_SIGNED_CHAR, 0x244, "MPI_SIGNED_CHAR"},
        {MPI_UNSIGNED_CHAR, 0x245, "MPI_UNSIGNED_CHAR"}, {MPI_BYTE, 0x247, "MPI_BYTE"},
        {MPI_INT16_T, 0x248, "MPI_INT16_T"}, {MPI_UINT16_T, 0x249, "MPI_UINT16_T"},
        {MPI_INT32_T, 0x250, "MPI_INT32_T"}, {MPI_UINT32_T, 0x251, "MPI_UINT32_T"},
        {MPI_INT64_T, 0x258, "MPI_INT64_T"}, {MPI_UINT64_T, 0x259, "MPI_UINT64_T"},
        {MPI_INTEGER1, 0x2c1, "MPI_INTEGER1"}, {MPI_INTEGER2, 0x2c9, "MPI_INTEGER2"},
        {MPI_INTEGER4, 0x2d1, "MPI_INTEGER4"}, {MPI_INTEGER8, 0x2d9, "MPI_INTEGER8"},
        {MPI_REAL4, 0x2d2, "MPI_REAL4"}, {MPI_REAL8, 0x2da, "MPI_REAL8"}, {MPI_REAL16, 0x2e2, "MPI_REAL16"},
        {MPI_COMPLEX8, 0x2db, "MPI_COMPLEX8"}, {MPI_COMPLEX16, 0x2e3, "MPI_COMPLEX16"},
        {MPI_COMPLEX32, 0x2eb, "MPI_COMPLEX32"},
#if defined(MPI_ABI_VERSION)
        /* Optional kinds MPICH and Open MPI leave undeclared; skiff declares them, lacking some. */
        {MPI_LOGICAL1, 0x2c0, "MPI_LOGICAL1"}, {MPI_LOGICAL2, 0x2c8, "MPI_LOGICAL2"},
        {MPI_LOGICAL4, 0x2d0, "MPI_LOGICAL4"}, {MPI_LOGICAL8, 0x2d8, "MPI_LOGICAL8"},
        {MPI_LOGICAL16, 0x2e0, "MPI_LOGICAL16"}, {MPI_INTEGER16, 0x2e1, "MPI_INTEGER16"},
        {MPI_REAL2, 0x2ca, "MPI_REAL2"}, {MPI_COMPLEX4, 0x2d3, "MPI_COMPLEX4"},
#endif
    };
    size_t n = sizeof types / sizeof types[0];
    for (size_t i = 0; i < n; i++) {
        MPI_Fint f = MPI_Type_c2f(types[i].dt);
        CHECK_MSG(MPI_Type_f2c(f) == types[i].dt, "MPI_Type_f2c(MPI_Type_c2f(%s)) is not %s", types[i].name,
                  types[i].name);
        CHECK_MSG(MPI_Type_c2f(types[i].dt) == f, "MPI_Type_c2f(%s) changed", types[i].name);
        CHECK_TOINT(Type, types[i].dt, f);
#if defined(MPI_ABI_VERSION)
        CHECK_MSG(f == types[i].abi, "MPI_Type_c2f(%s) = 0x%x, the ABI says 0x%x", types[i].name, (unsigned)f,
                  (unsigned)types[i].abi);
#endif
        /* Distinct types, distinct integers (synonyms such as MPI_C_COMPLEX are not in the list). */
        for (size_t j = 0; j < i; j++)
            CHECK_MSG(types[j].dt == types[i].dt || MPI_Type_c2f(types[j].dt) != f, "%s and %s share integer %d",
                      types[j].name, types[i].name, (int)f);
    }
}

/* What skiff promises beyond the standard: a dead or made-up integer is the null handle. */
static void skiff_only_stale(MPI_Fint comm_f, MPI_Fint group_f, MPI_Fint type_f, MPI_Fint op_f)
{
#if defined(SKIFF_MPI)
    CHECK(MPI_Comm_f2c(comm_f) == MPI_COMM_NULL);
    CHECK(MPI_Group_f2c(group_f) == MPI_GROUP_NULL);
    CHECK(MPI_Type_f2c(type_f) == MPI_DATATYPE_NULL);
    CHECK(MPI_Op_f2c(op_f) == MPI_OP_NULL);
    static const MPI_Fint garbage[] = {-1, 1, 0x104, 0x3ff, 0xfffff, 0x7fffffff};
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        CHECK(MPI_Comm_f2c(garbage[i]) == MPI_COMM_NULL);
        CHECK(MPI_Group_f2c(garbage[i]) == MPI_GROUP_NULL);
        CHECK(MPI_Type_f2c(garbage[i]) == MPI_DATATYPE_NULL);
        CHECK(MPI_Request_f2c(garbage[i]) == MPI_REQUEST_NULL);
        CHECK(MPI_Win_f2c(garbage[i]) == MPI_WIN_NULL);
        CHECK(MPI_File_f2c(garbage[i]) == MPI_FILE_NULL);
        CHECK(MPI_Info_f2c(garbage[i]) == MPI_INFO_NULL);
        CHECK(MPI_Message_f2c(garbage[i]) == MPI_MESSAGE_NULL);
        CHECK(MPI_Session_f2c(garbage[i]) == MPI_SESSION_NULL);
        CHECK(MPI_Errhandler_f2c(garbage[i]) == MPI_ERRHANDLER_NULL);
    }
    /* An integer of one kind names nothing of another. */
    CHECK(MPI_Group_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_GROUP_NULL);
    CHECK(MPI_Op_f2c(MPI_Type_c2f(MPI_INT)) == MPI_OP_NULL);
#else
    (void)comm_f, (void)group_f, (void)type_f, (void)op_f;
#endif
}

static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void user_handles(void)
{
    int rank = tu_rank(), size = tu_size();
    MPI_Comm dup, split;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split));
    MPI_Fint dup_f, split_f;
    ROUND_TRIP(Comm, dup, dup_f);
    ROUND_TRIP(Comm, split, split_f);
    CHECK_NE(dup_f, split_f);
    CHECK_NE(MPI_Comm_c2f(MPI_COMM_WORLD), dup_f);

    /* The communicator behind an integer works: MPI_Allreduce over it. */
    int one = 1, total = 0;
    CHECK_MPI(MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_Comm_f2c(dup_f)));
    CHECK_EQ(size, total);

    MPI_Group world_g, sub_g;
    CHECK_MPI(MPI_Comm_group(dup, &world_g));
    int first = 0;
    CHECK_MPI(MPI_Group_incl(world_g, 1, &first, &sub_g));
    MPI_Fint world_gf, sub_gf;
    ROUND_TRIP(Group, world_g, world_gf);
    ROUND_TRIP(Group, sub_g, sub_gf);
    CHECK_NE(world_gf, sub_gf);
    int gsize = 0;
    CHECK_MPI(MPI_Group_size(MPI_Group_f2c(world_gf), &gsize));
    CHECK_EQ(size, gsize);

    MPI_Datatype vec, contig;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INTEGER, &vec));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_DOUBLE_PRECISION, &contig));
    MPI_Fint vec_f, committed_f, contig_f;
    ROUND_TRIP(Type, vec, vec_f); /* uncommitted types convert too */
    CHECK_MPI(MPI_Type_commit(&vec));
    ROUND_TRIP(Type, vec, committed_f);
    CHECK_EQ(vec_f, committed_f);
    ROUND_TRIP(Type, contig, contig_f);
    CHECK_NE(vec_f, contig_f);
    int tsize = 0;
    CHECK_MPI(MPI_Type_size(MPI_Type_f2c(contig_f), &tsize));
    CHECK_EQ(32, tsize);

    MPI_Op op;
    CHECK_MPI(MPI_Op_create(sum_fn, 1, &op));
    MPI_Fint op_f;
    ROUND_TRIP(Op, op, op_f);
    CHECK_MPI(MPI_Allreduce(&one, &total, 1, MPI_INTEGER, MPI_Op_f2c(op_f), MPI_COMM_WORLD));
    CHECK_EQ(size, total);

    CHECK_MPI(MPI_Comm_free(&split));
    CHECK_MPI(MPI_Group_free(&sub_g));
    CHECK_MPI(MPI_Type_free(&contig));
    CHECK_MPI(MPI_Op_free(&op));
    skiff_only_stale(split_f, sub_gf, contig_f, op_f);
    /* The live ones are untouched by their neighbours' deaths. */
    CHECK(MPI_Comm_f2c(dup_f) == dup);
    CHECK(MPI_Group_f2c(world_gf) == world_g);
    CHECK(MPI_Type_f2c(vec_f) == vec);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Group_free(&world_g));
    CHECK_MPI(MPI_Type_free(&vec));
}

/* Requests: pending ones convert and complete through the converted handle; completed ones are dead.
 * NREQ of them outgrow the first table, so dead slots must come back without confusing live ones. */
static void requests(void)
{
    int rank = tu_rank(), size = tu_size(), to = (rank + 1) % size, from = (rank + size - 1) % size;
    static MPI_Fint fints[NREQ];
    static int in[NREQ], out[NREQ];
    for (int i = 0; i < NREQ; i++) {
        MPI_Request rr, sr;
        out[i] = rank * NREQ + i;
        CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, from, i % 100, MPI_COMM_WORLD, &rr));
        CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, to, i % 100, MPI_COMM_WORLD, &sr));
        MPI_Fint rf, sf;
        ROUND_TRIP(Request, rr, rf);
        ROUND_TRIP(Request, sr, sf);
        CHECK(rr == sr || rf != sf);
        MPI_Request back = MPI_Request_f2c(rf);
        CHECK_MPI(MPI_Wait(&back, MPI_STATUS_IGNORE));
        CHECK(back == MPI_REQUEST_NULL);
        CHECK_EQ(from * NREQ + i, in[i]);
        CHECK_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
        fints[i] = rf;
    }
#if defined(SKIFF_MPI)
    for (int i = 0; i < NREQ; i++)
        CHECK(MPI_Request_f2c(fints[i]) == MPI_REQUEST_NULL);
#endif
    /* Many live at once, then all completed through their integers. */
    static MPI_Request reqs[2 * 200];
    for (int i = 0; i < 200; i++) {
        CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, from, 7, MPI_COMM_WORLD, &reqs[2 * i]));
        CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, to, 7, MPI_COMM_WORLD, &reqs[2 * i + 1]));
        fints[2 * i] = MPI_Request_c2f(reqs[2 * i]);
        fints[2 * i + 1] = MPI_Request_c2f(reqs[2 * i + 1]);
    }
    for (int i = 0; i < 400; i++) {
        /* MPICH hands out one shared handle for sends that completed at once. */
        for (int j = 0; j < i; j++)
            CHECK(reqs[j] == reqs[i] || fints[j] != fints[i]);
        CHECK(MPI_Request_f2c(fints[i]) == reqs[i]);
    }
    for (int i = 0; i < 400; i++)
        reqs[i] = MPI_Request_f2c(fints[i]);
    CHECK_MPI(MPI_Waitall(400, reqs, TU_STATUSES_IGNORE));
    for (int i = 0; i < 200; i++)
        CHECK_EQ(from * NREQ + i, in[i]);
}

static void statuses(void)
{
    int rank = tu_rank(), size = tu_size();
    double out[5] = {1, 2, 3, 4, 5}, in[5];
    MPI_Status st, back;
    CHECK_MPI(MPI_Sendrecv(out, 5, MPI_DOUBLE, (rank + 1) % size, 11, in, 5, MPI_DOUBLE,
                           (rank + size - 1) % size, 11, MPI_COMM_WORLD, &st));
    MPI_Fint f[MPI_F_STATUS_SIZE];
    CHECK_MPI(MPI_Status_c2f(&st, f));
    CHECK_EQ((rank + size - 1) % size, f[MPI_F_SOURCE]);
    CHECK_EQ(11, f[MPI_F_TAG]);
    memset(&back, 0xff, sizeof back);
    CHECK_MPI(MPI_Status_f2c(f, &back));
    CHECK_EQ(st.MPI_SOURCE, back.MPI_SOURCE);
    CHECK_EQ(st.MPI_TAG, back.MPI_TAG);
    CHECK_EQ(st.MPI_ERROR, back.MPI_ERROR);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&back, MPI_DOUBLE, &count));
    CHECK_EQ(5, count);
    CHECK_MPI(MPI_Get_count(&back, MPI_DOUBLE_PRECISION, &count));
    CHECK_EQ(5, count);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    predefined_handles();
    user_handles();
    requests();
    statuses();
    return tu_finish("fint_convert");
}
