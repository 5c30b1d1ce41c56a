/* Two small MPI-4.1 queries. MPI_Type_get_value_index: the predefined MINLOC/MAXLOC pair type for a
 * value and an index type, MPI_DATATYPE_NULL where none exists; the pair it gives works in a MAXLOC
 * reduction. MPI_Get_hw_resource_info: skiff's keys name the hardware levels MPI_COMM_TYPE_HW_GUIDED
 * takes, with the index of the object holding the process (or "unbound"); splitting by a level must group
 * exactly the ranks that report the same object.
 * MPICH 4.0 and Open MPI 4.1 predate MPI-4.1: under them the test says so and passes vacuously. */
#include "testutil.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)

static void value_index(void)
{
    static const struct {
        MPI_Datatype v, i, want;
        const char *name;
    } cases[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT, "float/int"},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT, "double/int"},
        {MPI_LONG, MPI_INT, MPI_LONG_INT, "long/int"},
        {MPI_INT, MPI_INT, MPI_2INT, "int/int"},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT, "short/int"},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT, "long double/int"},
        {MPI_REAL, MPI_INTEGER, MPI_2REAL, "REAL/INTEGER"},
        {MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_2DOUBLE_PRECISION, "DOUBLE PRECISION/INTEGER"},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER, "INTEGER/INTEGER"},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL, "char/int (none)"},
        {MPI_DOUBLE, MPI_LONG, MPI_DATATYPE_NULL, "double/long (none)"},
        {MPI_INT, MPI_INTEGER, MPI_DATATYPE_NULL, "int/INTEGER (none)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        MPI_Datatype got = MPI_BYTE;
        CHECK_MPI(MPI_Type_get_value_index(cases[k].v, cases[k].i, &got));
        CHECK_MSG(got == cases[k].want, "Type_get_value_index(%s) gave the wrong type", cases[k].name);
    }
    /* The pair type it gives does MAXLOC: the largest value and the rank that holds it. */
    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair));
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct {
        double v;
        int i;
    } in = {(double)((rank * 7) % size), rank}, out;
    CHECK_MPI(MPI_Allreduce(&in, &out, 1, pair, MPI_MAXLOC, MPI_COMM_WORLD));
    int best = 0;
    for (int r = 0; r < size; r++)
        if ((r * 7) % size > (best * 7) % size)
            best = r;
    CHECK_MSG(out.v == (double)((best * 7) % size) && out.i == best, "MAXLOC gave %g at %d, want %d at %d", out.v,
              out.i, (best * 7) % size, best);
}

/* Every key is a level HW_GUIDED accepts; ranks in one object of it end up in one communicator. */
static void hw_info(void)
{
    MPI_Info info;
    CHECK_MPI(MPI_Get_hw_resource_info(&info));
    int nkeys = -1;
    CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
    CHECK_MSG(nkeys >= 1, "Get_hw_resource_info gave %d keys: hwloc knows at least the PU level", nkeys);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int k = 0; k < nkeys; k++) {
        char key[MPI_MAX_INFO_KEY + 1], value[64];
        int buflen = (int)sizeof value, flag = 0;
        CHECK_MPI(MPI_Info_get_nthkey(info, k, key));
        CHECK_MPI(MPI_Info_get_string(info, key, &buflen, value, &flag));
        CHECK_MSG(flag, "key %s listed but not found", key);
        char *end;
        long obj = strcmp(value, "unbound") == 0 ? -1 : strtol(value, &end, 10);
        CHECK_MSG(obj == -1 || (*end == '\0' && obj >= 0), "key %s has value '%s'", key, value);
        /* Everyone splits by every level (the key lists agree on one node; the test runs on one node). */
        MPI_Info hint;
        MPI_Info_create(&hint);
        MPI_Info_set(hint, "mpi_hw_resource_type", key);
        MPI_Comm part;
        CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, hint, &part));
        MPI_Info_free(&hint);
        long *all = tu_malloc((size_t)size * sizeof *all);
        MPI_Allgather(&obj, 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
        int same = 0;
        for (int r = 0; r < size; r++)
            same += obj >= 0 && all[r] == obj;
        if (obj < 0) {
            CHECK_MSG(part == MPI_COMM_NULL, "level %s: an unbound rank got a communicator", key);
        } else {
            int psize = -1;
            CHECK_MSG(part != MPI_COMM_NULL, "level %s: rank in object %ld got MPI_COMM_NULL", key, obj);
            MPI_Comm_size(part, &psize);
            CHECK_MSG(psize == same, "level %s object %ld: split gave %d ranks, %d report it", key, obj, psize, same);
            MPI_Comm_free(&part);
        }
        free(all);
    }
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    value_index();
    hw_info();
    return tu_finish("hw_value_index");
}

#else
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("hw_value_index: MPI %d.%d predates MPI_Type_get_value_index and MPI_Get_hw_resource_info "
               "(MPI-4.1): nothing to test\n", MPI_VERSION, MPI_SUBVERSION);
    MPI_Finalize();
    return 0;
}
#endif
