! Every collective through the mpi_f08 module, on Fortran types: Barrier, Bcast, Reduce, Allreduce
! (SUM on DOUBLE PRECISION and COMPLEX, LAND/LOR on LOGICAL, MAXLOC on 2DOUBLE_PRECISION, MPI_IN_PLACE),
! Gather(v), Scatter(v), Allgather(v), Alltoall(v,w), Reduce_scatter(_block), Scan, Exscan,
! Reduce_local, a nonblocking Iallreduce and a persistent Bcast_init, a section as a blocking buffer,
! the large-count forms (Allreduce, Sendrecv, Get_count with MPI_COUNT_KIND counts),
! and user ops written in Fortran with mpi_f08's MPI_User_function (TYPE(C_PTR) vectors) and, through
! MPI_Op_create_c, MPI_User_function_c (an MPI_COUNT_KIND length).
! Prints "FAIL [rank N]" and aborts on a wrong answer.
module f08_coll_ops
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use mpi_f08, only: MPI_Datatype, MPI_INTEGER, MPI_COUNT_KIND, operator(==)
  implicit none
contains
  ! Elementwise maximum of absolute values, INTEGER only.
  subroutine absmax(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    call absmax_n(invec, inoutvec, int(len, MPI_COUNT_KIND), datatype)
  end subroutine

  ! The same for MPI_Op_create_c: the length is an INTEGER(KIND=MPI_COUNT_KIND).
  subroutine absmax_c(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    call absmax_n(invec, inoutvec, len, datatype)
  end subroutine

  subroutine absmax_n(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    if (.not. (datatype == MPI_INTEGER)) return
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(abs(a), abs(b))
  end subroutine
end module

program f08_coll
  use mpi_f08
  use f08_coll_ops
  implicit none
  integer :: rank, np, i, j, root, tot
  double precision :: d, dsum, pair(2), best(2)
  complex :: z, zsum
  logical :: l, lall
  integer, allocatable :: sendv(:), recvv(:), counts(:), displs(:), rcounts(:), rdispls(:)
  integer :: iv(3), ivsum(3), ibuf(4), m(3, 4), x
  type(MPI_Op) :: op
  type(MPI_Request) :: rq
  type(MPI_Status) :: st
  integer(kind=MPI_COUNT_KIND) :: bigcount
  type(MPI_Datatype), allocatable :: types(:)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  root = np - 1
  call MPI_Barrier(MPI_COMM_WORLD)

  d = rank + 0.5d0
  call MPI_Allreduce(d, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call check(dsum == np * (np - 1) / 2.0d0 + 0.5d0 * np, 'Allreduce SUM DOUBLE PRECISION')
  z = cmplx(rank, 1.0)
  call MPI_Allreduce(z, zsum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD)
  call check(zsum == cmplx(np * (np - 1) / 2, np), 'Allreduce SUM COMPLEX')
  l = (rank /= np - 1)
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
  call check(.not. lall, 'Allreduce LAND')
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD)
  call check(lall .eqv. (np > 1), 'Allreduce LOR')
  pair = [dble(-abs(rank - np / 2)), dble(rank)]
  call MPI_Allreduce(pair, best, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD)
  call check(best(1) == 0.0d0 .and. nint(best(2)) == np / 2, 'Allreduce MAXLOC 2DOUBLE_PRECISION')

  iv = [rank, 1, -rank]
  call MPI_Allreduce(MPI_IN_PLACE, iv, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  tot = np * (np - 1) / 2
  call check(all(iv == [tot, np, -tot]), 'Allreduce MPI_IN_PLACE')
  iv = [rank, 1, -rank]
  if (rank == root) then
    call MPI_Reduce(MPI_IN_PLACE, iv, 3, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD)
    call check(all(iv == [np - 1, 1, 0]), 'Reduce MPI_IN_PLACE at the root')
  else
    call MPI_Reduce(iv, ivsum, 3, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD)
  end if
  iv = [2, 3, 4]
  call MPI_Reduce_local([1, 2, 3], iv, 3, MPI_INTEGER, MPI_PROD)
  call check(all(iv == [2, 6, 12]), 'Reduce_local')

  ! Bcast of a section (a blocking call: skiff copies it).
  m = -1
  if (rank == 0) m(2, :) = [7, 8, 9, 10]
  call MPI_Bcast(m(2, :), 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call check(all(m(2, :) == [7, 8, 9, 10]) .and. all(m(1, :) == -1) .and. all(m(3, :) == -1), &
             'Bcast of a row section')

  allocate(sendv(2 * np), recvv(2 * np), counts(np), displs(np), rcounts(np), rdispls(np), types(np))
  ! Gather / Scatter / Allgather.
  call MPI_Gather([rank, 2 * rank], 2, MPI_INTEGER, recvv, 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (rank == 0) call check(all(recvv == [((i * j, j = 1, 2), i = 0, np - 1)]), 'Gather')
  sendv = [(i, i = 1, 2 * np)]
  call MPI_Scatter(sendv, 2, MPI_INTEGER, ibuf, 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call check(all(ibuf(1:2) == [2 * rank + 1, 2 * rank + 2]), 'Scatter')
  call MPI_Allgather(rank, 1, MPI_INTEGER, recvv, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(recvv(1:np) == [(i, i = 0, np - 1)]), 'Allgather')
  ! The v forms: rank i contributes i+1 values (at most 2 here: counts are min(i+1, 2)).
  counts = [(min(i + 1, 2), i = 0, np - 1)]
  displs = [(2 * i, i = 0, np - 1)]
  recvv = -1
  call MPI_Gatherv([rank, rank], counts(rank + 1), MPI_INTEGER, recvv, counts, displs, MPI_INTEGER, &
                   0, MPI_COMM_WORLD)
  if (rank == 0) call check(recvv(1) == 0 .and. all(recvv(3:min(4, 2 * np)) == 1), 'Gatherv')
  recvv = -1
  call MPI_Allgatherv([rank, rank], counts(rank + 1), MPI_INTEGER, recvv, counts, displs, MPI_INTEGER, &
                      MPI_COMM_WORLD)
  call check(recvv(1) == 0 .and. recvv(2) == -1 .and. all(recvv(3:min(4, 2 * np)) == 1), 'Allgatherv')
  sendv = [(100 * i, i = 1, 2 * np)]
  ibuf = -1
  call MPI_Scatterv(sendv, counts, displs, MPI_INTEGER, ibuf, counts(rank + 1), MPI_INTEGER, 0, &
                    MPI_COMM_WORLD)
  call check(ibuf(1) == 100 * (2 * rank + 1) .and. (ibuf(2) == 100 * (2 * rank + 2) .or. rank == 0), &
             'Scatterv')

  ! Alltoall(v,w): rank r sends r*10+dest to each dest.
  sendv(1:np) = [(rank * 10 + i, i = 0, np - 1)]
  call MPI_Alltoall(sendv, 1, MPI_INTEGER, recvv, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(recvv(1:np) == [(i * 10 + rank, i = 0, np - 1)]), 'Alltoall')
  counts = 1
  displs = [(i, i = 0, np - 1)]
  recvv = -1
  call MPI_Alltoallv(sendv, counts, displs, MPI_INTEGER, recvv, counts, displs, MPI_INTEGER, &
                     MPI_COMM_WORLD)
  call check(all(recvv(1:np) == [(i * 10 + rank, i = 0, np - 1)]), 'Alltoallv')
  types = MPI_INTEGER
  rdispls = 4 * displs
  recvv = -1
  call MPI_Alltoallw(sendv, counts, rdispls, types, recvv, counts, rdispls, types, MPI_COMM_WORLD)
  call check(all(recvv(1:np) == [(i * 10 + rank, i = 0, np - 1)]), 'Alltoallw')

  ! Reduce_scatter(_block), Scan, Exscan.
  sendv(1:np) = [(rank + i, i = 0, np - 1)]
  call MPI_Reduce_scatter_block(sendv, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(x == tot + np * rank, 'Reduce_scatter_block')
  counts = 1
  call MPI_Reduce_scatter(sendv, x, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(x == tot + np * rank, 'Reduce_scatter')
  call MPI_Scan(rank + 1, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(x == (rank + 1) * (rank + 2) / 2, 'Scan')
  x = -7
  call MPI_Exscan(rank + 1, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(rank == 0 .or. x == rank * (rank + 1) / 2, 'Exscan')

  ! Nonblocking and persistent.
  iv = [rank, rank, rank]
  call MPI_Iallreduce(MPI_IN_PLACE, iv, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, rq)
  call MPI_Wait(rq, MPI_STATUS_IGNORE)
  call check(all(iv == tot), 'Iallreduce')
  x = merge(42, 0, rank == 0)
  call MPI_Bcast_init(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, MPI_INFO_NULL, rq)
  call MPI_Start(rq)
  call MPI_Wait(rq, MPI_STATUS_IGNORE)
  call MPI_Request_free(rq)
  call check(x == 42, 'Bcast_init')

  ! Large-count forms (MPI-4, mpi_f08 only): an MPI_COUNT_KIND count picks MPI_Allreduce_c, etc.
  iv = [1, 2, 3]
  call MPI_Allreduce(iv, ivsum, 3_MPI_COUNT_KIND, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(all(ivsum == np * [1, 2, 3]), 'Allreduce with an MPI_COUNT_KIND count')
  call MPI_Sendrecv(iv, 3_MPI_COUNT_KIND, MPI_INTEGER, rank, 21, ivsum, 3_MPI_COUNT_KIND, MPI_INTEGER, rank, &
                    21, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_INTEGER, bigcount)
  call check(bigcount == 3 .and. all(ivsum == iv), 'Sendrecv and Get_count with MPI_COUNT_KIND counts')

  ! A user op written in Fortran.
  call MPI_Op_create(absmax, .true., op)
  iv = [rank, -rank - 1, 3]
  call MPI_Allreduce(iv, ivsum, 3, MPI_INTEGER, op, MPI_COMM_WORLD)
  ! (on one rank the op is never called: the result is the input)
  call check(all(ivsum == [np - 1, np, 3]) .or. (np == 1 .and. all(ivsum == iv)), 'user op absmax')
  call MPI_Op_free(op)
  call check(op == MPI_OP_NULL, 'Op_free')
  ! MPI_Op_create_c: its own generic (a procedure argument cannot pick a specific of MPI_Op_create).
  call MPI_Op_create_c(absmax_c, .true., op)
  iv = [-rank, rank + 1, -3]
  call MPI_Allreduce(iv, ivsum, 3_MPI_COUNT_KIND, MPI_INTEGER, op, MPI_COMM_WORLD)
  call check(all(ivsum == [np - 1, np, 3]) .or. (np == 1 .and. all(ivsum == iv)), 'Op_create_c absmax_c')
  call MPI_Op_free(op)

  deallocate(sendv, recvv, counts, displs, rcounts, rdispls, types)
  call MPI_Finalize()
  if (rank == 0) print '(a)', 'f08_coll: ok'
end program
