/* MPI_Type_get_value_index (MPI-4.1): the predefined value-index pair type for MPI_MINLOC/MPI_MAXLOC
 * that holds a value of one type and an index of another, or MPI_DATATYPE_NULL when the standard
 * predefines none for the two (as MPICH and Open MPI answer; no type is built). */
#include "mpi/mpi_impl.h"

static const struct {
    MPI_Datatype value, index, pair;
} pairs[] = {
    {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
    {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
    {MPI_LONG, MPI_INT, MPI_LONG_INT},
    {MPI_INT, MPI_INT, MPI_2INT},
    {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
    {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
    {MPI_REAL, MPI_INTEGER, MPI_2REAL},
    {MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_2DOUBLE_PRECISION},
    {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
};

int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    const struct skiff_type *v = NULL, *i = NULL;
    SKIFF_ENTER(MPI_Type_get_value_index);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_dtype(value_type, 0, &v);
    if (rc || (rc = skiff_check_dtype(index_type, 0, &i)) || (rc = skiff_check_ptr(pair_type, "pair_type")))
        return skiff_fail_world(rc);
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (pairs[k].value == value_type && pairs[k].index == index_type)
            *pair_type = pairs[k].pair;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_get_value_index)
