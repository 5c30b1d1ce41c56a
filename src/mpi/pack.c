/* Packing for the user (MPI_Pack, MPI_Unpack, MPI_Pack_size) and addresses for MPI_BOTTOM types.
 * The packed form is the bare data in type-map order: no header, so MPI_Pack_size is exact. */
#include "mpi/mpi_impl.h"

/* Pack and Unpack seen alike: count elements of a type on the typed side, a buffer of size bytes
 * with a position on the packed side. */
struct pack_args {
    MPI_Comm comm;
    const void *typed; /* Pack's inbuf, Unpack's outbuf */
    MPI_Count count;
    MPI_Datatype dt;
    const void *packed; /* Pack's outbuf, Unpack's inbuf */
    MPI_Count size;
    int *position;         /* the int calls' */
    MPI_Count *position_c; /* the large-count (_c) calls' */
    int unpack;
};

/* Where the position argument is (either kind); NULL if the user gave none. */
static const void *position_arg(const struct pack_args *a)
{
    return a->position ? (const void *)a->position : (const void *)a->position_c;
}

static MPI_Count position_of(const struct pack_args *a)
{
    return a->position ? *a->position : *a->position_c;
}

/* Advances the position by bytes; the int calls' position stays within their int size. */
static void advance(const struct pack_args *a, size_t bytes)
{
    if (a->position)
        *a->position += (int)bytes;
    else
        *a->position_c += (MPI_Count)bytes;
}

/* Whether the packed bytes [p, p + bytes) touch the data of count > 0 elements of t at buf. Exact for
 * contiguous data; otherwise only the lowest and highest data bytes are tested (the first and last
 * element's, or the other way round with a negative extent), as packed bytes may legally sit in the
 * gaps between blocks and walking the blocks would cost as much as packing. */
static int overlaps(const void *buf, size_t count, const struct skiff_type *t, const void *p, size_t bytes)
{
    ptrdiff_t from, to;
    if (!skiff_type_reach(t, count, &from, &to))
        return 0; /* no buffer spans that much: it cannot overlap */
    uintptr_t lo = (uintptr_t)buf + (uintptr_t)from, last = (uintptr_t)buf + (uintptr_t)to - 1;
    uintptr_t a = (uintptr_t)p, b = a + bytes;
    if (t->contiguous)
        return lo < b && a <= last;
    return (lo >= a && lo < b) || (last >= a && last < b);
}

/* The packed side: a position inside the buffer, room for bytes from there, no overlap with the data. */
static int check_packed(const struct pack_args *a, const struct skiff_type *t, size_t bytes)
{
    const char *name = a->unpack ? "inbuf" : "outbuf", *tname = a->unpack ? "outbuf" : "inbuf";
    if (a->size < 0)
        return skiff_err(MPI_ERR_ARG, "invalid %s size %lld (must be >= 0)", name, (long long)a->size);
    int rc = skiff_check_ptr(position_arg(a), "position");
    if (rc)
        return rc;
    long long pos = position_of(a), size = a->size, count = a->count;
    if (pos < 0 || pos > size)
        return skiff_err(MPI_ERR_ARG, "position %lld is outside the %lld-byte %s", pos, size, name);
    if (bytes > (size_t)(size - pos))
        return skiff_err(MPI_ERR_TRUNCATE,
                         "%lld elements are %zu packed bytes, but only %lld of the %lld-byte %s are left", count,
                         bytes, size - pos, size, name);
    if (bytes && !a->packed)
        return skiff_err(MPI_ERR_BUFFER, "%s is NULL", name);
    if (bytes && overlaps(a->typed, (size_t)a->count, t, (const char *)a->packed + pos, bytes))
        return skiff_err(MPI_ERR_BUFFER, "%s %p + position %lld overlaps the %lld elements at %s %p", name,
                         a->packed, pos, count, tname, a->typed);
    return MPI_SUCCESS;
}

/* All the checks of Pack or Unpack; on success *t and *bytes describe the data. */
static int check_pack(const struct pack_args *a, const struct skiff_type **t, size_t *bytes)
{
    struct skiff_comm *c;
    int rc;
    if ((rc = skiff_check_comm(a->comm, &c)) || (rc = skiff_check_count(a->count)) ||
        (rc = skiff_check_dtype(a->dt, 1, t)) ||
        (rc = skiff_check_named_buf(a->typed, (size_t)a->count, *t, a->unpack ? "outbuf" : "inbuf")))
        return rc;
    *bytes = skiff_type_packed_size(*t, (size_t)a->count);
    return check_packed(a, *t, *bytes);
}

/* The bodies of MPI_Pack and MPI_Unpack, shared with their large-count twins: a carries the position of
 * either kind. */
static int pack(struct pack_args *a)
{
    const struct skiff_type *t = NULL;
    size_t bytes = 0;
    int rc = check_pack(a, &t, &bytes);
    if (rc)
        return skiff_fail(a->comm, rc);
    advance(a, skiff_type_pack(a->typed, (size_t)a->count, t, (char *)a->packed + position_of(a)));
    return MPI_SUCCESS;
}

static int unpack(struct pack_args *a)
{
    const struct skiff_type *t = NULL;
    size_t bytes = 0;
    int rc = check_pack(a, &t, &bytes);
    if (rc)
        return skiff_fail(a->comm, rc);
    advance(a, skiff_type_unpack((const char *)a->packed + position_of(a), bytes, (void *)a->typed,
                                 (size_t)a->count, t));
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Pack);
    return pack(&(struct pack_args){comm, inbuf, incount, datatype, outbuf, outsize, position, NULL, 0});
}
SKIFF_ALIAS(MPI_Pack)

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Pack_c);
    return pack(&(struct pack_args){comm, inbuf, incount, datatype, outbuf, outsize, NULL, position, 0});
}
SKIFF_ALIAS(MPI_Pack_c)

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Unpack);
    return unpack(&(struct pack_args){comm, outbuf, outcount, datatype, inbuf, insize, position, NULL, 1});
}
SKIFF_ALIAS(MPI_Unpack)

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype datatype, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Unpack_c);
    return unpack(&(struct pack_args){comm, outbuf, outcount, datatype, inbuf, insize, NULL, position, 1});
}
SKIFF_ALIAS(MPI_Unpack_c)

/* max: the largest size the call can report (INT_MAX for the int form); out: the user's size argument. */
static int pack_size(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count max, const void *out,
                     MPI_Count *size)
{
    struct skiff_comm *c;
    const struct skiff_type *t = NULL;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_count(incount)) ||
        (rc = skiff_check_dtype(datatype, 0, &t)) || (rc = skiff_check_ptr(out, "size")))
        return skiff_fail(comm, rc);
    size_t bytes = skiff_type_packed_size(t, (size_t)incount);
    if (bytes > (size_t)max)
        return skiff_fail(comm, skiff_err(MPI_ERR_COUNT, "%lld elements pack into %zu bytes, more than an int can count",
                                          (long long)incount, bytes));
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    SKIFF_ENTER(MPI_Pack_size);
    MPI_Count n = 0;
    int rc = pack_size(incount, datatype, comm, INT_MAX, size, &n);
    if (!rc)
        *size = (int)n;
    return rc;
}
SKIFF_ALIAS(MPI_Pack_size)

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    SKIFF_ENTER(MPI_Pack_size_c);
    return pack_size(incount, datatype, comm, INT64_MAX, size, size);
}
SKIFF_ALIAS(MPI_Pack_size_c)

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    SKIFF_ENTER(MPI_Get_address);
    int rc = skiff_check_ptr(address, "address");
    if (rc)
        return skiff_fail_world(rc);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_address)

/* MPI-1 name of MPI_Get_address. */
int PMPI_Address(void *location, MPI_Aint *address)
{
    SKIFF_ENTER(MPI_Address);
    int rc = skiff_check_ptr(address, "address");
    if (rc)
        return skiff_fail_world(rc);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Address)
