/* MPI_Pack, MPI_Unpack, MPI_Pack_size: local round trips through derived types, several items in one
 * buffer, and MPI_PACKED on one side of a message with a derived type on the other. */
#include "testutil.h"

static int rank, peer;

static int val(int r, int i)
{
    return r * 1000 + i;
}

static MPI_Datatype committed(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* Ints 5 6, 0, 9 10 11 of 12 (indexed: type-map order). */
static MPI_Datatype indexed6(void)
{
    const int bl[3] = {2, 1, 3}, disp[3] = {5, 0, 9};
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_indexed(3, bl, disp, MPI_INT, &t));
    return committed(t);
}
static const int idx6[6] = {5, 6, 0, 9, 10, 11};

static void pack_size_covers_the_data(void)
{
    MPI_Datatype t = indexed6();
    int size = 0;
    CHECK_MPI(MPI_Pack_size(3, t, MPI_COMM_WORLD, &size));
    CHECK_GE(3 * 6 * (int)sizeof(int), size);
    CHECK_MPI(MPI_Pack_size(0, t, MPI_COMM_WORLD, &size));
    CHECK_GE(0, size);
    CHECK_MPI(MPI_Pack_size(4, MPI_DOUBLE_INT, MPI_COMM_WORLD, &size));
    CHECK_GE(4 * (int)(sizeof(double) + sizeof(int)), size);
#ifdef SKIFF_MPI
    /* skiff packs the bare data: the size is exact */
    CHECK_MPI(MPI_Pack_size(3, t, MPI_COMM_WORLD, &size));
    CHECK_EQ(3 * 6 * sizeof(int), size);
#endif
    CHECK_MPI(MPI_Type_free(&t));
}

static void local_round_trip(void)
{
    MPI_Datatype t = indexed6();
    int src[2 * 12], out[2 * 12], flat[12];
    for (int i = 0; i < 24; i++) {
        src[i] = val(rank, i);
        out[i] = -1;
    }
    int size = 0, pos = 0;
    CHECK_MPI(MPI_Pack_size(2, t, MPI_COMM_WORLD, &size));
    char *buf = tu_malloc((size_t)size);
    CHECK_MPI(MPI_Pack(src, 2, t, buf, size, &pos, MPI_COMM_WORLD));
    int packed = pos;
    CHECK_LE(size, packed);
    /* unpack as 12 contiguous ints: the type-map order of both elements (extent 12 ints) */
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, size, &pos, flat, 12, MPI_INT, MPI_COMM_WORLD));
    CHECK_EQ(packed, pos);
    for (int k = 0; k < 12; k++)
        CHECK_EQ(val(rank, idx6[k % 6] + 12 * (k / 6)), flat[k]);
    /* and back through the type: exactly the selected ints return, the rest stay untouched */
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, size, &pos, out, 2, t, MPI_COMM_WORLD));
    for (int i = 0; i < 24; i++) {
        int in_type = 0;
        for (int k = 0; k < 6; k++)
            in_type |= i % 12 == idx6[k];
        CHECK_EQ(in_type ? src[i] : -1, out[i]);
    }
    free(buf);
    CHECK_MPI(MPI_Type_free(&t));
}

/* Several items, one buffer, one message: a count, a vector's worth of doubles, a tag string. */
static void several_items_one_message(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(5, 1, 2, MPI_DOUBLE, &v));
    v = committed(v);
    double d[10], got[5];
    for (int i = 0; i < 10; i++)
        d[i] = rank + i * 0.125;
    int n = val(rank, 7), s1 = 0, s2 = 0, s3 = 0;
    char name[8] = "skiff", gotname[8] = "";
    CHECK_MPI(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s1));
    CHECK_MPI(MPI_Pack_size(1, v, MPI_COMM_WORLD, &s2));
    CHECK_MPI(MPI_Pack_size(8, MPI_CHAR, MPI_COMM_WORLD, &s3));
    int size = s1 + s2 + s3, pos = 0;
    char *sbuf = tu_malloc((size_t)size), *rbuf = tu_malloc((size_t)size);
    CHECK_MPI(MPI_Pack(&n, 1, MPI_INT, sbuf, size, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(d, 1, v, sbuf, size, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(name, 8, MPI_CHAR, sbuf, size, &pos, MPI_COMM_WORLD));
    MPI_Request rq[2];
    CHECK_MPI(MPI_Irecv(rbuf, size, MPI_PACKED, peer, 1, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(sbuf, pos, MPI_PACKED, peer, 1, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, TU_STATUSES_IGNORE));
    int got_n = -1, rpos = 0;
    CHECK_MPI(MPI_Unpack(rbuf, size, &rpos, &got_n, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(rbuf, size, &rpos, got, 5, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(rbuf, size, &rpos, gotname, 8, MPI_CHAR, MPI_COMM_WORLD));
    CHECK_EQ(val(peer, 7), got_n);
    for (int k = 0; k < 5; k++)
        CHECK(got[k] == peer + 2 * k * 0.125);
    CHECK(strcmp(gotname, "skiff") == 0);
    free(sbuf);
    free(rbuf);
    CHECK_MPI(MPI_Type_free(&v));
}

/* A typed message received as MPI_PACKED and unpacked; MPI_PACKED sent and received typed. */
static void packed_meets_typed(void)
{
    MPI_Datatype t = indexed6();
    int src[12], dst[6], again[12];
    for (int i = 0; i < 12; i++) {
        src[i] = val(rank, i);
        again[i] = -1;
    }
    int size = 0, pos = 0;
    CHECK_MPI(MPI_Pack_size(1, t, MPI_COMM_WORLD, &size));
    char *buf = tu_malloc((size_t)size);
    MPI_Request rq[2];
    CHECK_MPI(MPI_Irecv(buf, size, MPI_PACKED, peer, 2, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(src, 1, t, peer, 2, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, TU_STATUSES_IGNORE));
    CHECK_MPI(MPI_Unpack(buf, size, &pos, again, 1, t, MPI_COMM_WORLD));
    for (int k = 0; k < 6; k++)
        CHECK_EQ(val(peer, idx6[k]), again[idx6[k]]);
    CHECK_EQ(-1, again[1]);

    pos = 0;
    CHECK_MPI(MPI_Pack(src, 1, t, buf, size, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Irecv(dst, 6, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(buf, pos, MPI_PACKED, peer, 3, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, TU_STATUSES_IGNORE));
    for (int k = 0; k < 6; k++)
        CHECK_EQ(val(peer, idx6[k]), dst[k]);
    free(buf);
    CHECK_MPI(MPI_Type_free(&t));
}

#ifdef SKIFF_MPI
/* Packing past the end of the buffer, or unpacking more than it holds, is an error (MPI leaves the
 * class to the implementation; skiff says MPI_ERR_TRUNCATE). */
static void overflow_is_an_error(void)
{
    int x[4] = {1, 2, 3, 4}, cls = -1, pos = 0;
    char buf[8];
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Error_class(MPI_Pack(x, 4, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD), &cls));
    CHECK_EQ(MPI_ERR_TRUNCATE, cls);
    CHECK_EQ(0, pos);
    CHECK_MPI(MPI_Error_class(MPI_Unpack(buf, 8, &pos, x, 4, MPI_INT, MPI_COMM_WORLD), &cls));
    CHECK_EQ(MPI_ERR_TRUNCATE, cls);
    pos = 9;
    CHECK_MPI(MPI_Error_class(MPI_Pack(x, 1, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD), &cls));
    CHECK_EQ(MPI_ERR_ARG, cls);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    peer = rank ^ 1;
    if (peer >= tu_size())
        peer = rank;
    pack_size_covers_the_data();
    local_round_trip();
    several_items_one_message();
    packed_meets_typed();
#ifdef SKIFF_MPI
    overflow_is_an_error();
#endif
    return tu_finish("dt_pack");
}
