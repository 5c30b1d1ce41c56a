/* Datatypes: flattening into merged blocks, bounds and extents, pack/unpack, element counting, handles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/datatype.h"
#include "core/error.h"

static const struct skiff_type *T(MPI_Datatype dt)
{
    const struct skiff_type *t = skiff_type_get(dt);
    assert_non_null(t);
    return t;
}

/* MPI_Type_vector(count, blocklen, stride, old) through the builder, as src/mpi does it. */
static struct skiff_type *vector(int count, int blocklen, int stride, const struct skiff_type *old)
{
    struct skiff_type_builder b;
    struct skiff_type *t = NULL;
    skiff_tb_init(&b);
    skiff_tb_add(&b, 0, 0, 0, old);
    for (int i = 0; i < count; i++)
        skiff_tb_add(&b, (ptrdiff_t)i * stride * (ptrdiff_t)old->extent, (size_t)blocklen, (ptrdiff_t)old->extent,
                     old);
    assert_int_equal(skiff_tb_finish(&b, 0, &t), MPI_SUCCESS);
    return t;
}

/* MPI_Type_create_struct with n members. */
static struct skiff_type *structure(int n, const int *blocklens, const ptrdiff_t *displs, const MPI_Datatype *types)
{
    struct skiff_type_builder b;
    struct skiff_type *t = NULL;
    skiff_tb_init(&b);
    for (int i = 0; i < n; i++)
        skiff_tb_add(&b, displs[i], (size_t)blocklens[i], (ptrdiff_t)T(types[i])->extent, T(types[i]));
    assert_int_equal(skiff_tb_finish(&b, 1, &t), MPI_SUCCESS);
    return t;
}

static void assert_block(const struct skiff_type *t, size_t i, ptrdiff_t off, size_t len)
{
    assert_true(i < t->nblocks);
    assert_int_equal(t->blocks[i].off, off);
    assert_int_equal(t->blocks[i].len, len);
}

static void predefined_types_are_flat_too(void **state)
{
    (void)state;
    const struct skiff_type *d = T(MPI_DOUBLE);
    assert_true(d->predefined && d->committed && d->contiguous);
    assert_int_equal(d->size, 8);
    assert_int_equal(d->nblocks, 1);
    assert_ptr_equal(d->basic, MPI_DOUBLE);
    assert_int_equal(d->nbasic, 1);
    /* double then int touch: one block of 12 bytes, but 16 bytes apart, so not contiguous */
    const struct skiff_type *di = T(MPI_DOUBLE_INT);
    assert_int_equal(di->size, 12);
    assert_int_equal(di->extent, 16);
    assert_false(di->contiguous);
    assert_int_equal(di->nblocks, 1);
    assert_block(di, 0, 0, 12);
    assert_ptr_equal(di->basic, MPI_DOUBLE_INT);
    assert_int_equal(di->nelems, 2);
    /* short, 2 bytes of padding, int: two blocks */
    const struct skiff_type *si = T(MPI_SHORT_INT);
    assert_int_equal(si->nblocks, 2);
    assert_block(si, 0, 0, sizeof(short));
    assert_block(si, 1, 4, sizeof(int));
    assert_int_equal(si->true_extent, 8);
    assert_true(T(MPI_2INT)->contiguous);
    assert_true(T(MPI_FLOAT_INT)->contiguous);
    assert_null(skiff_type_get(MPI_DATATYPE_NULL));
    assert_null(skiff_type_get((MPI_Datatype)(uintptr_t)0x211)); /* a hole in the table */
    assert_null(skiff_type_get((MPI_Datatype)(uintptr_t)0x101)); /* MPI_COMM_WORLD's value */
}

static void stride_one_vector_is_contiguous(void **state)
{
    (void)state;
    struct skiff_type *v = vector(100, 3, 3, T(MPI_DOUBLE));
    assert_int_equal(v->nblocks, 1);
    assert_block(v, 0, 0, 2400);
    assert_true(v->contiguous);
    assert_int_equal(v->size, 2400);
    assert_int_equal(v->extent, 2400);
    assert_ptr_equal(v->basic, MPI_DOUBLE);
    assert_int_equal(v->nbasic, 300);
    assert_int_equal(v->nruns, 1);
    skiff_type_free(v);
}

static void strided_vector_keeps_its_gaps(void **state)
{
    (void)state;
    struct skiff_type *v = vector(4, 2, 3, T(MPI_INT));
    assert_int_equal(v->nblocks, 4);
    for (size_t i = 0; i < 4; i++)
        assert_block(v, i, (ptrdiff_t)(12 * i), 8);
    assert_false(v->contiguous);
    assert_int_equal(v->size, 32);
    assert_int_equal(v->extent, 44); /* 3 strides of 12 bytes + the last block */
    assert_int_equal(v->lb, 0);
    assert_int_equal(v->true_extent, 44);
    /* two of them back to back: the last block of the first touches the first of the second */
    struct skiff_type *vv = vector(2, 1, 1, v);
    assert_int_equal(vv->nblocks, 7);
    assert_block(vv, 3, 36, 16);
    assert_block(vv, 4, 56, 8);
    assert_int_equal(vv->size, 64);
    assert_int_equal(vv->extent, 88);
    skiff_type_free(vv);
    skiff_type_free(v);
}

static void negative_stride_moves_the_lower_bound(void **state)
{
    (void)state;
    struct skiff_type *v = vector(3, 1, -2, T(MPI_INT));
    assert_int_equal(v->lb, -16);
    assert_int_equal(v->extent, 20);
    assert_int_equal(v->true_lb, -16);
    assert_block(v, 0, 0, 4); /* type-map order, not address order */
    assert_block(v, 2, -16, 4);
    skiff_type_free(v);
}

static void indexed_order_is_packing_order(void **state)
{
    (void)state;
    struct skiff_type_builder b;
    struct skiff_type *t = NULL;
    const struct skiff_type *i32 = T(MPI_INT);
    skiff_tb_init(&b);
    skiff_tb_add(&b, 4, 1, 4, i32); /* blocks {1}, {0}: adjacent, but backwards: no merge */
    skiff_tb_add(&b, 0, 1, 4, i32);
    assert_int_equal(skiff_tb_finish(&b, 0, &t), MPI_SUCCESS);
    assert_int_equal(t->nblocks, 2);
    assert_false(t->contiguous);
    int in[2] = {10, 20}, packed[2], out[2] = {0, 0};
    assert_int_equal(skiff_type_pack(in, 1, t, packed), 8);
    assert_int_equal(packed[0], 20);
    assert_int_equal(packed[1], 10);
    assert_int_equal(skiff_type_unpack(packed, 8, out, 1, t), 8);
    assert_memory_equal(in, out, sizeof in);
    skiff_type_free(t);
}

static void struct_extent_is_padded_like_c(void **state)
{
    (void)state;
    int bl[2] = {1, 1};
    ptrdiff_t d[2] = {0, 4};
    MPI_Datatype ty[2] = {MPI_INT, MPI_CHAR};
    struct skiff_type *s = structure(2, bl, d, ty);
    assert_int_equal(s->size, 5);
    assert_int_equal(s->extent, 8);
    assert_int_equal(s->true_extent, 5);
    assert_int_equal(s->nblocks, 1);
    assert_ptr_equal(s->basic, MPI_DATATYPE_NULL);
    assert_int_equal(s->nbasic, 0);
    assert_int_equal(s->nelems, 2);
    assert_false(s->contiguous); /* 5 bytes of data every 8 */
    /* char at 0, double at 1: extent 9 rounds up to 16 */
    ptrdiff_t d2[2] = {0, 1};
    MPI_Datatype ty2[2] = {MPI_CHAR, MPI_DOUBLE};
    struct skiff_type *s2 = structure(2, bl, d2, ty2);
    assert_int_equal(s2->extent, 16);
    assert_int_equal(s2->nblocks, 1);
    skiff_type_free(s);
    skiff_type_free(s2);
}

static void resized_bounds_stick(void **state)
{
    (void)state;
    struct skiff_type *r = NULL;
    assert_int_equal(skiff_type_resized(T(MPI_INT), -4, 16, &r), MPI_SUCCESS);
    assert_int_equal(r->lb, -4);
    assert_int_equal(r->extent, 16);
    assert_int_equal(r->true_lb, 0);
    assert_int_equal(r->true_extent, 4);
    assert_false(r->contiguous);
    struct skiff_type *c = vector(1, 2, 1, r); /* MPI_Type_contiguous(2, r) */
    assert_int_equal(c->lb, -4);
    assert_int_equal(c->extent, 32);
    assert_int_equal(c->true_extent, 20);
    assert_int_equal(c->nblocks, 2);
    assert_block(c, 1, 16, 4);
    /* explicit bounds win over data that lies beyond them (MPI's lb/ub markers) */
    int bl[2] = {1, 1};
    ptrdiff_t d[2] = {0, 20};
    MPI_Datatype ty[2] = {skiff_type_handle(r), MPI_CHAR};
    struct skiff_type *s = structure(2, bl, d, ty);
    assert_int_equal(s->lb, -4);
    assert_int_equal(s->extent, 16);
    assert_int_equal(s->true_extent, 21);
    /* resizing a contiguous type to its own size keeps it contiguous */
    struct skiff_type *same = NULL;
    assert_int_equal(skiff_type_resized(T(MPI_DOUBLE), 0, 8, &same), MPI_SUCCESS);
    assert_true(same->contiguous);
    skiff_type_free(same);
    skiff_type_free(s);
    skiff_type_free(c);
    skiff_type_free(r);
}

/* Elements of a negative extent follow each other downwards: never the contiguous path, even when
 * they fill one run of memory; types built on them take the lowest lb and the highest ub. */
static void negative_extent_walks_backwards(void **state)
{
    (void)state;
    struct skiff_type *pair = vector(1, 2, 1, T(MPI_INT)), *r = NULL;
    assert_true(pair->contiguous);
    assert_int_equal(skiff_type_resized(pair, 0, -8, &r), MPI_SUCCESS);
    assert_int_equal(r->lb, 0);
    assert_int_equal(r->extent, -8);
    assert_false(r->contiguous);
    int in[6] = {0, 1, 2, 3, 4, 5}, packed[6], out[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    assert_int_equal(skiff_type_pack(in + 4, 3, r, packed), 24);
    const int want[6] = {4, 5, 2, 3, 0, 1};
    assert_memory_equal(packed, want, sizeof want);
    assert_int_equal(skiff_type_unpack(packed, 20, out + 5, 3, r), 20); /* the last element in part */
    const int back[8] = {-1, 0, -1, 2, 3, 4, 5, -1};
    assert_memory_equal(out, back, sizeof back);
    ptrdiff_t lo = 0, hi = 0;
    assert_true(skiff_type_reach(r, 3, &lo, &hi));
    assert_int_equal(lo, -16);
    assert_int_equal(hi, 8);
    struct skiff_type *c = vector(1, 3, 1, r); /* MPI_Type_contiguous(3, r) */
    assert_int_equal(c->lb, -16);
    assert_int_equal(c->extent, 8); /* ub -8 (the first copy's) minus lb -16 (the last copy's) */
    assert_int_equal(c->true_lb, -16);
    assert_int_equal(c->true_extent, 24);
    assert_int_equal(c->nblocks, 3);
    assert_false(c->contiguous);
    /* an ub that does not fit an address is refused */
    struct skiff_type *bad = NULL;
    assert_int_not_equal(skiff_type_resized(T(MPI_INT), PTRDIFF_MAX - 2, 4, &bad), MPI_SUCCESS);
    assert_int_not_equal(skiff_type_resized(T(MPI_INT), PTRDIFF_MIN + 2, -4, &bad), MPI_SUCCESS);
    skiff_type_free(c);
    skiff_type_free(r);
    skiff_type_free(pair);
}

static void empty_types(void **state)
{
    (void)state;
    struct skiff_type *e = vector(1, 0, 1, T(MPI_INT));
    assert_int_equal(e->size, 0);
    assert_int_equal(e->extent, 0);
    assert_true(e->contiguous);
    assert_ptr_equal(e->basic, MPI_INT);
    assert_int_equal(e->nbasic, 0);
    assert_int_equal(skiff_type_elements(e, 0), 0);
    skiff_type_free(e);
}

static void pack_unpack_round_trip_and_partial(void **state)
{
    (void)state;
    struct skiff_type *v = vector(3, 1, 2, T(MPI_DOUBLE)); /* elements 0, 2, 4 of 5 */
    double in[2 * 5], packed[6], out[2 * 5];
    for (int i = 0; i < 10; i++)
        in[i] = i + 0.1; /* no zero low bytes: a half-copied double shows */
    assert_int_equal(v->extent, 40);
    assert_int_equal(skiff_type_packed_size(v, 2), 48);
    assert_int_equal(skiff_type_pack(in, 2, v, packed), 48);
    const double want[6] = {in[0], in[2], in[4], in[5], in[7], in[9]};
    assert_memory_equal(packed, want, sizeof want);
    memset(out, 0, sizeof out);
    assert_int_equal(skiff_type_unpack(packed, 48, out, 2, v), 48);
    for (int i = 0; i < 10; i++)
        assert_true(out[i] == (i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9 ? in[i] : 0.0));
    /* a short message: 20 bytes fill two doubles and half of the third */
    memset(out, 0, sizeof out);
    assert_int_equal(skiff_type_unpack(packed, 20, out, 2, v), 20);
    assert_true(out[0] == in[0] && out[2] == in[2] && out[5] == 0.0);
    assert_memory_equal(&out[4], &in[4], 4);
    assert_memory_not_equal(&out[4], &in[4], 8);
    /* more bytes than count elements hold: only theirs are consumed */
    assert_int_equal(skiff_type_unpack(packed, 48, out, 1, v), 24);
    skiff_type_free(v);
}

static void absolute_addresses_pack_from_bottom(void **state)
{
    (void)state;
    static int a = 7;
    static double b = 2.5;
    int bl[2] = {1, 1};
    ptrdiff_t d[2] = {(ptrdiff_t)(uintptr_t)&a, (ptrdiff_t)(uintptr_t)&b};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    struct skiff_type *s = structure(2, bl, d, ty);
    char packed[12];
    assert_int_equal(skiff_type_pack(NULL, 1, s, packed), 12);
    a = 0;
    b = 0;
    assert_int_equal(skiff_type_unpack(packed, 12, NULL, 1, s), 12);
    assert_int_equal(a, 7);
    assert_true(b == 2.5);
    skiff_type_free(s);
}

static void elements_count_partial_structs(void **state)
{
    (void)state;
    int bl[2] = {1, 2};
    ptrdiff_t d[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    struct skiff_type *s = structure(2, bl, d, ty); /* int, double, double: 20 bytes packed */
    assert_int_equal(s->size, 20);
    assert_int_equal(s->nelems, 3);
    assert_int_equal(skiff_type_elements(s, 40), 6);
    assert_int_equal(skiff_type_elements(s, 44), 7);  /* + the int */
    assert_int_equal(skiff_type_elements(s, 52), 8);  /* + int, double */
    assert_int_equal(skiff_type_elements(s, 46), SIZE_MAX); /* inside a double */
    assert_int_equal(skiff_type_elements(T(MPI_DOUBLE_INT), 12 + 8), 3);
    assert_int_equal(skiff_type_elements(T(MPI_DOUBLE_INT), 12 + 4), SIZE_MAX);
    skiff_type_free(s);
}

static void handles_die_with_free_but_pending_users_keep_the_object(void **state)
{
    (void)state;
    struct skiff_type *v = vector(2, 1, 2, T(MPI_INT));
    MPI_Datatype h = skiff_type_handle(v);
    assert_ptr_equal(skiff_type_get(h), v);
    assert_false(v->committed);
    skiff_type_commit(v);
    assert_true(v->committed);
    skiff_type_ref(v); /* a receive in flight */
    skiff_type_free(v);
    assert_null(skiff_type_get(h));
    assert_int_equal(v->size, 8); /* still intact for the receive */
    assert_int_equal(v->nblocks, 2);
    skiff_type_unref(v);
    assert_null(skiff_type_get(h));
    struct skiff_type *again = vector(1, 1, 1, T(MPI_INT));
    assert_ptr_equal(again, v); /* recycled, never handed back to malloc */
    skiff_type_free(again);
    /* predefined types ignore lifetime calls */
    skiff_type_free(T(MPI_INT));
    skiff_type_unref(T(MPI_INT));
    assert_non_null(skiff_type_get(MPI_INT));
}

static void dup_keeps_padding_and_commit(void **state)
{
    (void)state;
    int bl[2] = {1, 1};
    ptrdiff_t d[2] = {0, 4};
    MPI_Datatype ty[2] = {MPI_INT, MPI_CHAR};
    struct skiff_type *s = structure(2, bl, d, ty), *dup = NULL;
    skiff_type_commit(s);
    assert_int_equal(skiff_type_dup(s, &dup), MPI_SUCCESS);
    assert_int_equal(dup->extent, 8);
    assert_int_equal(dup->size, 5);
    assert_true(dup->committed);
    assert_string_equal(dup->name, "");
    struct skiff_type *di = NULL;
    assert_int_equal(skiff_type_dup(T(MPI_DOUBLE), &di), MPI_SUCCESS);
    assert_false(di->predefined);
    assert_true(di->contiguous);
    assert_ptr_equal(di->basic, MPI_DOUBLE);
    skiff_type_free(di);
    skiff_type_free(dup);
    skiff_type_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(predefined_types_are_flat_too),
        cmocka_unit_test(stride_one_vector_is_contiguous),
        cmocka_unit_test(strided_vector_keeps_its_gaps),
        cmocka_unit_test(negative_stride_moves_the_lower_bound),
        cmocka_unit_test(indexed_order_is_packing_order),
        cmocka_unit_test(struct_extent_is_padded_like_c),
        cmocka_unit_test(resized_bounds_stick),
        cmocka_unit_test(negative_extent_walks_backwards),
        cmocka_unit_test(empty_types),
        cmocka_unit_test(pack_unpack_round_trip_and_partial),
        cmocka_unit_test(absolute_addresses_pack_from_bottom),
        cmocka_unit_test(elements_count_partial_structs),
        cmocka_unit_test(handles_die_with_free_but_pending_users_keep_the_object),
        cmocka_unit_test(dup_keeps_padding_and_commit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
