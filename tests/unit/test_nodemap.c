/* Reading PMI_process_mapping into nodes, local ranks and leaders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "boot/nodemap.h"

static void blocks(void **state)
{
    (void)state;
    struct skiff_nodemap m;
    assert_int_equal(0, skiff_nodemap_parse(&m, 5, "(vector,(0,2,2),(2,1,1))"));
    int node[] = {0, 0, 1, 1, 2}, local[] = {0, 1, 0, 1, 0};
    assert_int_equal(3, m.nnodes);
    for (int r = 0; r < 5; r++) {
        assert_int_equal(node[r], m.node[r]);
        assert_int_equal(local[r], m.local[r]);
    }
    assert_int_equal(2, m.leader[1]);
    assert_int_equal(1, m.local_count[2]);
    skiff_nodemap_free(&m);
}

static void cyclic(void **state)
{
    (void)state;
    struct skiff_nodemap m;
    /* One rank per node, repeated: ranks 0,2 on node 0 and 1,3 on node 1. */
    assert_int_equal(0, skiff_nodemap_parse(&m, 4, "(vector,(0,2,1))"));
    assert_int_equal(2, m.nnodes);
    assert_int_equal(0, m.node[2]);
    assert_int_equal(1, m.local[2]);
    assert_int_equal(1, m.leader[1]);
    skiff_nodemap_free(&m);
    /* Nodes nobody landed on are numbered away. */
    assert_int_equal(0, skiff_nodemap_parse(&m, 2, "(vector,(0,4,1))"));
    assert_int_equal(2, m.nnodes);
    skiff_nodemap_free(&m);
}

static void malformed(void **state)
{
    (void)state;
    struct skiff_nodemap m;
    assert_int_equal(-1, skiff_nodemap_parse(&m, 2, "(vector,(0,2))"));
    assert_int_equal(-1, skiff_nodemap_parse(&m, 2, "(vector,(0,0,2))"));
    assert_int_equal(-1, skiff_nodemap_parse(&m, 2, "garbage"));
    assert_int_equal(-1, skiff_nodemap_parse(&m, 2, "(vector,(0,1,2)"));
    assert_int_equal(0, skiff_nodemap_single(&m, 3));
    assert_int_equal(1, m.nnodes);
    assert_int_equal(2, m.local[2]);
    skiff_nodemap_free(&m);
}

/* PMIx's PMIX_NODEID per rank: sparse ids in any order become dense nodes, numbered by their lowest
 * rank, so two ranks that number the same nodes differently build the same map. */
static void from_node_ids(void **state)
{
    (void)state;
    struct skiff_nodemap m;
    const int ids[] = {7, 3, 7, 3, 12};
    assert_int_equal(0, skiff_nodemap_from_nodes(&m, 5, ids));
    assert_int_equal(3, m.nnodes);
    assert_int_equal(0, m.node[0]); /* id 7 holds rank 0 */
    assert_int_equal(1, m.node[1]);
    assert_int_equal(2, m.node[4]);
    assert_int_equal(1, m.local[2]);
    assert_int_equal(1, m.local[3]);
    assert_int_equal(0, m.leader[0]);
    assert_int_equal(1, m.leader[1]);
    assert_int_equal(2, m.local_count[1]);
    skiff_nodemap_free(&m);
    const int swapped[] = {3, 7, 3, 7, 12}; /* the same nodes, named the other way round */
    struct skiff_nodemap m2;
    assert_int_equal(0, skiff_nodemap_from_nodes(&m2, 5, ids));
    assert_int_equal(0, skiff_nodemap_from_nodes(&m, 5, swapped));
    for (int r = 0; r < 5; r++)
        assert_int_equal(m.node[r], m2.node[r]);
    skiff_nodemap_free(&m);
    skiff_nodemap_free(&m2);
    const int bad[] = {0, -1};
    assert_int_equal(-1, skiff_nodemap_from_nodes(&m, 2, bad));
    const int huge[] = {0, SKIFF_NODEMAP_MAX_ID};
    assert_int_equal(-1, skiff_nodemap_from_nodes(&m, 2, huge));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(blocks), cmocka_unit_test(cyclic), cmocka_unit_test(malformed),
                                       cmocka_unit_test(from_node_ids)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
