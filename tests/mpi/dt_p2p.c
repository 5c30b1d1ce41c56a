/* Derived datatypes through point-to-point: vector, hvector, indexed, indexed_block, struct, resized
 * and nested types, sent and received in every combination of typed and contiguous sides, with the
 * nonblocking, synchronous, buffered and combined calls, probe, short and truncated messages.
 *
 * Ranks pair up (0-1, 2-3, ...; an odd last rank and np=1 talk to themselves), so every exchange is
 * nonblocking on both sides. Expected layouts are written out by hand, not computed by MPI. */
#include "testutil.h"

#include <stddef.h>

static int rank, peer;

/* Sends and receives at once, so a rank paired with itself cannot block. */
static void exchange(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                     int tag, MPI_Status *st)
{
    MPI_Request rq[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(rbuf, rcount, rtype, peer, tag, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(sbuf, scount, stype, peer, tag, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, sts));
    if (st)
        *st = sts[0];
}

static int val(int r, int i)
{
    return r * 1000 + i;
}

static void fill(int *a, int n, int r)
{
    for (int i = 0; i < n; i++)
        a[i] = val(r, i);
}

static void set(int *a, int n, int v)
{
    for (int i = 0; i < n; i++)
        a[i] = v;
}

static void check_counts(const MPI_Status *st, MPI_Datatype dt, int count, int elements)
{
    int n = -2;
    CHECK_MPI(MPI_Get_count(st, dt, &n));
    CHECK_EQ(count, n);
    CHECK_MPI(MPI_Get_elements(st, dt, &n));
    CHECK_EQ(elements, n);
}

static MPI_Datatype committed(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* vector(4, 2, 3) of int picks ints 0 1, 3 4, 6 7, 9 10 of 12. */
static const int vec_idx[8] = {0, 1, 3, 4, 6, 7, 9, 10};

static MPI_Datatype vec423(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(4, 2, 3, MPI_INT, &v));
    return committed(v);
}

static void vector_to_contiguous(void)
{
    MPI_Datatype v = vec423();
    int src[12], dst[8];
    MPI_Status st;
    fill(src, 12, rank);
    exchange(src, 1, v, dst, 8, MPI_INT, 1, &st);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(val(peer, vec_idx[i]), dst[i]);
    check_counts(&st, MPI_INT, 8, 8);
    check_counts(&st, v, 1, 8);
    CHECK_MPI(MPI_Type_free(&v));
    CHECK(v == MPI_DATATYPE_NULL);
}

static void contiguous_to_vector(void)
{
    MPI_Datatype v = vec423();
    int src[8], dst[12];
    fill(src, 8, rank);
    set(dst, 12, -1);
    exchange(src, 8, MPI_INT, dst, 1, v, 2, NULL);
    for (int i = 0, k = 0; i < 12; i++) {
        if (k < 8 && vec_idx[k] == i)
            CHECK_EQ(val(peer, k++), dst[i]);
        else
            CHECK_EQ(-1, dst[i]); /* the gaps are the receiver's own */
    }
    CHECK_MPI(MPI_Type_free(&v));
}

static void hvector_both_sides(void)
{
    MPI_Datatype h;
    CHECK_MPI(MPI_Type_create_hvector(3, 1, 3 * (MPI_Aint)sizeof(double), MPI_DOUBLE, &h));
    h = committed(h);
    double src[18], dst[18];
    for (int i = 0; i < 18; i++) {
        src[i] = rank + i / 100.0;
        dst[i] = -1;
    }
    exchange(src, 2, h, dst, 2, h, 3, NULL); /* 2 elements: extent 7 doubles, so at 0 3 6 and 7 10 13 */
    for (int i = 0; i < 18; i++) {
        int sent = i == 0 || i == 3 || i == 6 || i == 7 || i == 10 || i == 13;
        CHECK(dst[i] == (sent ? peer + i / 100.0 : -1));
    }
    CHECK_MPI(MPI_Type_free(&h));
}

static void indexed_to_contiguous(void)
{
    const int bl[3] = {2, 1, 3}, disp[3] = {5, 0, 9}, want[6] = {5, 6, 0, 9, 10, 11};
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_indexed(3, bl, disp, MPI_INT, &t));
    t = committed(t);
    int src[12], dst[6];
    MPI_Status st;
    fill(src, 12, rank);
    exchange(src, 1, t, dst, 6, MPI_INT, 4, &st);
    for (int i = 0; i < 6; i++)
        CHECK_EQ(val(peer, want[i]), dst[i]); /* type-map order, not address order */
    check_counts(&st, t, 1, 6);
    CHECK_MPI(MPI_Type_free(&t));
}

static void indexed_block_both_sides(void)
{
    const int sdisp[3] = {4, 0, 8}, rdisp[3] = {0, 8, 4};
    MPI_Datatype s, r;
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, sdisp, MPI_INT, &s));
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, rdisp, MPI_INT, &r));
    s = committed(s);
    r = committed(r);
    int src[10], dst[10];
    fill(src, 10, rank);
    set(dst, 10, -1);
    exchange(src, 1, s, dst, 1, r, 5, NULL);
    /* stream: src 4 5 0 1 8 9 -> dst at 0 1, 8 9, 4 5 */
    const int want[10] = {4, 5, -1, -1, 8, 9, -1, -1, 0, 1};
    for (int i = 0; i < 10; i++)
        CHECK_EQ(want[i] < 0 ? -1 : val(peer, want[i]), dst[i]);
    CHECK_MPI(MPI_Type_free(&s));
    CHECK_MPI(MPI_Type_free(&r));
}

struct particle {
    int id;
    double pos[2];
    char kind;
};

static MPI_Datatype particle_type(void)
{
    struct particle p = {0};
    const int bl[3] = {1, 2, 1};
    MPI_Aint base, disp[3];
    const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    CHECK_MPI(MPI_Get_address(&p, &base));
    CHECK_MPI(MPI_Get_address(&p.id, &disp[0]));
    CHECK_MPI(MPI_Get_address(&p.pos, &disp[1]));
    CHECK_MPI(MPI_Get_address(&p.kind, &disp[2]));
    for (int i = 0; i < 3; i++)
        disp[i] -= base;
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    return committed(t);
}

static void fill_particles(struct particle *p, int n, int r)
{
    memset(p, 0, (size_t)n * sizeof *p);
    for (int i = 0; i < n; i++)
        p[i] = (struct particle){val(r, i), {r + 0.25 * i, -r - 0.5 * i}, (char)('a' + r + i)};
}

static void check_particles(const struct particle *p, int n, int r)
{
    for (int i = 0; i < n; i++) {
        CHECK_EQ(val(r, i), p[i].id);
        CHECK(p[i].pos[0] == r + 0.25 * i && p[i].pos[1] == -r - 0.5 * i);
        CHECK_EQ('a' + r + i, p[i].kind);
    }
}

static void struct_array(void)
{
    MPI_Datatype t = particle_type();
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK_EQ(0, lb);
    CHECK_EQ(sizeof(struct particle), extent); /* padded like the C struct */
    struct particle src[3], dst[3];
    MPI_Status st;
    fill_particles(src, 3, rank);
    fill_particles(dst, 3, -1);
    exchange(src, 3, t, dst, 3, t, 6, &st);
    check_particles(dst, 3, peer);
    check_counts(&st, t, 3, 12);
    CHECK_MPI(MPI_Type_free(&t));
}

static void resized_stride(void)
{
    MPI_Datatype r;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &r));
    r = committed(r);
    int src[12], dst[4];
    fill(src, 12, rank);
    exchange(src, 4, r, dst, 4, MPI_INT, 7, NULL);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(val(peer, 3 * i), dst[i]);
    CHECK_MPI(MPI_Type_free(&r));
}

/* A column of a row-major N x N matrix, resized to one double: N of them send the transpose. */
static void nested_transpose(void)
{
    enum { N = 6 };
    MPI_Datatype col, col1;
    CHECK_MPI(MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col));
    CHECK_MPI(MPI_Type_create_resized(col, 0, sizeof(double), &col1));
    CHECK_MPI(MPI_Type_free(&col)); /* col1 keeps what it needs */
    col1 = committed(col1);
    double a[N * N], t[N * N];
    for (int i = 0; i < N * N; i++) {
        a[i] = rank * 100 + i;
        t[i] = -1;
    }
    exchange(a, N, col1, t, N * N, MPI_DOUBLE, 8, NULL);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(t[j * N + i] == peer * 100 + i * N + j);
    CHECK_MPI(MPI_Type_free(&col1));
}

/* A struct whose first member is itself a vector: ints 0 and 2 of 4, then a double. */
struct holder {
    int a[4];
    double d;
};

static void struct_of_vector(void)
{
    MPI_Datatype v, s;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    const int bl[2] = {1, 1};
    const MPI_Aint disp[2] = {offsetof(struct holder, a), offsetof(struct holder, d)};
    const MPI_Datatype types[2] = {v, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &s));
    CHECK_MPI(MPI_Type_free(&v));
    s = committed(s);
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(s, &lb, &extent));
    CHECK_EQ(sizeof(struct holder), extent);
    struct holder src[2], dst[2];
    for (int k = 0; k < 2; k++) {
        fill(src[k].a, 4, rank + k);
        src[k].d = rank + 0.5 * k;
        set(dst[k].a, 4, -1);
        dst[k].d = -1;
    }
    MPI_Status st;
    exchange(src, 2, s, dst, 2, s, 9, &st);
    for (int k = 0; k < 2; k++) {
        CHECK_EQ(val(peer + k, 0), dst[k].a[0]);
        CHECK_EQ(-1, dst[k].a[1]);
        CHECK_EQ(val(peer + k, 2), dst[k].a[2]);
        CHECK_EQ(-1, dst[k].a[3]);
        CHECK(dst[k].d == peer + 0.5 * k);
    }
    check_counts(&st, s, 2, 6);
    CHECK_MPI(MPI_Type_free(&s));
}

static void sendrecv_calls(void)
{
    MPI_Datatype v = vec423();
    int src[12], dst[8], buf[12];
    MPI_Status st;
    fill(src, 12, rank);
    CHECK_MPI(MPI_Sendrecv(src, 1, v, peer, 10, dst, 8, MPI_INT, peer, 10, MPI_COMM_WORLD, &st));
    for (int i = 0; i < 8; i++)
        CHECK_EQ(val(peer, vec_idx[i]), dst[i]);
    check_counts(&st, v, 1, 8);
    fill(buf, 12, rank);
    CHECK_MPI(MPI_Sendrecv_replace(buf, 1, v, peer, 11, peer, 11, MPI_COMM_WORLD, &st));
    for (int i = 0, k = 0; i < 12; i++) {
        int in_type = k < 8 && vec_idx[k] == i;
        CHECK_EQ(in_type ? val(peer, i) : val(rank, i), buf[i]);
        k += in_type;
    }
    CHECK_MPI(MPI_Type_free(&v));
}

/* MPI_Type_free right after starting: the operations must still complete with the type. */
static void free_while_pending(void)
{
    MPI_Datatype s = vec423(), r = vec423();
    int src[12], dst[12];
    MPI_Request rq[2];
    fill(src, 12, rank);
    set(dst, 12, -1);
    CHECK_MPI(MPI_Irecv(dst, 1, r, peer, 12, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Type_free(&r));
    CHECK_MPI(MPI_Isend(src, 1, s, peer, 12, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Type_free(&s));
    CHECK_MPI(MPI_Waitall(2, rq, TU_STATUSES_IGNORE));
    for (int i = 0, k = 0; i < 12; i++) {
        int in_type = k < 8 && vec_idx[k] == i;
        CHECK_EQ(in_type ? val(peer, i) : -1, dst[i]);
        k += in_type;
    }
}

static void synchronous_and_buffered(void)
{
    MPI_Datatype t = particle_type();
    struct particle src[2], dst[2];
    MPI_Request rq[2];
    fill_particles(src, 2, rank);
    CHECK_MPI(MPI_Irecv(dst, 2, t, peer, 13, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Issend(src, 2, t, peer, 13, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, TU_STATUSES_IGNORE));
    check_particles(dst, 2, peer);

    int size = 0;
    CHECK_MPI(MPI_Pack_size(2, t, MPI_COMM_WORLD, &size));
    size += MPI_BSEND_OVERHEAD;
    char *bbuf = tu_malloc((size_t)size);
    CHECK_MPI(MPI_Buffer_attach(bbuf, size));
    fill_particles(dst, 2, -1);
    CHECK_MPI(MPI_Bsend(src, 2, t, peer, 14, MPI_COMM_WORLD));
    fill_particles(src, 2, -2); /* the buffered copy was taken at the call */
    CHECK_MPI(MPI_Recv(dst, 2, t, peer, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_particles(dst, 2, peer);
    void *back;
    CHECK_MPI(MPI_Buffer_detach(&back, &size));
    free(bbuf);
    CHECK_MPI(MPI_Type_free(&t));
}

static void probe_then_receive(void)
{
    MPI_Datatype t = particle_type();
    struct particle src[3], dst[3];
    MPI_Request rq;
    MPI_Status st;
    fill_particles(src, 3, rank);
    CHECK_MPI(MPI_Isend(src, 3, t, peer, 15, MPI_COMM_WORLD, &rq));
    CHECK_MPI(MPI_Probe(peer, 15, MPI_COMM_WORLD, &st));
    check_counts(&st, t, 3, 12);
    int bytes = 0, ints = 0;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &bytes));
    CHECK_EQ(3 * (sizeof(int) + 2 * sizeof(double) + 1), bytes); /* data only, no padding */
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &ints));
    CHECK_EQ(MPI_UNDEFINED, ints);
    CHECK_MPI(MPI_Recv(dst, 3, t, peer, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    check_particles(dst, 3, peer);
    CHECK_MPI(MPI_Type_free(&t));
}

/* 5 ints into room for 2 elements of vector(2, 2, 3): the first element whole, one int of the next. */
static void short_message(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &v));
    v = committed(v);
    int src[5], dst[12];
    MPI_Status st;
    fill(src, 5, rank);
    set(dst, 12, -1);
    exchange(src, 5, MPI_INT, dst, 2, v, 16, &st);
    check_counts(&st, v, MPI_UNDEFINED, 5);
    const int want[12] = {0, 1, -1, 2, 3, 4, -1, -1, -1, -1, -1, -1};
    for (int i = 0; i < 12; i++)
        CHECK_EQ(want[i] < 0 ? -1 : val(peer, want[i]), dst[i]);
    CHECK_MPI(MPI_Type_free(&v));
}

static void truncated_message(void)
{
    MPI_Datatype v = vec423();
    int src[10], dst[12];
    MPI_Request rq[2];
    MPI_Status st;
    fill(src, 10, rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Irecv(dst, 1, v, peer, 17, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(src, 10, MPI_INT, peer, 17, MPI_COMM_WORLD, &rq[1]));
    int rc = MPI_Wait(&rq[0], &st), cls = -1;
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK_EQ(MPI_ERR_TRUNCATE, cls);
    CHECK_MPI(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Type_free(&v));
}

struct di {
    double v;
    int i;
};
struct si {
    short v;
    int i;
};

static void pair_types(void)
{
    struct di dsrc[3], ddst[3];
    struct si ssrc[3], sdst[3];
    for (int k = 0; k < 3; k++) {
        dsrc[k] = (struct di){rank + 0.5 * k, val(rank, k)};
        ssrc[k] = (struct si){(short)(rank + k), val(rank, k)};
    }
    MPI_Status st;
    exchange(dsrc, 3, MPI_DOUBLE_INT, ddst, 3, MPI_DOUBLE_INT, 18, &st);
    check_counts(&st, MPI_DOUBLE_INT, 3, 6);
    exchange(ssrc, 3, MPI_SHORT_INT, sdst, 3, MPI_SHORT_INT, 19, NULL);
    for (int k = 0; k < 3; k++) {
        CHECK(ddst[k].v == peer + 0.5 * k);
        CHECK_EQ(val(peer, k), ddst[k].i);
        CHECK_EQ(peer + k, sdst[k].v);
        CHECK_EQ(val(peer, k), sdst[k].i);
    }
}

struct pairad {
    int a;
    double b;
};

/* Absolute addresses: a struct type over two separate variables, sent from MPI_BOTTOM. */
static void from_bottom(void)
{
    int a = val(rank, 1);
    double b = rank + 0.75;
    const int bl[2] = {1, 1};
    MPI_Aint disp[2];
    const MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Get_address(&a, &disp[0]));
    CHECK_MPI(MPI_Get_address(&b, &disp[1]));
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &t));
    t = committed(t);
    struct pairad got = {-1, -1};
    const MPI_Aint rdisp[2] = {offsetof(struct pairad, a), offsetof(struct pairad, b)};
    MPI_Datatype r;
    CHECK_MPI(MPI_Type_create_struct(2, bl, rdisp, types, &r));
    r = committed(r);
    exchange(MPI_BOTTOM, 1, t, &got, 1, r, 20, NULL);
    CHECK_EQ(val(peer, 1), got.a);
    CHECK(got.b == peer + 0.75);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&r));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    int size = tu_size();
    peer = rank ^ 1;
    if (peer >= size)
        peer = rank;
    vector_to_contiguous();
    contiguous_to_vector();
    hvector_both_sides();
    indexed_to_contiguous();
    indexed_block_both_sides();
    struct_array();
    resized_stride();
    nested_transpose();
    struct_of_vector();
    sendrecv_calls();
    free_while_pending();
    synchronous_and_buffered();
    probe_then_receive();
    short_message();
    truncated_message();
    pair_types();
    from_bottom();
    return tu_finish("dt_p2p");
}
