! One-sided communication through the mpi_f08 module: MPI_Win_allocate (TYPE(C_PTR) baseptr turned into
! a Fortran array), MPI_Win_create on a Fortran array, Put/Get/Accumulate between fences, Lock/Unlock
! with Accumulate, Get_accumulate, Fetch_and_op and Compare_and_swap, and the window's attributes.
! (A one-sided call keeps its buffer until the epoch ends: every origin buffer here is a variable.)
! Prints "FAIL [rank N]" and aborts on a wrong answer.
program f08_rma
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use mpi_f08
  implicit none
  integer, parameter :: n = 8
  integer :: rank, np, next, prev, i, disp_unit
  type(MPI_Win) :: win, win2
  type(c_ptr) :: base
  integer, pointer :: mem(:)
  double precision :: arr(n), got(n)
  integer :: one, old, res, cmp, mine, pair(2)
  integer(kind=MPI_ADDRESS_KIND) :: size, val
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)

  ! Win_allocate: n INTEGERs, addressed in INTEGERs (disp_unit 4).
  size = 4 * n
  call MPI_Win_allocate(size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win)
  call c_f_pointer(base, mem, [n])
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag)
  call check(flag .and. val == 4, 'MPI_WIN_DISP_UNIT')
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag)
  call check(flag .and. val == size, 'MPI_WIN_SIZE')
  mem = -1
  call MPI_Win_fence(0, win)
  ! Each rank puts [rank, rank+1] at displacement 2 of the next rank's memory.
  pair = [rank, rank + 1]
  call MPI_Put(pair, 2, MPI_INTEGER, next, 2_MPI_ADDRESS_KIND, 2, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call check(mem(3) == prev .and. mem(4) == prev + 1 .and. mem(1) == -1 .and. mem(5) == -1, 'Put')
  ! Everyone adds its rank+1 into element 1 of rank 0.
  mem(1) = 0
  call MPI_Win_fence(0, win)
  one = rank + 1
  call MPI_Accumulate(one, 1, MPI_INTEGER, 0, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win)
  call MPI_Win_fence(0, win)
  if (rank == 0) call check(mem(1) == np * (np + 1) / 2, 'Accumulate SUM under fences')

  ! Passive target: lock rank 0, fetch-and-add, compare-and-swap, get.
  call MPI_Barrier(MPI_COMM_WORLD)
  one = 1
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, 5_MPI_ADDRESS_KIND, MPI_SUM, win)
  call MPI_Win_unlock(0, win)
  call check(old >= -1 .and. old < np - 1, 'Fetch_and_op old value')
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) call check(mem(6) == np - 1, 'Fetch_and_op total')
  call MPI_Barrier(MPI_COMM_WORLD)
  ! Only one rank's compare-and-swap of np-1 -> 100+rank wins.
  cmp = np - 1
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win)
  mine = 100 + rank
  call MPI_Compare_and_swap(mine, cmp, res, MPI_INTEGER, 0, 5_MPI_ADDRESS_KIND, win)
  call MPI_Win_unlock(0, win)
  call MPI_Allreduce(MPI_IN_PLACE, res, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
  call check(res == np - 1, 'Compare_and_swap: one winner saw np-1')
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)
  one = 10
  call MPI_Get_accumulate(one, 1, MPI_INTEGER, old, 1, MPI_INTEGER, 0, 7_MPI_ADDRESS_KIND, 1, MPI_INTEGER, &
                          MPI_NO_OP, win)
  call MPI_Get(res, 1, MPI_INTEGER, 0, 5_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win)
  call MPI_Win_unlock(0, win)
  call check(old == -1 .and. res >= 100 .and. res < 100 + np, 'Get_accumulate NO_OP and Get')
  call MPI_Win_free(win)
  call check(win == MPI_WIN_NULL, 'Win_free')

  ! Win_create on a DOUBLE PRECISION array (disp_unit 8): Get the neighbour's array, Accumulate MAX.
  arr = [(rank * 10 + i, i = 1, n)]
  disp_unit = 8
  call MPI_Win_create(arr, int(8 * n, MPI_ADDRESS_KIND), disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, win2)
  call MPI_Win_fence(MPI_MODE_NOPRECEDE, win2)
  call MPI_Get(got, n, MPI_DOUBLE_PRECISION, next, 0_MPI_ADDRESS_KIND, n, MPI_DOUBLE_PRECISION, win2)
  call MPI_Win_fence(0, win2)
  call check(all(got == [(next * 10 + i, i = 1, n)]), 'Get from a Win_create window')
  got(1:2) = got(1:2) + 100
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win2)
  call MPI_Accumulate(got, 2, MPI_DOUBLE_PRECISION, next, 3_MPI_ADDRESS_KIND, 2, MPI_DOUBLE_PRECISION, &
                      MPI_MAX, win2)
  call MPI_Win_unlock(next, win2)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win2)
  call check(arr(4) == rank * 10 + 101 .and. arr(5) == rank * 10 + 102 .and. arr(6) == rank * 10 + 6, &
             'Accumulate MAX under lock')
  call MPI_Win_unlock(rank, win2)
  call MPI_Win_free(win2)

  call MPI_Finalize()
  if (rank == 0) print '(a)', 'f08_rma: ok'
end program
