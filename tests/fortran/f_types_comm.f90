! Derived datatypes, communicators, groups, topologies, attributes and error handlers from Fortran
! through the mpi module (-DSKIFF_USE_MPI) and through mpif.h (without): MPI_Type_vector over a
! column-major array section, MPI_Type_create_subarray with MPI_ORDER_FORTRAN, Comm_split,
! Comm_set_name/Comm_get_name (CHARACTER lengths and blank padding), groups, a Cartesian grid,
! MPI_TAG_UB, a keyval with a copy procedure written in Fortran, Info keys and values, an error handler
! written in Fortran, a generalized request whose procedures are Fortran, MPI_SIZEOF and TYPE(MPI_Status)
! with MPI_Status_f2f08/f082f (mpi only), and the MPI_Type_get_extent/Get_address INTEGER(MPI_ADDRESS_KIND)s.
! Prints "FAIL [rank N]" and aborts on a wrong answer.
module f_tc_procs
#include "use_mpi.inc"
  private
  public :: copy_plus_one, greq_query, greq_free, greq_cancel, on_error, handler_calls, handler_code
  integer :: handler_calls = 0, handler_code = 0
contains
  subroutine copy_plus_one(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
    logical :: flag
    if (oldcomm < 0 .or. keyval < 0) return
    val_out = val_in + extra
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine

  ! A generalized request's procedures (the status says: source 7, tag extra_state).
  subroutine greq_query(extra, status, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierr
    status(MPI_SOURCE) = 7
    status(MPI_TAG) = int(extra)
    ierr = MPI_SUCCESS
  end subroutine
  subroutine greq_free(extra, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierr
    handler_calls = handler_calls + 100 * int(extra)
    ierr = MPI_SUCCESS
  end subroutine
  subroutine greq_cancel(extra, complete, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierr
    if (extra < 0 .or. complete) return
    ierr = MPI_SUCCESS
  end subroutine

  subroutine on_error(comm, code)
    integer :: comm, code
    if (comm < 0) return
    handler_calls = handler_calls + 1
    handler_code = code
  end subroutine
end module

program f_types_comm
  use f_tc_procs
#include "use_mpi.inc"
  integer :: ierr, rank, nprocs, i, j, color, sub, subrank, subsize, vec, sarr, len, grp, wgrp, ngrp
  integer :: keyval, dup, cart, eh, cls, info, greq, status(MPI_STATUS_SIZE)
#ifdef SKIFF_USE_MPI
  type(MPI_Status) :: st08
#endif
  character(len=20) :: value
  integer :: dims(2), coords(2), src, dst, ranks(1), tr(1)
  logical :: periods(2), flag
  double precision :: a(4, 5), col(5), b(6, 6), blk(2, 3)
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent, val, addr1, addr2
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=8) :: short

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! A row of a column-major 4x5 array: 5 elements with stride 4.
  do j = 1, 5
    do i = 1, 4
      a(i, j) = 10 * i + j
    end do
  end do
  call MPI_Type_vector(5, 1, 4, MPI_DOUBLE_PRECISION, vec, ierr)
  call MPI_Type_commit(vec, ierr)
  call MPI_Type_get_extent(vec, lb, extent, ierr)
  call check(lb == 0 .and. extent == 17 * 8, 'Type_get_extent of the vector')
  call MPI_Sendrecv(a(2, 1), 1, vec, rank, 1, col, 5, MPI_DOUBLE_PRECISION, rank, 1, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(col == [21, 22, 23, 24, 25]), 'Type_vector over a row')
  call MPI_Type_free(vec, ierr)
  call check(vec == MPI_DATATYPE_NULL, 'Type_free')

  ! Subarray (Fortran order): the 2x3 block starting at (3,2) of a 6x6 array.
  do j = 1, 6
    do i = 1, 6
      b(i, j) = 100 * i + j
    end do
  end do
  call MPI_Type_create_subarray(2, [6, 6], [2, 3], [2, 1], MPI_ORDER_FORTRAN, &
                                MPI_DOUBLE_PRECISION, sarr, ierr)
  call MPI_Type_commit(sarr, ierr)
  blk = 0
  if (nprocs > 1) then
    if (rank == 0) call MPI_Send(b, 1, sarr, 1, 2, MPI_COMM_WORLD, ierr)
    if (rank == 1) call MPI_Recv(blk, 6, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, &
                                 MPI_STATUS_IGNORE, ierr)
  else
    call MPI_Sendrecv(b, 1, sarr, 0, 2, blk, 6, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
  end if
  if (rank == 1 .or. nprocs == 1) call check(all(blk == b(3:4, 2:4)), 'Type_create_subarray ORDER_FORTRAN')
  call MPI_Type_free(sarr, ierr)

#ifdef SKIFF_USE_MPI
  ! The standard has MPI_SIZEOF in the mpi and mpi_f08 modules only.
  call MPI_Sizeof(col, i, ierr)
  call check(i == 8 .and. ierr == MPI_SUCCESS, 'MPI_SIZEOF of a DOUBLE PRECISION array')
  call MPI_Sizeof(len, i, ierr)
  call check(i == 4, 'MPI_SIZEOF of an INTEGER')
#endif

  call MPI_Get_address(b(1, 1), addr1, ierr)
  call MPI_Get_address(b(1, 2), addr2, ierr)
  call check(addr2 - addr1 == 48, 'Get_address')

  ! Comm_split into evens and odds, names.
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, sub, ierr)
  call MPI_Comm_rank(sub, subrank, ierr)
  call MPI_Comm_size(sub, subsize, ierr)
  call check(subsize == (nprocs + 1 - color) / 2, 'Comm_split size')
  call check(subrank == subsize - 1 - rank / 2, 'Comm_split key order')
  call MPI_Comm_set_name(sub, 'halves   ', ierr)
  name = 'garbage'
  call MPI_Comm_get_name(sub, name, len, ierr)
  call check(len == 6 .and. name == 'halves', 'Comm_get_name (trimmed on input, padded on output)')
  call check(name(7:) == ' ', 'Comm_get_name blank padding')
  call MPI_Comm_get_name(MPI_COMM_WORLD, short, len, ierr)
  call check(short == 'MPI_COMM' .and. len == 14, 'a name longer than its CHARACTER is cut')

  ! Groups: world rank of the last member of our half.
  call MPI_Comm_group(sub, grp, ierr)
  call MPI_Comm_group(MPI_COMM_WORLD, wgrp, ierr)
  ranks(1) = subsize - 1
  call MPI_Group_translate_ranks(grp, 1, ranks, wgrp, tr, ierr)
  call check(tr(1) == color, 'Group_translate_ranks')
  call MPI_Group_incl(wgrp, 1, [nprocs - 1], ngrp, ierr)
  call MPI_Group_size(ngrp, i, ierr)
  call check(i == 1, 'Group_incl')
  call MPI_Group_free(ngrp, ierr)
  call MPI_Group_free(grp, ierr)
  call MPI_Group_free(wgrp, ierr)
  call check(grp == MPI_GROUP_NULL, 'Group_free')

  ! A periodic 1-D grid (second dimension of extent 1).
  dims = 0
  call MPI_Dims_create(nprocs, 1, dims, ierr)
  dims(2) = 1
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call check(coords(1) == rank .and. coords(2) == 0, 'Cart_coords')
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(dst == mod(rank + 1, nprocs) .and. src == mod(rank + nprocs - 1, nprocs), 'Cart_shift')
  periods = .false.
  call MPI_Cart_get(cart, 2, dims, periods, coords, ierr)
  call check(periods(1) .and. .not. periods(2), 'Cart_get periods (LOGICAL)')
  call MPI_Comm_free(cart, ierr)

  ! Attributes: the predefined MPI_TAG_UB, and one copied by a Fortran procedure on Comm_dup.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_create_keyval(copy_plus_one, MPI_COMM_NULL_DELETE_FN, keyval, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(sub, keyval, 37_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(sub, dup, ierr)
  call MPI_Comm_get_attr(dup, keyval, val, flag, ierr)
  call check(flag .and. val == 42, 'attribute copied by a Fortran copy procedure')
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free_keyval(keyval, ierr)
  call MPI_Comm_free(sub, ierr)
  call check(sub == MPI_COMM_NULL, 'Comm_free')

  ! Info: keys and values are trimmed on the way in, padded on the way out.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'color   ', 'blue    ', ierr)
  value = 'x'
  call MPI_Info_get(info, 'color', 20, value, flag, ierr)
  call check(flag .and. value == 'blue', 'Info_set/Info_get')
  call MPI_Info_get_valuelen(info, 'color', len, flag, ierr)
  call check(flag .and. len == 4, 'Info_get_valuelen')
  call MPI_Info_get(info, 'shape', 20, value, flag, ierr)
  call check(.not. flag, 'Info_get of a missing key')
  call MPI_Info_free(info, ierr)
  call check(info == MPI_INFO_NULL, 'Info_free')

  ! An error handler written in Fortran, then MPI_ERRORS_RETURN.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_create_errhandler(on_error, eh, ierr)
  call MPI_Comm_set_errhandler(dup, eh, ierr)
  call MPI_Send(a, 1, MPI_DOUBLE_PRECISION, nprocs + 3, 0, dup, ierr)
  call check(handler_calls == 1, 'the Fortran error handler ran')
  call MPI_Error_class(handler_code, cls, ierr)
  call check(cls == MPI_ERR_RANK, 'the handler saw MPI_ERR_RANK')
  call MPI_Errhandler_free(eh, ierr)
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(a, -1, MPI_DOUBLE_PRECISION, 0, 0, dup, ierr)
  call MPI_Error_class(ierr, cls, i)
  call check(cls == MPI_ERR_COUNT, 'MPI_ERRORS_RETURN gives MPI_ERR_COUNT')
  call MPI_Comm_free(dup, ierr)

  ! A generalized request whose procedures are written in Fortran (after the handler checks: greq_free
  ! adds 100 * extra_state to handler_calls).
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, 5_MPI_ADDRESS_KIND, greq, ierr)
  call MPI_Grequest_complete(greq, ierr)
  call MPI_Wait(greq, status, ierr)
  call check(status(MPI_SOURCE) == 7 .and. status(MPI_TAG) == 5, 'Grequest query procedure')
  call check(handler_calls == 501 .and. greq == MPI_REQUEST_NULL, 'Grequest free procedure')
#ifdef SKIFF_USE_MPI
  ! The mpi module has TYPE(MPI_Status) and MPI_Status_f2f08/f082f too.
  call MPI_Status_f2f08(status, st08, ierr)
  call check(ierr == MPI_SUCCESS .and. st08%MPI_SOURCE == 7 .and. st08%MPI_TAG == 5, 'MPI_Status_f2f08')
  st08%MPI_TAG = 6
  call MPI_Status_f082f(st08, status, ierr)
  call check(status(MPI_TAG) == 6 .and. status(MPI_SOURCE) == 7, 'MPI_Status_f082f')
#endif

  call MPI_Finalize(ierr)
  if (rank == 0) print '(a)', 'f_types_comm: ok'
end program
