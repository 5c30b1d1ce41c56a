/* Groups and Cartesian grids as pure data: set operations, rank lists and ranges, translation,
 * comparison, MPI_Dims_create's factorization, grid arithmetic and node-aware placement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"
#include "core/error.h"
#include "core/group.h"
#include "core/topo.h"

static struct skiff_group *group(int n, const int *world)
{
    struct skiff_group *g = skiff_group_from(world, n);
    assert_non_null(g);
    return g;
}

static void assert_world(const struct skiff_group *g, int n, const int *want)
{
    assert_int_equal(g->size, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(g->world[i], want[i]);
}

static void membership_and_rank(void **state)
{
    (void)state;
    skiff.rank = 5;
    struct skiff_group *g = group(4, (int[]){9, 5, 1, 0});
    assert_int_equal(g->rank, 1);
    assert_int_equal(skiff_group_rank_of(g, 0), 3);
    assert_int_equal(skiff_group_rank_of(g, 7), MPI_UNDEFINED);
    struct skiff_group *h = group(2, (int[]){9, 1});
    assert_int_equal(h->rank, MPI_UNDEFINED);
    assert_ptr_equal(skiff_group_from(NULL, 0), &skiff_group_empty);
    assert_ptr_equal(skiff_group_get(skiff_group_handle(g)), g);
    assert_ptr_equal(skiff_group_get(MPI_GROUP_EMPTY), &skiff_group_empty);
    assert_null(skiff_group_get(MPI_GROUP_NULL));
    /* A released group's handle is refused, not followed into freed memory. */
    MPI_Group stale = skiff_group_handle(h);
    skiff_group_free(h);
    assert_null(skiff_group_get(stale));
    skiff_group_free(g);
}

static void incl_excl_ranges(void **state)
{
    (void)state;
    struct skiff_group *g = group(6, (int[]){10, 11, 12, 13, 14, 15}), *out = NULL;
    assert_int_equal(skiff_group_incl(g, 3, (int[]){4, 0, 2}, &out), MPI_SUCCESS);
    assert_world(out, 3, (int[]){14, 10, 12});
    skiff_group_free(out);
    assert_int_equal(skiff_group_excl(g, 2, (int[]){5, 1}, &out), MPI_SUCCESS);
    assert_world(out, 4, (int[]){10, 12, 13, 14});
    skiff_group_free(out);
    assert_int_equal(skiff_err_class(skiff_group_incl(g, 1, (int[]){6}, &out)), MPI_ERR_RANK);
    assert_int_equal(skiff_err_class(skiff_group_incl(g, 2, (int[]){3, 3}, &out)), MPI_ERR_RANK);
    assert_int_equal(skiff_err_class(skiff_group_incl(g, 7, (int[]){0, 1, 2, 3, 4, 5, 0}, &out)), MPI_ERR_RANK);
    assert_int_equal(skiff_err_class(skiff_group_excl(g, 1, (int[]){-1}, &out)), MPI_ERR_RANK);

    assert_int_equal(skiff_group_range(g, 2, (const int[][3]){{5, 1, -2}, {0, 0, 1}}, 0, &out), MPI_SUCCESS);
    assert_world(out, 4, (int[]){15, 13, 11, 10});
    skiff_group_free(out);
    assert_int_equal(skiff_group_range(g, 1, (const int[][3]){{0, 5, 2}}, 1, &out), MPI_SUCCESS);
    assert_world(out, 3, (int[]){11, 13, 15});
    skiff_group_free(out);
    assert_int_equal(skiff_err_class(skiff_group_range(g, 1, (const int[][3]){{0, 4, 0}}, 0, &out)), MPI_ERR_ARG);
    assert_int_equal(skiff_err_class(skiff_group_range(g, 1, (const int[][3]){{0, 6, 1}}, 0, &out)), MPI_ERR_ARG);
    assert_int_equal(skiff_err_class(skiff_group_range(g, 1, (const int[][3]){{4, 1, 1}}, 0, &out)), MPI_ERR_ARG);
    assert_int_equal(
        skiff_err_class(skiff_group_range(g, 2, (const int[][3]){{0, 3, 1}, {2, 2, 1}}, 0, &out)), MPI_ERR_ARG);
    /* Everything excluded: the empty group. */
    assert_int_equal(skiff_group_range(g, 1, (const int[][3]){{0, 5, 1}}, 1, &out), MPI_SUCCESS);
    assert_ptr_equal(out, &skiff_group_empty);
    skiff_group_free(g);
}

static void set_operations(void **state)
{
    (void)state;
    struct skiff_group *a = group(4, (int[]){3, 1, 4, 0}), *b = group(3, (int[]){5, 4, 1}), *out = NULL;
    assert_int_equal(skiff_group_setop(a, b, SKIFF_GROUP_UNION, &out), MPI_SUCCESS);
    assert_world(out, 5, (int[]){3, 1, 4, 0, 5});
    skiff_group_free(out);
    assert_int_equal(skiff_group_setop(a, b, SKIFF_GROUP_INTERSECTION, &out), MPI_SUCCESS);
    assert_world(out, 2, (int[]){1, 4});
    skiff_group_free(out);
    assert_int_equal(skiff_group_setop(a, b, SKIFF_GROUP_DIFFERENCE, &out), MPI_SUCCESS);
    assert_world(out, 2, (int[]){3, 0});
    skiff_group_free(out);
    assert_int_equal(skiff_group_setop(b, &skiff_group_empty, SKIFF_GROUP_INTERSECTION, &out), MPI_SUCCESS);
    assert_ptr_equal(out, &skiff_group_empty);
    skiff_group_free(a);
    skiff_group_free(b);
}

static void translate_and_compare(void **state)
{
    (void)state;
    struct skiff_group *a = group(4, (int[]){3, 1, 4, 0}), *b = group(4, (int[]){0, 1, 3, 4});
    struct skiff_group *c = group(4, (int[]){3, 1, 4, 0}), *d = group(4, (int[]){3, 1, 4, 7});
    int out[5];
    assert_int_equal(skiff_group_translate(a, 5, (int[]){0, 1, 2, 3, MPI_PROC_NULL}, d, out), MPI_SUCCESS);
    assert_memory_equal(out, ((int[]){0, 1, 2, MPI_UNDEFINED, MPI_PROC_NULL}), sizeof out);
    assert_int_equal(skiff_err_class(skiff_group_translate(a, 1, (int[]){4}, b, out)), MPI_ERR_RANK);
    assert_int_equal(skiff_group_compare(a, c), MPI_IDENT);
    assert_int_equal(skiff_group_compare(a, b), MPI_SIMILAR);
    assert_int_equal(skiff_group_compare(a, d), MPI_UNEQUAL);
    assert_int_equal(skiff_group_compare(&skiff_group_empty, &skiff_group_empty), MPI_IDENT);
    assert_int_equal(skiff_group_compare(a, &skiff_group_empty), MPI_UNEQUAL);
    skiff_group_free(a);
    skiff_group_free(b);
    skiff_group_free(c);
    skiff_group_free(d);
}

static void dims(int nnodes, int ndims, const int *in, const int *want)
{
    int d[8];
    memcpy(d, in, sizeof(int) * (size_t)ndims);
    assert_int_equal(skiff_dims_create(nnodes, ndims, d), MPI_SUCCESS);
    assert_memory_equal(d, want, sizeof(int) * (size_t)ndims);
}

static void dims_create(void **state)
{
    (void)state;
    dims(6, 2, (int[]){0, 0}, (int[]){3, 2});
    dims(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims(24, 3, (int[]){0, 0, 0}, (int[]){4, 3, 2});
    dims(60, 3, (int[]){0, 0, 0}, (int[]){5, 4, 3});
    dims(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    dims(4096, 5, (int[]){0, 0, 0, 0, 0}, (int[]){8, 8, 4, 4, 4});
    dims(1, 0, (int[]){0}, (int[]){0});
    /* A prime near INT_MAX and a large power of two stay quick. */
    dims(2147483647, 2, (int[]){0, 0}, (int[]){2147483647, 1});
    dims(1 << 30, 8, (int[]){0, 0, 0, 0, 0, 0, 0, 0}, (int[]){16, 16, 16, 16, 16, 16, 8, 8});
    int bad[3] = {0, 4, 0};
    assert_int_equal(skiff_err_class(skiff_dims_create(6, 3, bad)), MPI_ERR_DIMS);
    assert_int_equal(skiff_err_class(skiff_dims_create(6, 2, (int[]){2, 2})), MPI_ERR_DIMS);
    assert_int_equal(skiff_err_class(skiff_dims_create(6, 2, (int[]){-1, 0})), MPI_ERR_DIMS);
    assert_int_equal(skiff_err_class(skiff_dims_create(6, -1, bad)), MPI_ERR_DIMS);
    assert_int_equal(skiff_err_class(skiff_dims_create(0, 1, bad)), MPI_ERR_ARG);
}

static void cart_arithmetic(void **state)
{
    (void)state;
    struct skiff_topo *t = skiff_cart_new(3, (int[]){2, 3, 4}, (int[]){0, 1, 0});
    assert_non_null(t);
    int c[3], bad = -1, src, dst;
    for (int r = 0; r < 24; r++) {
        skiff_cart_coords(t, r, c);
        assert_int_equal(c[0] * 12 + c[1] * 4 + c[2], r);
        assert_int_equal(skiff_cart_rank(t, c, &bad), r);
    }
    assert_int_equal(skiff_cart_rank(t, (int[]){1, -4, 3}, &bad), 1 * 12 + 2 * 4 + 3); /* wraps */
    assert_int_equal(skiff_cart_rank(t, (int[]){2, 0, 0}, &bad), -1);
    assert_int_equal(bad, 0);
    skiff_cart_shift(t, 0, 1, 1, &src, &dst); /* periodic */
    assert_int_equal(dst, 4);
    assert_int_equal(src, 8);
    skiff_cart_shift(t, 0, 1, -7, &src, &dst);
    assert_int_equal(dst, 8);
    assert_int_equal(src, 4);
    skiff_cart_shift(t, 3, 2, 1, &src, &dst); /* non-periodic edge */
    assert_int_equal(dst, MPI_PROC_NULL);
    assert_int_equal(src, 2);
    skiff_cart_shift(t, 0, 0, 5, &src, &dst);
    assert_int_equal(dst, MPI_PROC_NULL);
    assert_int_equal(src, MPI_PROC_NULL);
    int color, key;
    skiff_cart_sub_of(t, (int[]){1, 0, 1}, 23, &color, &key); /* coords (1, 2, 3) */
    assert_int_equal(color, 2);
    assert_int_equal(key, 1 * 4 + 3);
    struct skiff_topo *u = skiff_topo_copy(t);
    assert_memory_equal(u->dims, t->dims, 3 * sizeof(int));
    assert_memory_equal(u->periods, t->periods, 3 * sizeof(int));
    skiff_topo_free(u);
    skiff_topo_free(t);
    assert_int_equal(skiff_cart_cells(3, (int[]){65536, 65536, 2}), -1);
}

static void placement_by_node(void **state)
{
    (void)state;
    int order[6];
    skiff_cart_order(6, (int[]){0, 0, 0, 0, 0, 0}, order);
    assert_memory_equal(order, ((int[]){0, 1, 2, 3, 4, 5}), sizeof order);
    /* Ranks dealt round-robin over two nodes: each node's ranks become one block of the grid. */
    skiff_cart_order(6, (int[]){0, 1, 0, 1, 0, 1}, order);
    assert_memory_equal(order, ((int[]){0, 2, 4, 1, 3, 5}), sizeof order);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(membership_and_rank), cmocka_unit_test(incl_excl_ranges),
        cmocka_unit_test(set_operations),      cmocka_unit_test(translate_and_compare),
        cmocka_unit_test(dims_create),         cmocka_unit_test(cart_arithmetic),
        cmocka_unit_test(placement_by_node),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    skiff_group_finalize();
    return rc;
}
