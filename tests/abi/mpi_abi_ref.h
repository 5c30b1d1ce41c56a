/* mpi_abi_ref.h: the few MPI-5.0 standard ABI definitions tests/abi/abi_app.c uses, written for this test
 * from the MPI Forum's reference header (github.com/mpi-forum/mpi-abi-stubs, mpi.h), NOT from skiff's
 * include/mpi.h: a program built against it and linked with -lmpi_abi must run on skiff unchanged.
 * Values and signatures are the reference header's; nothing here is skiff's own. */
#ifndef MPI_ABI_REF_H
#define MPI_ABI_REF_H

#include <stdint.h>

typedef intptr_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef MPI_Offset MPI_Count;

typedef struct {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int MPI_internal[5];
} MPI_Status;

typedef struct MPI_ABI_Op *MPI_Op;
typedef struct MPI_ABI_Comm *MPI_Comm;
typedef struct MPI_ABI_Group *MPI_Group;
typedef struct MPI_ABI_Info *MPI_Info;
typedef struct MPI_ABI_Errhandler *MPI_Errhandler;
typedef struct MPI_ABI_Request *MPI_Request;
typedef struct MPI_ABI_Datatype *MPI_Datatype;

#define MPI_ABI_VERSION    1
#define MPI_ABI_SUBVERSION 0

#define MPI_SUM              ((MPI_Op)0x00000021)
#define MPI_MAX              ((MPI_Op)0x00000023)
#define MPI_COMM_NULL        ((MPI_Comm)0x00000100)
#define MPI_COMM_WORLD       ((MPI_Comm)0x00000101)
#define MPI_COMM_SELF        ((MPI_Comm)0x00000102)
#define MPI_INFO_NULL        ((MPI_Info)0x00000130)
#define MPI_ERRORS_RETURN    ((MPI_Errhandler)0x00000142)
#define MPI_REQUEST_NULL     ((MPI_Request)0x00000180)
#define MPI_INT              ((MPI_Datatype)0x00000209)
#define MPI_LONG_LONG        ((MPI_Datatype)0x0000020b)
#define MPI_DOUBLE           ((MPI_Datatype)0x00000214)
#define MPI_CHAR             ((MPI_Datatype)0x00000243)
#define MPI_STATUS_IGNORE    ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE  ((MPI_Status *)0)

enum {
    MPI_SUCCESS = 0,
    MPI_ERR_RANK = 6,
    MPI_ERR_TAG = 4,
    MPI_ANY_SOURCE = -1,
    MPI_ANY_TAG = -2,
    MPI_PROC_NULL = -3,
    MPI_UNDEFINED = -32766,
    MPI_IDENT = 201,
    MPI_UNEQUAL = 204,
    MPI_TAG_UB = 501
};
#define MPI_MAX_INFO_VAL 1024

int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Type_size(MPI_Datatype datatype, int *size);
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int MPI_Abi_get_version(int *abi_major, int *abi_minor);
int MPI_Abi_get_info(MPI_Info *info);
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);
int MPI_Info_free(MPI_Info *info);
int MPI_Abort(MPI_Comm comm, int errorcode);

#endif
