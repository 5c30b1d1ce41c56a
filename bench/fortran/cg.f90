! A Fortran CG benchmark (issue 18): conjugate gradients on the 7-point Poisson problem on an n^3 grid
! (zero Dirichlet boundary, right-hand side 1), the grid cut into slabs along z. Written against the
! mpi_f08 module only, so the same source builds with skiff's, MPICH's and Open MPI's mpifort
! (bench/fortran-compare.sh). Each iteration: one halo exchange of two contiguous planes
! (MPI_Sendrecv of u(:, :, k) with the neighbours, MPI_PROC_NULL at the ends), two MPI_Allreduce dot
! products, and the vector updates.
!
! Usage: cg [n [max_iterations [tolerance]]]   (default 64, 500, 1e-8)
! Prints one line: n, ranks, iterations, the final relative residual, the solve time (slowest rank,
! seconds) and the time per iteration.
program cg
  use mpi_f08
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: n, maxit, rank, np, nz, z0, up, down, it, iters
  real(dp) :: tol, rr, rr0, rr_new, pap, alpha, beta, t0, t, tmax
  real(dp), allocatable :: x(:, :, :), r(:, :, :), p(:, :, :), q(:, :, :)
  character(len=32) :: arg

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  n = 64
  maxit = 500
  tol = 1.0e-8_dp
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) maxit
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    read (arg, *) tol
  end if
  if (n < np) then
    if (rank == 0) print '(a,i0,a,i0,a)', 'cg: n = ', n, ' is smaller than the ', np, ' ranks'
    call MPI_Abort(MPI_COMM_WORLD, 2)
  end if
  ! Slab of planes z0 .. z0+nz-1 (1-based), the first n mod np ranks one plane more.
  nz = n / np + merge(1, 0, rank < mod(n, np))
  z0 = rank * (n / np) + min(rank, mod(n, np)) + 1
  down = merge(rank - 1, MPI_PROC_NULL, rank > 0)
  up = merge(rank + 1, MPI_PROC_NULL, rank < np - 1)
  allocate(x(0:n + 1, 0:n + 1, 0:nz + 1), r(0:n + 1, 0:n + 1, 0:nz + 1), p(0:n + 1, 0:n + 1, 0:nz + 1), &
           q(0:n + 1, 0:n + 1, 0:nz + 1))
  x = 0
  r = 0
  p = 0
  q = 0
  r(1:n, 1:n, 1:nz) = 1 ! b - A*0
  p = r
  rr = dot(r, r)
  rr0 = rr
  rr_new = rr
  iters = 0

  call MPI_Barrier(MPI_COMM_WORLD)
  t0 = MPI_Wtime()
  do it = 1, maxit
    call halo(p)
    call apply(p, q)
    pap = dot(p, q)
    alpha = rr / pap
    x(1:n, 1:n, 1:nz) = x(1:n, 1:n, 1:nz) + alpha * p(1:n, 1:n, 1:nz)
    r(1:n, 1:n, 1:nz) = r(1:n, 1:n, 1:nz) - alpha * q(1:n, 1:n, 1:nz)
    rr_new = dot(r, r)
    iters = it
    if (sqrt(rr_new / rr0) < tol) exit
    beta = rr_new / rr
    rr = rr_new
    p(1:n, 1:n, 1:nz) = r(1:n, 1:n, 1:nz) + beta * p(1:n, 1:n, 1:nz)
  end do
  t = MPI_Wtime() - t0
  call MPI_Reduce(t, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a,i0,a,i0,a,es12.5,a,f10.6,a,es10.3)', 'cg: n ', n, ' ranks ', np, &
      ' iterations ', iters, ' residual ', sqrt(rr_new / rr0), ' time ', tmax, ' per_iteration ', &
      tmax / iters
  deallocate(x, r, p, q)
  call MPI_Finalize()
contains
  ! The planes next to the slab from the neighbours (contiguous sections: no copy in any library).
  subroutine halo(v)
    real(dp), intent(inout) :: v(0:, 0:, 0:)
    call MPI_Sendrecv(v(:, :, nz), (n + 2)**2, MPI_DOUBLE_PRECISION, up, 1, &
                      v(:, :, 0), (n + 2)**2, MPI_DOUBLE_PRECISION, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Sendrecv(v(:, :, 1), (n + 2)**2, MPI_DOUBLE_PRECISION, down, 2, &
                      v(:, :, nz + 1), (n + 2)**2, MPI_DOUBLE_PRECISION, up, 2, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE)
  end subroutine

  ! w = A v: the 7-point Laplacian (6 on the diagonal, -1 to each neighbour).
  subroutine apply(v, w)
    real(dp), intent(in) :: v(0:, 0:, 0:)
    real(dp), intent(inout) :: w(0:, 0:, 0:)
    integer :: i, j, k
    do k = 1, nz
      do j = 1, n
        do i = 1, n
          w(i, j, k) = 6 * v(i, j, k) - v(i - 1, j, k) - v(i + 1, j, k) - v(i, j - 1, k) &
                       - v(i, j + 1, k) - v(i, j, k - 1) - v(i, j, k + 1)
        end do
      end do
    end do
  end subroutine

  real(dp) function dot(a, b)
    real(dp), intent(in) :: a(0:, 0:, 0:), b(0:, 0:, 0:)
    real(dp) :: s
    s = sum(a(1:n, 1:n, 1:nz) * b(1:n, 1:n, 1:nz))
    call MPI_Allreduce(s, dot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  end function
end program
