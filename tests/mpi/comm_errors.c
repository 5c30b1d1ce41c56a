/* comm_errors — error classes of the communicator, group, attribute and topology calls under
 * MPI_ERRORS_RETURN (classes compared with MPI_Error_class, never the code itself):
 *   - invalid and duplicate group ranks, bad ranges, MPI_GROUP_NULL, translate of an invalid rank;
 *   - MPI_Comm_free of MPI_COMM_WORLD, MPI_COMM_NULL, a group that is not a subset in Comm_create;
 *   - unknown keyval, setting or freeing a predefined attribute key, unknown split type;
 *   - Cartesian calls on a communicator without topology, invalid rank / direction / coordinates,
 *     a grid larger than the communicator;
 *   - skiff only: a handle kept after MPI_Comm_free / MPI_Group_free is refused, a negative color.
 * Every error leaves the job usable: a final ring on MPI_COMM_WORLD.
 */
#include "testutil.h"

#define NAME "comm_errors"

#define CHECK_CLASS(expected_class, rc) check_class(__FILE__, __LINE__, #rc, (expected_class), (rc))
static void check_class(const char *file, int line, const char *what, int expected, int rc)
{
    int cls = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING];
    if (rc == MPI_SUCCESS)
        tu_fail(file, line, "%s: expected error class %d, got MPI_SUCCESS", what, expected);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    if (cls != expected)
        tu_fail(file, line, "%s: expected error class %d, got class %d (code %d)", what, expected, cls, rc);
    s[0] = '\0';
    CHECK_MPI(MPI_Error_string(rc, s, &len));
    if (len <= 0 || (size_t)len != strlen(s))
        tu_fail(file, line, "%s: MPI_Error_string gave len %d for \"%s\"", what, len, s);
}

static void groups(int size)
{
    MPI_Group w, g = MPI_GROUP_NULL;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &w));
    int bad[2] = {size, 0}, neg = -1, out[2], n;
    CHECK_CLASS(MPI_ERR_RANK, MPI_Group_incl(w, 1, bad, &g));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Group_excl(w, 1, &neg, &g));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Group_translate_ranks(w, 1, bad, w, out));
    int past_end[1][3] = {{0, size, 1}}, stride0[1][3] = {{0, 0, 0}};
    CHECK_CLASS(MPI_ERR_ARG, MPI_Group_range_incl(w, 1, past_end, &g));
    CHECK_CLASS(MPI_ERR_ARG, MPI_Group_range_excl(w, 1, stride0, &g));
    CHECK_CLASS(MPI_ERR_GROUP, MPI_Group_size(MPI_GROUP_NULL, &n));
    CHECK_CLASS(MPI_ERR_GROUP, MPI_Group_union(w, MPI_GROUP_NULL, &g));
    MPI_Comm c;
    CHECK_CLASS(MPI_ERR_GROUP, MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c));
#ifdef SKIFF_MPI
    /* MPICH 4.0 accepts these. */
    int dup[2] = {0, 0};
    CHECK_CLASS(MPI_ERR_RANK, MPI_Group_incl(w, 2, dup, &g));
    int twice[2][3] = {{0, 0, 1}, {0, 0, 1}};
    CHECK_CLASS(MPI_ERR_ARG, MPI_Group_range_incl(w, 2, twice, &g));
    MPI_Group kept = MPI_GROUP_NULL;
    CHECK_MPI(MPI_Group_incl(w, 1, bad + 1, &g));
    kept = g;
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_CLASS(MPI_ERR_GROUP, MPI_Group_size(kept, &n));
    CHECK_CLASS(MPI_ERR_GROUP, MPI_Group_free(&kept));
#endif
    CHECK_MPI(MPI_Group_free(&w));
}

static void comms(int rank, int size)
{
    MPI_Comm c = MPI_COMM_WORLD, n;
    int r;
    CHECK_CLASS(MPI_ERR_COMM, MPI_Comm_free(&c));
    CHECK(c == MPI_COMM_WORLD);
    c = MPI_COMM_NULL;
    CHECK_CLASS(MPI_ERR_COMM, MPI_Comm_free(&c));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Comm_rank(MPI_COMM_NULL, &r));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Comm_dup(MPI_COMM_NULL, &n));
    CHECK_CLASS(MPI_ERR_ARG, MPI_Comm_split_type(MPI_COMM_WORLD, 999, 0, MPI_INFO_NULL, &n));

    /* Comm_create with a group that is not part of the communicator: each half tries the world. */
    if (size > 1) {
        MPI_Comm half;
        MPI_Group w;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half));
        CHECK_MPI(MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN));
        CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &w));
        CHECK_CLASS(MPI_ERR_GROUP, MPI_Comm_create(half, w, &n));
        CHECK_MPI(MPI_Group_free(&w));
        CHECK_MPI(MPI_Comm_free(&half));
    }
#ifdef SKIFF_MPI
    /* MPICH 4.0 treats a negative color as a color. */
    CHECK_CLASS(MPI_ERR_ARG, MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &n));
    MPI_Comm kept;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    kept = c;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Comm_rank(kept, &r));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Send(&r, 0, MPI_INT, 0, 0, kept));
    CHECK_CLASS(MPI_ERR_COMM, MPI_Comm_free(&kept));
#endif
}

static void attrs(void)
{
    void *v;
    int flag, k = MPI_TAG_UB;
    CHECK_CLASS(MPI_ERR_KEYVAL, MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &v, &flag));
    CHECK_CLASS(MPI_ERR_KEYVAL, MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v));
    CHECK_CLASS(MPI_ERR_KEYVAL, MPI_Comm_free_keyval(&k));
#ifdef SKIFF_MPI
    /* MPICH 4.0 still accepts a freed keyval. */
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
    int kept = k;
    CHECK_MPI(MPI_Comm_free_keyval(&k));
    CHECK_CLASS(MPI_ERR_KEYVAL, MPI_Comm_set_attr(MPI_COMM_WORLD, kept, &v));
#endif
}

static void topology(int size)
{
    int coords[2], s, d;
    CHECK_CLASS(MPI_ERR_TOPOLOGY, MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, coords));
    CHECK_CLASS(MPI_ERR_TOPOLOGY, MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &s, &d));
    CHECK_CLASS(MPI_ERR_TOPOLOGY, MPI_Cartdim_get(MPI_COMM_WORLD, &d));
    int dims[2] = {size, 1}, periods[2] = {0, 0}, big[2] = {size + 1, 1};
    MPI_Comm cart, n;
    CHECK_CLASS(MPI_ERR_ARG, MPI_Cart_create(MPI_COMM_WORLD, 2, big, periods, 0, &n));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    CHECK_MPI(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_ERR_RANK, MPI_Cart_coords(cart, size, 2, coords));
    CHECK_CLASS(MPI_ERR_ARG, MPI_Cart_shift(cart, 2, 1, &s, &d));
    int off[2] = {size, 0}, r;
    CHECK_CLASS(MPI_ERR_ARG, MPI_Cart_rank(cart, off, &r));
    CHECK_MPI(MPI_Comm_free(&cart));
#ifdef SKIFF_MPI
    int zero[2] = {0, 1};
    CHECK_CLASS(MPI_ERR_DIMS, MPI_Cart_create(MPI_COMM_WORLD, 2, zero, periods, 0, &n));
#endif
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    groups(size);
    comms(rank, size);
    attrs();
    topology(size);
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_EQ((rank + size - 1) % size, got);
    return tu_finish(NAME);
}
