! Point-to-point through the mpi_f08 module: TYPE(MPI_Comm) etc., TYPE(MPI_Status) with its public
! components, IERROR left out, a ring with status checks and MPI_Get_count, Status_f082f/f2f08,
! Isend/Irecv/Waitall with a status array, Waitany's 1-based index, MPI_STATUS_IGNORE, Sendrecv, Probe/Iprobe, handle == and /=,
! strings (Comm_get_name, Error_string), PMPI_ forms, MPI_F_sync_reg, a generalized request whose query, free and
! cancel procedures are Fortran, and array sections as buffers: a non-contiguous
! section in a blocking send and receive (copied), refused in a nonblocking call when the
! implementation says it cannot take one (MPI_SUBARRAYS_SUPPORTED .FALSE.: an error of class
! MPI_ERR_BUFFER under MPI_ERRORS_RETURN). Prints "FAIL [rank N]" and aborts on a wrong answer.
module f08_greq
  use mpi_f08, only: MPI_Status, MPI_ADDRESS_KIND, MPI_SUCCESS, MPI_INTEGER, MPI_Status_set_elements
  implicit none
  integer :: freed = 0, cancelled = 0
contains
  ! A generalized request's procedures: the status says "source 7, tag extra_state, 3 INTEGERs".
  subroutine query(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    status%MPI_SOURCE = 7
    status%MPI_TAG = int(extra_state)
    call MPI_Status_set_elements(status, MPI_INTEGER, 3)
    ierror = MPI_SUCCESS
  end subroutine
  subroutine free_fn(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    freed = freed + int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine
  subroutine cancel_fn(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    if (.not. complete) cancelled = cancelled + int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine
end module

program f08_p2p
  use mpi_f08
  use f08_greq
  implicit none
  integer :: ierr, rank, nprocs, next, prev, i, j, n, idx, cls, slen
  type(MPI_Status) :: st, sts(2), st2
  integer :: fst(MPI_STATUS_SIZE)
  type(MPI_Request) :: reqs(2), rq
  type(MPI_Comm) :: dup
  double precision :: sbuf(10), rbuf(10)
  integer :: m(4, 5), row(5), six(6), m2(3, 2)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call check(ierr == MPI_SUCCESS, 'Comm_size ierror')
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  sbuf = [(rank * 100 + i, i = 1, 10)]

  ! Blocking ring: 7 values sent into a buffer of 10; the status says who, which tag, how many.
  if (mod(rank, 2) == 0 .and. nprocs > 1) then
    call MPI_Send(sbuf, 7, MPI_DOUBLE_PRECISION, next, 40 + rank, MPI_COMM_WORLD)
    call MPI_Recv(rbuf, 10, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st)
  else
    call MPI_Irecv(rbuf, 10, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, rq)
    call MPI_Send(sbuf, 7, MPI_DOUBLE_PRECISION, next, 40 + rank, MPI_COMM_WORLD)
    call MPI_Wait(rq, st)
    call check(rq == MPI_REQUEST_NULL, 'Wait sets MPI_REQUEST_NULL')
  end if
  call check(st%MPI_SOURCE == prev .and. st%MPI_TAG == 40 + prev, &
             'Recv status')
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, n)
  call check(n == 7, 'Get_count')
  ! The same status as the mpi module's INTEGER array, and back.
  call MPI_Status_f082f(st, fst)
  call check(fst(MPI_SOURCE) == prev .and. fst(MPI_TAG) == 40 + prev, 'Status_f082f')
  call MPI_Status_f2f08(fst, st2, ierr)
  call MPI_Get_count(st2, MPI_DOUBLE_PRECISION, n)
  call check(ierr == MPI_SUCCESS .and. st2%MPI_SOURCE == prev .and. n == 7, 'Status_f2f08')
  call check(all(rbuf(1:7) == [(prev * 100 + i, i = 1, 7)]), 'ring data')

  ! Nonblocking both ways, a status array, then Waitany (1-based) with MPI_STATUS_IGNORE.
  call MPI_Irecv(rbuf, 3, MPI_DOUBLE_PRECISION, prev, 5, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 3, MPI_DOUBLE_PRECISION, next, 5, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, sts)
  call check(sts(1)%MPI_SOURCE == prev .and. sts(1)%MPI_TAG == 5, 'Waitall statuses')
  call check(all(reqs == MPI_REQUEST_NULL), 'Waitall requests')
  call MPI_Irecv(rbuf, 1, MPI_DOUBLE_PRECISION, rank, 6, MPI_COMM_WORLD, reqs(2))
  reqs(1) = MPI_REQUEST_NULL
  call MPI_Send(sbuf, 1, MPI_DOUBLE_PRECISION, rank, 6, MPI_COMM_WORLD)
  call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE)
  call check(idx == 2, 'Waitany 1-based index')

  ! Sendrecv, Probe, Iprobe.
  call MPI_Sendrecv(sbuf, 2, MPI_DOUBLE_PRECISION, next, 9, rbuf, 2, MPI_DOUBLE_PRECISION, prev, 9, &
                    MPI_COMM_WORLD, st)
  call check(st%MPI_SOURCE == prev .and. rbuf(2) == prev * 100 + 2, 'Sendrecv')
  call MPI_Isend(sbuf, 4, MPI_DOUBLE_PRECISION, rank, 11, MPI_COMM_WORLD, rq)
  call MPI_Probe(rank, 11, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, n)
  call check(n == 4, 'Probe count')
  call MPI_Iprobe(rank, 11, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE)
  call check(flag, 'Iprobe flag')
  call MPI_Recv(rbuf, 4, MPI_DOUBLE_PRECISION, rank, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Wait(rq, MPI_STATUS_IGNORE)

  ! Array sections: row 2 of m (stride 4) goes to row 3 of the next rank's m; the receiver's other
  ! rows are untouched.
  m = reshape([(rank * 100 + i, i = 1, 20)], [4, 5])
  if (mod(rank, 2) == 0 .and. nprocs > 1) then
    call MPI_Send(m(2, :), 5, MPI_INTEGER, next, 12, MPI_COMM_WORLD)
    call MPI_Recv(m(3, :), 5, MPI_INTEGER, prev, 12, MPI_COMM_WORLD, st)
  else
    row = m(2, :)
    call MPI_Isend(row, 5, MPI_INTEGER, next, 12, MPI_COMM_WORLD, rq)
    call MPI_Recv(m(3, :), 5, MPI_INTEGER, prev, 12, MPI_COMM_WORLD, st)
    call MPI_Wait(rq, MPI_STATUS_IGNORE)
  end if
  call check(all(m(3, :) == [(prev * 100 + 2 + 4 * j, j = 0, 4)]), 'section received')
  call check(all(m(1, :) == [(rank * 100 + 1 + 4 * j, j = 0, 4)]) .and. &
             all(m(4, :) == [(rank * 100 + 4 + 4 * j, j = 0, 4)]), 'rows around the section')
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(n == 5, 'section count')
  ! A 2-D section m(2:3, 2:4): 6 elements in array element order.
  call MPI_Sendrecv(m(2:3, 2:4), 6, MPI_INTEGER, rank, 13, six, 6, MPI_INTEGER, rank, 13, &
                    MPI_COMM_WORLD, st)
  call check(all(six == [m(2:3, 2), m(2:3, 3), m(2:3, 4)]), 'Sendrecv 2-D section')
  ! ... and received into one (a transposed copy lands in m(2:3, 2:4) in element order).
  six = [(-j, j = 1, 6)]
  call MPI_Sendrecv(six, 6, MPI_INTEGER, rank, 15, m(2:3, 2:4), 6, MPI_INTEGER, rank, 15, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(all(m(2:3, 2:4) == reshape([(-j, j = 1, 6)], [2, 3])) .and. m(1, 2) == rank * 100 + 5, &
             'Sendrecv into a 2-D section')

  ! A nonblocking call given a non-contiguous section: refused when MPI_SUBARRAYS_SUPPORTED is false.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call check(dup /= MPI_COMM_WORLD .and. .not. (dup == MPI_COMM_NULL), 'handle == and /=')
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  ! (skiff refuses it; Open MPI, whose MPI_SUBARRAYS_SUPPORTED is false too, lets gfortran pass a
  ! copy, which is only safe here because the copy outlives the send to self.)
  call MPI_Get_library_version(version, slen)
  if (.not. MPI_SUBARRAYS_SUPPORTED .and. index(version, 'skiff') > 0) then
    call MPI_Isend(m(1, :), 5, MPI_INTEGER, rank, 14, dup, rq, ierr)
    call MPI_Error_class(ierr, cls)
    call check(cls == MPI_ERR_BUFFER, 'nonblocking section refused')
    call MPI_Error_string(ierr, msg, slen)
    call check(index(msg, 'MPI_Isend') > 0 .and. index(msg, 'non-contiguous') > 0, 'refusal says why')
  end if
  call MPI_Send(sbuf, 1, MPI_DOUBLE_PRECISION, nprocs + 5, 1, dup, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_RANK, 'bad rank returned')
  call MPI_Error_string(ierr, msg, slen)
  call check(slen > 0 .and. slen <= len(msg) .and. msg(slen + 1:) == ' ', 'Error_string padded')

  ! A generalized request whose procedures are written in Fortran.
  call MPI_Grequest_start(query, free_fn, cancel_fn, 33_MPI_ADDRESS_KIND, rq)
  call MPI_Test(rq, flag, MPI_STATUS_IGNORE)
  call check(.not. flag, 'generalized request pending')
  call MPI_Grequest_complete(rq)
  call MPI_Wait(rq, st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(st%MPI_SOURCE == 7 .and. st%MPI_TAG == 33 .and. n == 3, 'Grequest query procedure')
  call check(freed == 33 .and. cancelled == 0 .and. rq == MPI_REQUEST_NULL, 'Grequest free procedure')

  ! Strings and the profiling names.
  call MPI_Comm_set_name(dup, '  f08 dup  ')
  call MPI_Comm_get_name(dup, name, slen)
  call check(name == 'f08 dup' .and. slen == 7, 'Comm_get_name')
  call PMPI_Comm_rank(dup, n)
  call check(n == rank, 'PMPI_Comm_rank')
  call MPI_Comm_free(dup)
  call check(dup == MPI_COMM_NULL, 'Comm_free')

  ! MPI_F_sync_reg: any type and rank, no IERROR; the buffer is left as it was.
  m2 = 3
  call MPI_F_sync_reg(m2)
  call MPI_F_sync_reg(m2(2, :))
  call check(all(m2 == 3), 'MPI_F_sync_reg')
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Finalize(ierr)
  call check(ierr == MPI_SUCCESS, 'Finalize')
  if (rank == 0) print '(a)', 'f08_p2p: ok'
end program
