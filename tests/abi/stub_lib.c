/* A stand-in for another MPI's libmpi_abi.so.1 (the MPI Forum's stub library plays this part in the ABI's
 * own tests): every call of mpi_abi_ref.h, doing nothing. abi_lib.sh links abi_app against it, so the
 * program is built with no skiff anywhere, then runs it with skiff's lib directory first on the search
 * path: the same binary, unchanged, on skiff. */
#include "mpi_abi_ref.h"

#define STUB(name, ...)                                                                                  \
    int name(__VA_ARGS__)                                                                                \
    {                                                                                                    \
        return 1; /* never reached on skiff: a run that gets here fails its checks */                    \
    }

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
STUB(MPI_Init, int *argc, char ***argv)
STUB(MPI_Finalize, void)
STUB(MPI_Comm_rank, MPI_Comm comm, int *rank)
STUB(MPI_Comm_size, MPI_Comm comm, int *size)
STUB(MPI_Comm_compare, MPI_Comm comm1, MPI_Comm comm2, int *result)
STUB(MPI_Comm_get_attr, MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
STUB(MPI_Comm_set_errhandler, MPI_Comm comm, MPI_Errhandler errhandler)
STUB(MPI_Error_class, int errorcode, int *errorclass)
STUB(MPI_Type_size, MPI_Datatype datatype, int *size)
STUB(MPI_Send, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
STUB(MPI_Irecv, void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)
STUB(MPI_Isend, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
     MPI_Request *request)
STUB(MPI_Waitall, int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
STUB(MPI_Get_count, const MPI_Status *status, MPI_Datatype datatype, int *count)
STUB(MPI_Allreduce, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
STUB(MPI_Bcast, void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
STUB(MPI_Abi_get_version, int *abi_major, int *abi_minor)
STUB(MPI_Abi_get_info, MPI_Info *info)
STUB(MPI_Info_get_string, MPI_Info info, const char *key, int *buflen, char *value, int *flag)
STUB(MPI_Info_free, MPI_Info *info)
STUB(MPI_Abort, MPI_Comm comm, int errorcode)
