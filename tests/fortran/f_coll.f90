! Collectives from Fortran through the mpi module (free form), on Fortran types: Allreduce SUM on
! DOUBLE PRECISION and COMPLEX, LAND on LOGICAL, MAXLOC on 2DOUBLE_PRECISION, MPI_IN_PLACE, Bcast,
! Gather, Alltoall, Reduce, Scan, and a user-defined op written in Fortran (Op_create).
! Prints "FAIL [rank N]" and aborts on a wrong answer.
module f_coll_ops
  implicit none
contains
  ! Elementwise maximum of absolute values, INTEGER only.
  subroutine absmax(invec, inoutvec, len, datatype)
    integer :: len, datatype
    integer :: invec(len), inoutvec(len)
    integer :: i
    if (datatype < 0) return
    do i = 1, len
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine
end module

program f_coll
  use mpi
  use f_coll_ops
  implicit none
  integer :: ierr, rank, nprocs, i, root, op
  double precision :: d, dsum, pair(2), best(2)
  complex :: z, zsum
  logical :: l, lall
  integer, allocatable :: sendv(:), recvv(:), gathered(:)
  integer :: iv(3), ivsum(3), ibuf(4)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  d = rank + 0.5d0
  call MPI_Allreduce(d, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. dsum == nprocs * (nprocs - 1) / 2.0d0 + 0.5d0 * nprocs, &
             'Allreduce SUM DOUBLE PRECISION')

  z = cmplx(rank, 1.0)
  call MPI_Allreduce(z, zsum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(zsum == cmplx(nprocs * (nprocs - 1) / 2, nprocs), 'Allreduce SUM COMPLEX')

  l = .true.
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(lall, 'Allreduce LAND all true')
  l = (rank /= nprocs - 1)
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(.not. lall, 'Allreduce LAND one false')
  call MPI_Allreduce(l, lall, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call check(lall .eqv. (nprocs > 1), 'Allreduce LOR')

  ! MAXLOC: the value peaks at rank nprocs/2; the index is carried as a DOUBLE PRECISION.
  pair(1) = -abs(rank - nprocs / 2)
  pair(2) = rank
  call MPI_Allreduce(pair, best, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call check(best(1) == 0.0d0 .and. nint(best(2)) == nprocs / 2, 'Allreduce MAXLOC 2DOUBLE_PRECISION')

  ! MPI_IN_PLACE (Allreduce) and Reduce into the root's buffer.
  iv = [rank, 1, -rank]
  call MPI_Allreduce(MPI_IN_PLACE, iv, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(all(iv == [nprocs * (nprocs - 1) / 2, nprocs, -nprocs * (nprocs - 1) / 2]), &
             'Allreduce MPI_IN_PLACE')
  root = nprocs - 1
  iv = [rank, 2, 3]
  if (rank == root) then
    call MPI_Reduce(MPI_IN_PLACE, iv, 3, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, ierr)
    call check(all(iv == [nprocs - 1, 2, 3]), 'Reduce MPI_IN_PLACE at the root')
  else
    call MPI_Reduce(iv, ivsum, 3, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, ierr)
  end if

  ! Bcast of a CHARACTER buffer and an INTEGER array.
  ibuf = 0
  if (rank == root) ibuf = [4, 3, 2, 1]
  call MPI_Bcast(ibuf, 4, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  call check(all(ibuf == [4, 3, 2, 1]), 'Bcast INTEGER')

  ! Gather and Alltoall.
  allocate(gathered(nprocs), sendv(nprocs), recvv(nprocs))
  call MPI_Gather(rank * 3, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(all(gathered == [(3 * i, i = 0, nprocs - 1)]), 'Gather')
  sendv = [(rank * 100 + i, i = 0, nprocs - 1)]
  call MPI_Alltoall(sendv, 1, MPI_INTEGER, recvv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(recvv == [(i * 100 + rank, i = 0, nprocs - 1)]), 'Alltoall')
  deallocate(gathered, sendv, recvv)

  ! Scan.
  call MPI_Scan(1, i, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(i == rank + 1, 'Scan')

  ! A user-defined op written in Fortran.
  call MPI_Op_create(absmax, .true., op, ierr)
  call check(ierr == MPI_SUCCESS, 'Op_create')
  iv = [-rank, rank, 1]
  call MPI_Allreduce(iv, ivsum, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(all(ivsum == [nprocs - 1, nprocs - 1, 1]), 'Allreduce with a Fortran op')
  call MPI_Op_free(op, ierr)
  call check(op == MPI_OP_NULL, 'Op_free sets MPI_OP_NULL')

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
  if (rank == 0) print '(a)', 'f_coll: ok'
end program
