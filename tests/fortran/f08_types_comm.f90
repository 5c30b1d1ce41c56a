! Derived datatypes, communicators, groups, attributes and error handlers through the mpi_f08 module:
! MPI_Type_vector over a row of a column-major array, MPI_Type_create_subarray in MPI_ORDER_FORTRAN,
! Type_create_f90_integer/real/complex checked against gfortran's selected_*_kind (sizes, and a value
! sent through each), MPI_Sizeof, Comm_split, names, groups, a Cartesian grid (LOGICAL periods), MPI_TAG_UB, a
! keyval whose copy procedure is written in Fortran (MPI_Comm_copy_attr_function), an error handler
! written in Fortran (MPI_Comm_errhandler_function), MPI_ERRORS_RETURN.
! Prints "FAIL [rank N]" and aborts on a wrong answer.
module f08_tc_procs
  use mpi_f08, only: MPI_Comm, MPI_ADDRESS_KIND, MPI_SUCCESS
  implicit none
  integer :: handler_calls = 0, handler_code = 0
contains
  subroutine copy_plus_extra(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, &
                             flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    if (oldcomm%MPI_VAL < 0 .or. comm_keyval < 0) return
    attribute_val_out = attribute_val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine

  subroutine on_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    if (comm%MPI_VAL < 0) return
    handler_calls = handler_calls + 1
    handler_code = error_code
  end subroutine
end module

program f08_types_comm
  use mpi_f08
  use f08_tc_procs
  implicit none
  integer, parameter :: i2 = selected_int_kind(4), i8 = selected_int_kind(15)
  integer, parameter :: r4 = selected_real_kind(6), r8 = selected_real_kind(15, 300)
  integer :: rank, nprocs, i, j, color, subrank, subsize, n, cls, keyval, dims(2), coords(2), src, dst
  type(MPI_Datatype) :: vec, sarr, t
  type(MPI_Comm) :: sub, dup, cart
  type(MPI_Group) :: grp, wgrp
  type(MPI_Errhandler) :: eh
  logical :: periods(2), flag
  double precision :: a(4, 5), col(5), b(6, 6), blk(2, 3)
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent, val
  character(len=MPI_MAX_OBJECT_NAME) :: name
  integer(i2) :: s2, r2
  integer(i8) :: s8, r8v
  real(r8) :: x8, y8
  complex(r4) :: c4, d4

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  ! A row of a column-major 4x5 array: 5 elements with stride 4.
  a = reshape([((10 * i + j, i = 1, 4), j = 1, 5)], [4, 5])
  call MPI_Type_vector(5, 1, 4, MPI_DOUBLE_PRECISION, vec)
  call MPI_Type_commit(vec)
  call MPI_Type_get_extent(vec, lb, extent)
  call check(lb == 0 .and. extent == 17 * 8, 'Type_get_extent of the vector')
  call MPI_Sendrecv(a(2, 1), 1, vec, rank, 1, col, 5, MPI_DOUBLE_PRECISION, rank, 1, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  call check(all(col == [21, 22, 23, 24, 25]), 'Type_vector over a row')
  call MPI_Type_free(vec)
  call check(vec == MPI_DATATYPE_NULL, 'Type_free')

  ! Subarray (Fortran order): the 2x3 block starting at (3,2) of a 6x6 array, and the same block
  ! received into a non-contiguous section of another 6x6 array (copied: a blocking call).
  b = reshape([((100 * i + j, i = 1, 6), j = 1, 6)], [6, 6])
  call MPI_Type_create_subarray(2, [6, 6], [2, 3], [2, 1], MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, sarr)
  call MPI_Type_commit(sarr)
  blk = 0
  call MPI_Sendrecv(b, 1, sarr, rank, 2, blk, 6, MPI_DOUBLE_PRECISION, rank, 2, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  call check(all(blk == b(3:4, 2:4)), 'Type_create_subarray ORDER_FORTRAN')
  call MPI_Type_size(sarr, n)
  call check(n == 48, 'Type_size of the subarray')
  call MPI_Type_free(sarr)

  ! Fortran 90 kinds: the sizes gfortran gives selected_*_kind, and values through the types.
  call MPI_Type_create_f90_integer(4, t)
  call MPI_Type_size(t, n)
  call check(n == storage_size(s2) / 8, 'Type_create_f90_integer(4) size')
  s2 = int(-1234 - rank, i2)
  call MPI_Sendrecv(s2, 1, t, rank, 3, r2, 1, t, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(r2 == s2, 'an INTEGER(selected_int_kind(4)) through its type')
  call MPI_Type_create_f90_integer(15, t)
  call MPI_Type_size(t, n)
  call check(n == storage_size(s8) / 8, 'Type_create_f90_integer(15) size')
  s8 = 2_i8**40 + rank
  call MPI_Allreduce(s8, r8v, 1, t, MPI_MAX, MPI_COMM_WORLD)
  call check(r8v == 2_i8**40 + nprocs - 1, 'MPI_MAX on an f90 integer type')
  call MPI_Type_create_f90_real(15, 300, t)
  call MPI_Type_size(t, n)
  call check(n == storage_size(x8) / 8, 'Type_create_f90_real(15, 300) size')
  x8 = 1.0_r8 / 3.0_r8
  call MPI_Allreduce(x8, y8, 1, t, MPI_SUM, MPI_COMM_WORLD)
  call check(abs(y8 - nprocs / 3.0_r8) < 1e-12_r8, 'MPI_SUM on an f90 real type')
  call MPI_Type_create_f90_real(6, MPI_UNDEFINED, t)
  call MPI_Type_size(t, n)
  call check(n == 4, 'Type_create_f90_real(6) is 4 bytes')
  call MPI_Type_create_f90_complex(6, MPI_UNDEFINED, t)
  call MPI_Type_size(t, n)
  call check(n == storage_size(c4) / 8, 'Type_create_f90_complex(6) size')
  c4 = cmplx(1, rank, r4)
  call MPI_Allreduce(c4, d4, 1, t, MPI_SUM, MPI_COMM_WORLD)
  call check(d4 == cmplx(nprocs, nprocs * (nprocs - 1) / 2, r4), 'MPI_SUM on an f90 complex type')

  ! MPI_SIZEOF: the element size of any intrinsic type, kind and rank.
  call MPI_Sizeof(s2, n)
  call check(n == storage_size(s2) / 8, 'MPI_Sizeof of an INTEGER(selected_int_kind(4))')
  call MPI_Sizeof(b, n)
  call check(n == 8, 'MPI_Sizeof of a DOUBLE PRECISION array')
  call MPI_Sizeof(c4, n, cls)
  call check(n == 8 .and. cls == MPI_SUCCESS, 'MPI_Sizeof of a COMPLEX(selected_real_kind(6))')

  ! Comm_split into evens and odds, names.
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, sub)
  call MPI_Comm_rank(sub, subrank)
  call MPI_Comm_size(sub, subsize)
  call check(subsize == (nprocs + 1 - color) / 2 .and. subrank == subsize - 1 - rank / 2, 'Comm_split')
  call MPI_Comm_set_name(sub, 'halves   ')
  call MPI_Comm_get_name(sub, name, n)
  call check(n == 6 .and. name == 'halves', 'Comm_get_name')

  ! Groups.
  call MPI_Comm_group(sub, grp)
  call MPI_Comm_group(MPI_COMM_WORLD, wgrp)
  call MPI_Group_translate_ranks(grp, 1, [subsize - 1], wgrp, coords)
  call check(coords(1) == color, 'Group_translate_ranks')
  call MPI_Group_compare(grp, grp, n)
  call check(n == MPI_IDENT, 'Group_compare')
  call MPI_Group_free(grp)
  call MPI_Group_free(wgrp)
  call check(grp == MPI_GROUP_NULL, 'Group_free')

  ! A periodic 1-D grid (second dimension of extent 1).
  dims = [nprocs, 1]
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart)
  call MPI_Cart_coords(cart, rank, 2, coords)
  call check(coords(1) == rank .and. coords(2) == 0, 'Cart_coords')
  call MPI_Cart_shift(cart, 0, 1, src, dst)
  call check(dst == mod(rank + 1, nprocs) .and. src == mod(rank + nprocs - 1, nprocs), 'Cart_shift')
  periods = .false.
  call MPI_Cart_get(cart, 2, dims, periods, coords)
  call check(periods(1) .and. .not. periods(2), 'Cart_get periods')
  call MPI_Comm_free(cart)

  ! Attributes.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_create_keyval(copy_plus_extra, MPI_COMM_NULL_DELETE_FN, keyval, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(sub, keyval, 37_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(sub, dup)
  call MPI_Comm_get_attr(dup, keyval, val, flag)
  call check(flag .and. val == 42, 'attribute copied by a Fortran copy procedure')
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(keyval)
  call MPI_Comm_free(sub)

  ! An error handler written in Fortran, then MPI_ERRORS_RETURN.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Send(a, 1, MPI_DOUBLE_PRECISION, nprocs + 3, 0, dup)
  call check(handler_calls == 1, 'the Fortran error handler ran')
  call MPI_Error_class(handler_code, cls)
  call check(cls == MPI_ERR_RANK, 'the handler saw MPI_ERR_RANK')
  call MPI_Errhandler_free(eh)
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  call MPI_Send(a, -1, MPI_DOUBLE_PRECISION, 0, 0, dup, n)
  call MPI_Error_class(n, cls)
  call check(cls == MPI_ERR_COUNT, 'MPI_ERRORS_RETURN gives MPI_ERR_COUNT')
  call MPI_Comm_free(dup)

  call MPI_Finalize()
  if (rank == 0) print '(a)', 'f08_types_comm: ok'
end program
