! Point-to-point from Fortran through mpif.h (fixed form; built again
! with -DSKIFF_USE_MPI for the mpi module): a ring with
! status checks (MPI_SOURCE, MPI_TAG, MPI_Get_count), nonblocking calls
! with a status array, Waitany's 1-based index, MPI_STATUS_IGNORE,
! Sendrecv, Probe, errors returned (MPI_ERRORS_RETURN, Error_class,
! Error_string), PMPI_ names and MPI_F_SYNC_REG. Prints "FAIL [rank N]"
! and aborts on a wrong answer.
      program f_p2p
#include "use_mpi.inc"
      integer ierr, rank, nprocs, next, prev, n, i, idx, cls, slen
      integer status(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
      integer reqs(2)
      double precision sbuf(10), rbuf(10), t0
      character*(MPI_MAX_ERROR_STRING) msg
      logical flag

      call MPI_INIT(ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Init')
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      t0 = MPI_WTIME()
      next = mod(rank + 1, nprocs)
      prev = mod(rank + nprocs - 1, nprocs)
      do i = 1, 10
         sbuf(i) = rank * 100 + i
      end do

!     Blocking ring: 7 values sent, a buffer of 10 received. Odd ranks
!     (and a single rank, which sends to itself) receive first.
      if (mod(rank, 2) .eq. 0 .and. nprocs .gt. 1) then
         call MPI_SEND(sbuf, 7, MPI_DOUBLE_PRECISION, next, 40 + rank,
     &                 MPI_COMM_WORLD, ierr)
         call MPI_RECV(rbuf, 10, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE,
     &                 MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
      else
         call MPI_IRECV(rbuf, 10, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE,
     &                 MPI_ANY_TAG, MPI_COMM_WORLD, reqs(1), ierr)
         call MPI_SEND(sbuf, 7, MPI_DOUBLE_PRECISION, next, 40 + rank,
     &                 MPI_COMM_WORLD, ierr)
         call MPI_WAIT(reqs(1), status, ierr)
      end if
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Send/Recv ierr')
      call check(status(MPI_SOURCE) .eq. prev, 'status(MPI_SOURCE)')
      call check(status(MPI_TAG) .eq. 40 + prev, 'status(MPI_TAG)')
      call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, n, ierr)
      call check(n .eq. 7, 'MPI_Get_count')
      call check(rbuf(7) .eq. prev * 100 + 7, 'received values')

!     Nonblocking both ways, statuses in an array.
      call MPI_IRECV(rbuf, 10, MPI_DOUBLE_PRECISION, prev, 5,
     &               MPI_COMM_WORLD, reqs(1), ierr)
      call MPI_ISEND(sbuf, 3, MPI_DOUBLE_PRECISION, next, 5,
     &               MPI_COMM_WORLD, reqs(2), ierr)
      call MPI_WAITALL(2, reqs, sts, ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Waitall')
      call check(reqs(1) .eq. MPI_REQUEST_NULL, 'request freed')
      call check(sts(MPI_SOURCE, 1) .eq. prev, 'statuses source')
      call MPI_GET_COUNT(sts(:, 1), MPI_DOUBLE_PRECISION, n, ierr)
      call check(n .eq. 3, 'Get_count from a status array')

!     Waitany: the index is 1-based in Fortran.
      call MPI_IRECV(rbuf, 10, MPI_DOUBLE_PRECISION, prev, 6,
     &               MPI_COMM_WORLD, reqs(1), ierr)
      reqs(2) = MPI_REQUEST_NULL
      call MPI_SEND(sbuf, 1, MPI_DOUBLE_PRECISION, next, 6,
     &              MPI_COMM_WORLD, ierr)
      call MPI_WAITANY(2, reqs, idx, status, ierr)
      call check(idx .eq. 1, 'MPI_Waitany index')

!     MPI_STATUS_IGNORE, Probe, Sendrecv.
      call MPI_SENDRECV(sbuf, 2, MPI_DOUBLE_PRECISION, next, 7,
     &                  rbuf, 10, MPI_DOUBLE_PRECISION, prev, 7,
     &                  MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call check(rbuf(2) .eq. prev * 100 + 2, 'MPI_Sendrecv')
      call MPI_ISEND(sbuf, 4, MPI_DOUBLE_PRECISION, next, 8,
     &               MPI_COMM_WORLD, reqs(2), ierr)
      call MPI_PROBE(prev, 8, MPI_COMM_WORLD, status, ierr)
      call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, n, ierr)
      call check(n .eq. 4, 'MPI_Probe count')
      call MPI_RECV(rbuf, n, MPI_DOUBLE_PRECISION, prev, 8,
     &              MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_WAIT(reqs(2), MPI_STATUS_IGNORE, ierr)
      call MPI_IPROBE(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, flag,
     &                status, ierr)
      call check(.not. flag, 'MPI_Iprobe found nothing')

!     Errors returned: a send to a rank that does not exist.
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &                             ierr)
      call MPI_SEND(sbuf, 1, MPI_DOUBLE_PRECISION, nprocs + 5, 0,
     &              MPI_COMM_WORLD, ierr)
      call check(ierr .ne. MPI_SUCCESS, 'bad rank accepted')
      call MPI_ERROR_CLASS(ierr, cls, i)
      call check(cls .eq. MPI_ERR_RANK, 'error class MPI_ERR_RANK')
      msg = 'x'
      call MPI_ERROR_STRING(ierr, msg, slen, i)
      call check(slen .gt. 0 .and. slen .le. MPI_MAX_ERROR_STRING,
     &           'MPI_Error_string length')
      call check(msg(slen+1:) .eq. ' ', 'error string blank-padded')
      call check(MPI_WTIME() .ge. t0, 'MPI_Wtime')
      call PMPI_COMM_RANK(MPI_COMM_WORLD, i, ierr)
      call check(i .eq. rank .and. ierr .eq. MPI_SUCCESS,
     &           'PMPI_Comm_rank')
      call check(PMPI_WTIME() .ge. t0, 'PMPI_Wtime')
!     MPI_F_SYNC_REG: no IERROR; the buffer is left as it was.
      rbuf(1) = 5
      call MPI_F_SYNC_REG(rbuf)
      call check(rbuf(1) .eq. 5, 'MPI_F_SYNC_REG')

      call MPI_FINALIZE(ierr)
      if (rank .eq. 0) print '(a)', 'f_p2p: ok'
      end
