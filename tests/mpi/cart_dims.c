/* cart_dims — MPI_Dims_create against known answers.
 *   - free entries get the most balanced factorization, in non-increasing order;
 *   - fixed (non-zero) entries stay and the rest divides what is left;
 *   - impossible requests fail with MPI_ERR_DIMS (under MPI_ERRORS_RETURN).
 * Local calls: every rank checks the same table.
 */
#include "testutil.h"

#define NAME "cart_dims"

struct dims_case {
    int nnodes, ndims;
    int in[5], out[5];
};

static const struct dims_case cases[] = {
    {1, 1, {0}, {1}},
    {7, 1, {0}, {7}},
    {6, 2, {0, 0}, {3, 2}},
    {7, 2, {0, 0}, {7, 1}},
    {16, 2, {0, 0}, {4, 4}},
    {12, 2, {0, 0}, {4, 3}},
    {36, 2, {0, 0}, {6, 6}},
    {8, 3, {0, 0, 0}, {2, 2, 2}},
    {12, 3, {0, 0, 0}, {3, 2, 2}},
    {24, 3, {0, 0, 0}, {4, 3, 2}},
    {30, 3, {0, 0, 0}, {5, 3, 2}},
    {32, 3, {0, 0, 0}, {4, 4, 2}},
    {60, 3, {0, 0, 0}, {5, 4, 3}},
    {64, 3, {0, 0, 0}, {4, 4, 4}},
    {1000, 3, {0, 0, 0}, {10, 10, 10}},
    {16, 4, {0, 0, 0, 0}, {2, 2, 2, 2}},
    {5, 3, {0, 0, 0}, {5, 1, 1}},
    {6, 3, {0, 3, 0}, {2, 3, 1}},
    {24, 3, {0, 2, 0}, {4, 2, 3}},
    {12, 2, {3, 4}, {3, 4}},
    {1, 4, {0, 0, 0, 0}, {1, 1, 1, 1}},
    {210, 4, {0, 0, 0, 0}, {7, 5, 3, 2}},
    {4096, 5, {0, 0, 0, 0, 0}, {8, 8, 4, 4, 4}},
};

static void check_class(int expected, int rc)
{
    int cls = -1;
    CHECK_NE(MPI_SUCCESS, rc);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK_EQ(expected, cls);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct dims_case *c = &cases[i];
        int d[5];
        memcpy(d, c->in, sizeof d);
        CHECK_MPI(MPI_Dims_create(c->nnodes, c->ndims, d));
        for (int j = 0; j < c->ndims; j++)
            CHECK_MSG(d[j] == c->out[j], "MPI_Dims_create(%d, %d): dims[%d] = %d, expected %d", c->nnodes,
                      c->ndims, j, d[j], c->out[j]);
    }
    /* Every grid size of this job, in 2 and 3 dimensions: product and order. */
    for (int n = 1; n <= 64; n++)
        for (int nd = 2; nd <= 3; nd++) {
            int d[3] = {0, 0, 0}, prod = 1;
            CHECK_MPI(MPI_Dims_create(n, nd, d));
            for (int j = 0; j < nd; j++) {
                prod *= d[j];
                if (j)
                    CHECK_LE(d[j - 1], d[j]);
            }
            CHECK_EQ(n, prod);
        }

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int bad[3] = {0, 4, 0};
    check_class(MPI_ERR_DIMS, MPI_Dims_create(6, 3, bad)); /* 4 does not divide 6 */
    int fixed[2] = {2, 2};
    check_class(MPI_ERR_DIMS, MPI_Dims_create(6, 2, fixed));
    int neg[2] = {-1, 0};
    check_class(MPI_ERR_DIMS, MPI_Dims_create(6, 2, neg));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    return tu_finish(NAME);
}
