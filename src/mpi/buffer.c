/* The buffers of buffered sends (core/bsend.c): the process's (MPI_Buffer_*) and, from MPI-4.1, one per
 * communicator (MPI_Comm_*_buffer) and one per session (MPI_Session_*_buffer), with flushes that wait for
 * the messages buffered so far and leave the buffer attached. */
#include "core/bsend.h"
#include "mpi/mpi_impl.h"
#include "mpi/session.h"

/* Sizes are MPI_Count: the int calls and their large-count (_c) twins share these. */
static int check_attach(const void *buffer, MPI_Count size)
{
    /* MPI_BUFFER_AUTOMATIC ignores size. */
    if (buffer == MPI_BUFFER_AUTOMATIC)
        return MPI_SUCCESS;
    if (size < 0)
        return skiff_err(MPI_ERR_ARG, "invalid buffer size %lld (must be >= 0)", (long long)size);
    if (!buffer && size > 0)
        return skiff_err(MPI_ERR_BUFFER, "buffer is NULL but size is %lld", (long long)size);
    return MPI_SUCCESS;
}

static int attach(enum skiff_bbuf_kind kind, const void *owner, void *buffer, MPI_Count size)
{
    int rc = check_attach(buffer, size);
    return rc ? rc : skiff_bsend_attach(kind, owner, buffer, buffer == MPI_BUFFER_AUTOMATIC ? 0 : (size_t)size);
}

/* buffer_addr receives the address itself (the standard's void * that really is a void **). Exactly one
 * of size (the int calls) and size_c (the _c calls) is given; a buffer attached by a _c call may be
 * larger than an int: the int calls then report INT_MAX. */
static int detach_to(enum skiff_bbuf_kind kind, const void *owner, void *buffer_addr, int *size, MPI_Count *size_c)
{
    int rc = skiff_check_ptr(buffer_addr, "buffer_addr");
    if (rc || (rc = skiff_check_ptr(size ? (void *)size : (void *)size_c, "size")))
        return rc;
    void *buf;
    size_t sz;
    skiff_bsend_detach(kind, owner, &buf, &sz);
    *(void **)buffer_addr = buf;
    if (size)
        *size = sz > INT_MAX ? INT_MAX : (int)sz;
    else
        *size_c = (MPI_Count)sz;
    return MPI_SUCCESS;
}

static int detach(enum skiff_bbuf_kind kind, const void *owner, void *buffer_addr, int *size)
{
    return detach_to(kind, owner, buffer_addr, size, NULL);
}

static int iflush(enum skiff_bbuf_kind kind, const void *owner, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    int rc = skiff_check_ptr(request, "request");
    if (rc || (rc = skiff_bsend_iflush(kind, owner, &r)))
        return rc;
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    SKIFF_ENTER(MPI_Buffer_attach);
    SKIFF_REQUIRE_INIT();
    int rc = attach(SKIFF_BBUF_PROCESS, NULL, buffer, size);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Buffer_attach)

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    SKIFF_ENTER(MPI_Buffer_attach_c);
    SKIFF_REQUIRE_INIT();
    int rc = attach(SKIFF_BBUF_PROCESS, NULL, buffer, size);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Buffer_attach_c)

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    SKIFF_ENTER(MPI_Buffer_detach);
    SKIFF_REQUIRE_INIT();
    int rc = detach(SKIFF_BBUF_PROCESS, NULL, buffer_addr, size);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Buffer_detach)

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    SKIFF_ENTER(MPI_Buffer_detach_c);
    SKIFF_REQUIRE_INIT();
    int rc = detach_to(SKIFF_BBUF_PROCESS, NULL, buffer_addr, NULL, size);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Buffer_detach_c)

int PMPI_Buffer_flush(void)
{
    SKIFF_ENTER(MPI_Buffer_flush);
    SKIFF_REQUIRE_INIT();
    return skiff_bsend_flush(SKIFF_BBUF_PROCESS, NULL);
}
SKIFF_ALIAS(MPI_Buffer_flush)

int PMPI_Buffer_iflush(MPI_Request *request)
{
    SKIFF_ENTER(MPI_Buffer_iflush);
    SKIFF_REQUIRE_INIT();
    int rc = iflush(SKIFF_BBUF_PROCESS, NULL, request);
    return rc ? skiff_fail(MPI_COMM_WORLD, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Buffer_iflush)

static int comm_attach(MPI_Comm comm, void *buffer, MPI_Count size)
{
    struct skiff_comm *c = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (rc || (rc = attach(SKIFF_BBUF_COMM, c, buffer, size)))
        return skiff_fail(comm, rc);
    return MPI_SUCCESS;
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    SKIFF_ENTER(MPI_Comm_attach_buffer);
    SKIFF_REQUIRE_INIT();
    return comm_attach(comm, buffer, size);
}
SKIFF_ALIAS(MPI_Comm_attach_buffer)

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    SKIFF_ENTER(MPI_Comm_attach_buffer_c);
    SKIFF_REQUIRE_INIT();
    return comm_attach(comm, buffer, size);
}
SKIFF_ALIAS(MPI_Comm_attach_buffer_c)

static int comm_detach(MPI_Comm comm, void *buffer_addr, int *size, MPI_Count *size_c)
{
    struct skiff_comm *c = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (rc || (rc = detach_to(SKIFF_BBUF_COMM, c, buffer_addr, size, size_c)))
        return skiff_fail(comm, rc);
    return MPI_SUCCESS;
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    SKIFF_ENTER(MPI_Comm_detach_buffer);
    SKIFF_REQUIRE_INIT();
    return comm_detach(comm, buffer_addr, size, NULL);
}
SKIFF_ALIAS(MPI_Comm_detach_buffer)

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    SKIFF_ENTER(MPI_Comm_detach_buffer_c);
    SKIFF_REQUIRE_INIT();
    return comm_detach(comm, buffer_addr, NULL, size);
}
SKIFF_ALIAS(MPI_Comm_detach_buffer_c)

int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_flush_buffer);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (rc || (rc = skiff_bsend_flush(SKIFF_BBUF_COMM, c)))
        return skiff_fail(comm, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_flush_buffer)

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Comm_iflush_buffer);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (rc || (rc = iflush(SKIFF_BBUF_COMM, c, request)))
        return skiff_fail(comm, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Comm_iflush_buffer)

static int session_attach(MPI_Session session, void *buffer, MPI_Count size)
{
    const void *s = NULL;
    int rc = skiff_session_check(session, &s);
    if (rc || (rc = attach(SKIFF_BBUF_SESSION, s, buffer, size)))
        return skiff_session_fail(session, rc);
    return MPI_SUCCESS;
}

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    SKIFF_ENTER(MPI_Session_attach_buffer);
    return session_attach(session, buffer, size);
}
SKIFF_ALIAS(MPI_Session_attach_buffer)

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    SKIFF_ENTER(MPI_Session_attach_buffer_c);
    return session_attach(session, buffer, size);
}
SKIFF_ALIAS(MPI_Session_attach_buffer_c)

static int session_detach(MPI_Session session, void *buffer_addr, int *size, MPI_Count *size_c)
{
    const void *s = NULL;
    int rc = skiff_session_check(session, &s);
    if (rc || (rc = detach_to(SKIFF_BBUF_SESSION, s, buffer_addr, size, size_c)))
        return skiff_session_fail(session, rc);
    return MPI_SUCCESS;
}

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    SKIFF_ENTER(MPI_Session_detach_buffer);
    return session_detach(session, buffer_addr, size, NULL);
}
SKIFF_ALIAS(MPI_Session_detach_buffer)

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    SKIFF_ENTER(MPI_Session_detach_buffer_c);
    return session_detach(session, buffer_addr, NULL, size);
}
SKIFF_ALIAS(MPI_Session_detach_buffer_c)

int PMPI_Session_flush_buffer(MPI_Session session)
{
    const void *s = NULL;
    SKIFF_ENTER(MPI_Session_flush_buffer);
    int rc = skiff_session_check(session, &s);
    if (rc || (rc = skiff_bsend_flush(SKIFF_BBUF_SESSION, s)))
        return skiff_session_fail(session, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_flush_buffer)

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    const void *s = NULL;
    SKIFF_ENTER(MPI_Session_iflush_buffer);
    int rc = skiff_session_check(session, &s);
    if (rc || (rc = iflush(SKIFF_BBUF_SESSION, s, request)))
        return skiff_session_fail(session, rc);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Session_iflush_buffer)
