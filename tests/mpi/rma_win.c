/* Windows as objects: the predefined attributes of every flavor, MPI_Win_shared_query, the group, the name,
 * hints, user attributes with their delete callbacks (run at MPI_Win_free), window error handlers (user
 * handler called by MPI_Win_call_errhandler and by a failing call, MPI_ERRORS_RETURN), handle conversion.
 * Passes with MPICH and Open MPI too (Open MPI at np 2 and up: at np 1 its MPI_Win_create fails). */
#include "testutil.h"

static int deleted, handled, handled_code;

static int del_fn(MPI_Win win, int keyval, void *val, void *extra)
{
    (void)win;
    (void)keyval;
    CHECK(extra == &deleted);
    deleted += *(int *)val;
    return MPI_SUCCESS;
}

static void eh_fn(MPI_Win *win, int *code, ...)
{
    (void)win;
    handled++;
    handled_code = *code;
}

static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int unit, int flavor)
{
    void *v;
    int flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
    CHECK(flag);
#ifdef MPICH_VERSION /* MPICH 4.0's MPI_WIN_BASE of an allocated window is its node segment's start */
    if (flavor != MPI_WIN_FLAVOR_ALLOCATE)
#endif
        CHECK(v == base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &v, &flag));
    CHECK(flag);
    CHECK_EQ((long long)size, (long long)*(MPI_Aint *)v);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &v, &flag));
    CHECK(flag);
    CHECK_EQ(unit, *(int *)v);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &v, &flag));
    CHECK(flag);
    CHECK_EQ(flavor, *(int *)v);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &v, &flag));
    CHECK(flag);
    CHECK_EQ(MPI_WIN_UNIFIED, *(int *)v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Win_create: attributes, group, name. */
    double mem[10];
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(win, mem, sizeof mem, sizeof(double), MPI_WIN_FLAVOR_CREATE);
    MPI_Group wg, cg;
    int cmp;
    CHECK_MPI(MPI_Win_get_group(win, &wg));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &cg));
    CHECK_MPI(MPI_Group_compare(wg, cg, &cmp));
    CHECK_EQ(MPI_IDENT, cmp);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
#ifndef OPEN_MPI /* Open MPI 4.1 names every window ("rdma window 3") */
    CHECK_EQ(0, len); /* a window has no name until it gets one */
#endif
    CHECK_MPI(MPI_Win_set_name(win, "halo"));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK_EQ(4, len);
    CHECK(strcmp(name, "halo") == 0);

    /* Hints: set ones come back from MPI_Win_get_info (a new info each time). */
    MPI_Info in, used;
    CHECK_MPI(MPI_Info_create(&in));
    CHECK_MPI(MPI_Info_set(in, "no_locks", "false"));
    CHECK_MPI(MPI_Win_set_info(win, in));
    CHECK_MPI(MPI_Info_free(&in));
    CHECK_MPI(MPI_Win_get_info(win, &used));
    CHECK(used != MPI_INFO_NULL);
    CHECK_MPI(MPI_Info_free(&used));

    /* User attributes: set, get, replace (old value deleted), delete; one left for MPI_Win_free. */
    int kv, one = 1, ten = 10, hundred = 100, flag = 0;
    void *v;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_fn, &kv, &deleted));
    CHECK_MPI(MPI_Win_set_attr(win, kv, &one));
    CHECK_MPI(MPI_Win_get_attr(win, kv, &v, &flag));
    CHECK(flag && v == &one);
    CHECK_MPI(MPI_Win_set_attr(win, kv, &ten)); /* deletes &one */
    CHECK_EQ(1, deleted);
    CHECK_MPI(MPI_Win_delete_attr(win, kv)); /* deletes &ten */
    CHECK_EQ(11, deleted);
    CHECK_MPI(MPI_Win_get_attr(win, kv, &v, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Win_set_attr(win, kv, &hundred));
    CHECK_MPI(MPI_Win_free_keyval(&kv)); /* the attribute keeps its callbacks */
    CHECK_EQ(MPI_KEYVAL_INVALID, kv);

    /* Error handlers: the default is MPI_ERRORS_ARE_FATAL; a user one sees the calls' errors. */
    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Win_get_errhandler(win, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&got);
    CHECK_MPI(MPI_Win_create_errhandler(eh_fn, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh)); /* the window holds it */
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK_EQ(1, handled);
    CHECK_EQ(MPI_ERR_OTHER, handled_code);
    CHECK_MPI(MPI_Win_fence(0, win));
    int x = 0;
    int rc = MPI_Put(&x, 1, MPI_INT, size + 5, 0, 1, MPI_INT, win); /* no such rank */
    CHECK_EQ(2, handled);
    int cls = -1;
    MPI_Error_class(handled_code, &cls);
    CHECK_EQ(MPI_ERR_RANK, cls);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(MPI_ERR_RANK, cls);
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    rc = MPI_Put(&x, 1, MPI_INT, -7, 0, 1, MPI_INT, win);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(MPI_ERR_RANK, cls);
    CHECK_EQ(2, handled);
    CHECK_MPI(MPI_Win_fence(0, win));

    /* Handles as integers. */
    MPI_Fint f = MPI_Win_c2f(win);
    CHECK(MPI_Win_f2c(f) == win);
    CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL);

    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL);
    CHECK_EQ(111, deleted);

    /* Win_allocate: size 0 on odd ranks is allowed. */
    int *abase = NULL;
    MPI_Aint asz = rank % 2 ? 0 : 3 * sizeof(int);
    CHECK_MPI(MPI_Win_allocate(asz, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &abase, &win));
    check_attrs(win, abase, asz, sizeof(int), MPI_WIN_FLAVOR_ALLOCATE);
    CHECK_MPI(MPI_Win_free(&win));

    /* Win_allocate_shared on the node: every part is reachable by load and store, contiguous by
     * default, and MPI_Win_shared_query names each. */
    MPI_Comm node;
    int nrank, nsize;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    long *sbase;
    MPI_Aint ssz = (MPI_Aint)((nrank + 1) * sizeof(long));
    CHECK_MPI(MPI_Win_allocate_shared(ssz, sizeof(long), MPI_INFO_NULL, node, &sbase, &win));
    check_attrs(win, sbase, ssz, sizeof(long), MPI_WIN_FLAVOR_SHARED);
    for (int i = 0; i <= nrank; i++)
        sbase[i] = 1000 * nrank + i;
    CHECK_MPI(MPI_Win_fence(0, win)); /* also a memory barrier */
    CHECK_MPI(MPI_Barrier(node));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int r = 0; r < nsize; r++) {
        MPI_Aint qs;
        int qu;
        long *qb;
        CHECK_MPI(MPI_Win_shared_query(win, r, &qs, &qu, &qb));
        CHECK_EQ((long long)((r + 1) * sizeof(long)), (long long)qs);
        CHECK_EQ((int)sizeof(long), qu);
        for (int i = 0; i <= r; i++)
            CHECK_EQ(1000L * r + i, qb[i]);
    }
    MPI_Aint qs;
    int qu;
    long *qb;
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &qs, &qu, &qb)); /* the first part with memory */
    CHECK_EQ((long long)sizeof(long), (long long)qs);
    CHECK_EQ(0L, qb[0]);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&node);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK rma_win\n");
    MPI_Finalize();
    return 0;
}
