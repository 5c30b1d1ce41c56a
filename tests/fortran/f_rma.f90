! One-sided communication through the mpi module (-DSKIFF_USE_MPI) and mpif.h (without):
! MPI_Win_allocate (the INTEGER(KIND=MPI_ADDRESS_KIND) baseptr turned into a Fortran array through
! C_F_POINTER), MPI_Win_create on a DOUBLE PRECISION array,
! Put and Get between fences, Accumulate under Lock/Unlock, Fetch_and_op, and MPI_WIN_SIZE.
! (A one-sided call keeps its buffer until the epoch ends: every origin buffer here is a variable.)
! Prints "FAIL [rank N]" and aborts on a wrong answer.
program f_rma
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
#include "use_mpi.inc"
  integer, parameter :: n = 8
  integer :: ierr, rank, np, next, prev, i, win, win2, one, old, pair(2)
  integer(kind=MPI_ADDRESS_KIND) :: baseptr, size, val
  integer, pointer :: mem(:)
  double precision :: arr(n), got(n)
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)

  size = 4 * n
  call MPI_Win_allocate(size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
  call check(ierr == MPI_SUCCESS, 'Win_allocate')
  call c_f_pointer(transfer(baseptr, c_null()), mem, [n])
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag, ierr)
  call check(flag .and. val == size, 'MPI_WIN_SIZE')
  mem = -1
  call MPI_Win_fence(0, win, ierr)
  pair = [rank, rank + 1]
  call MPI_Put(pair, 2, MPI_INTEGER, next, 2_MPI_ADDRESS_KIND, 2, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call check(mem(3) == prev .and. mem(4) == prev + 1 .and. mem(1) == -1 .and. mem(5) == -1, 'Put')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  one = 1
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win, ierr)
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, 5_MPI_ADDRESS_KIND, MPI_SUM, win, ierr)
  call MPI_Win_unlock(0, win, ierr)
  call check(old >= -1 .and. old < np - 1, 'Fetch_and_op old value')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(mem(6) == np - 1, 'Fetch_and_op total')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Win_free(win, ierr)
  call check(win == MPI_WIN_NULL, 'Win_free')

  arr = [(rank * 10 + i, i = 1, n)]
  call MPI_Win_create(arr, int(8 * n, MPI_ADDRESS_KIND), 8, MPI_INFO_NULL, MPI_COMM_WORLD, win2, ierr)
  call MPI_Win_fence(MPI_MODE_NOPRECEDE, win2, ierr)
  call MPI_Get(got, n, MPI_DOUBLE_PRECISION, next, 0_MPI_ADDRESS_KIND, n, MPI_DOUBLE_PRECISION, win2, ierr)
  call MPI_Win_fence(0, win2, ierr)
  call check(all(got == [(next * 10 + i, i = 1, n)]), 'Get from a Win_create window')
  got(1:2) = got(1:2) + 100
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win2, ierr)
  call MPI_Accumulate(got, 2, MPI_DOUBLE_PRECISION, next, 3_MPI_ADDRESS_KIND, 2, MPI_DOUBLE_PRECISION, &
                      MPI_MAX, win2, ierr)
  call MPI_Win_unlock(next, win2, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win2, ierr)
  call check(arr(4) == rank * 10 + 101 .and. arr(5) == rank * 10 + 102 .and. arr(6) == rank * 10 + 6, &
             'Accumulate MAX under lock')
  call MPI_Win_unlock(rank, win2, ierr)
  call MPI_Win_free(win2, ierr)

  call MPI_Finalize(ierr)
  if (rank == 0) print '(a)', 'f_rma: ok'
contains
  ! A C_PTR's mould for TRANSFER.
  type(c_ptr) function c_null()
    use, intrinsic :: iso_c_binding, only: c_null_ptr
    c_null = c_null_ptr
  end function
end program
