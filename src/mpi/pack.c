/* Packing for the user (MPI_Pack, MPI_Unpack, MPI_Pack_size) and addresses for MPI_BOTTOM types.
 * The packed form is the bare data in type-map order: no header, so MPI_Pack_size is exact. */
#include "mpi/mpi_impl.h"

/* The checks Pack and Unpack share: comm, count, a committed type, a position inside the buffer. */
static int check_pack(MPI_Comm comm, int count, MPI_Datatype dt, int size, const int *position,
                      const struct skiff_type **t)
{
    struct skiff_comm *c;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_count(count)) || (rc = skiff_check_dtype(dt, 1, t)))
        return rc;
    if (size < 0)
        return skiff_err(MPI_ERR_ARG, "invalid buffer size %d (must be >= 0)", size);
    if (!position)
        return skiff_err(MPI_ERR_ARG, "position is NULL");
    if (*position < 0 || *position > size)
        return skiff_err(MPI_ERR_ARG, "position %d is outside the %d-byte buffer", *position, size);
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Pack);
    int rc = check_pack(comm, incount, datatype, outsize, position, &t);
    if (!rc)
        rc = skiff_check_typed_buf(inbuf, incount, t);
    size_t bytes = rc ? 0 : skiff_type_packed_size(t, (size_t)incount);
    if (!rc && bytes > (size_t)(outsize - *position))
        rc = skiff_err(MPI_ERR_TRUNCATE, "%d elements pack into %zu bytes, but only %d of the %d-byte buffer are left",
                       incount, bytes, outsize - *position, outsize);
    if (!rc && bytes && !outbuf)
        rc = skiff_err(MPI_ERR_BUFFER, "outbuf is NULL");
    if (rc)
        return skiff_fail(comm, rc);
    *position += (int)skiff_type_pack(inbuf, (size_t)incount, t, (char *)outbuf + *position);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pack)

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Unpack);
    int rc = check_pack(comm, outcount, datatype, insize, position, &t);
    if (!rc)
        rc = skiff_check_typed_buf(outbuf, outcount, t);
    size_t bytes = rc ? 0 : skiff_type_packed_size(t, (size_t)outcount);
    if (!rc && bytes > (size_t)(insize - *position))
        rc = skiff_err(MPI_ERR_TRUNCATE, "%d elements need %zu packed bytes, but only %d of the %d-byte buffer are left",
                       outcount, bytes, insize - *position, insize);
    if (!rc && bytes && !inbuf)
        rc = skiff_err(MPI_ERR_BUFFER, "inbuf is NULL");
    if (rc)
        return skiff_fail(comm, rc);
    *position += (int)skiff_type_unpack((const char *)inbuf + *position, bytes, outbuf, (size_t)outcount, t);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Unpack)

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    struct skiff_comm *c;
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Pack_size);
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_count(incount)) ||
        (rc = skiff_check_dtype(datatype, 0, &t)))
        return skiff_fail(comm, rc);
    size_t bytes = skiff_type_packed_size(t, (size_t)incount);
    if (bytes > INT_MAX)
        return skiff_fail(comm, skiff_err(MPI_ERR_COUNT, "%d elements pack into %zu bytes, more than an int can count",
                                          incount, bytes));
    *size = (int)bytes;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pack_size)

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    SKIFF_ENTER(MPI_Get_address);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_address)

/* MPI-1 name of MPI_Get_address. */
int PMPI_Address(void *location, MPI_Aint *address)
{
    SKIFF_ENTER(MPI_Address);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Address)
