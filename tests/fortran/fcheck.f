! The one check every Fortran test program calls (mpif.h, mpi and
! mpi_f08 programs alike, as an external procedure): on a wrong answer
! it prints "FAIL [rank N] what" (the tests' CTest failure pattern) and
! aborts the job.
      subroutine check(ok, what)
      implicit none
      include 'mpif.h'
      logical ok, done
      character*(*) what
      integer rank, e
      if (ok) return
      rank = -1
      call MPI_FINALIZED(done, e)
      if (.not. done) call MPI_COMM_RANK(MPI_COMM_WORLD, rank, e)
      print '(a,i0,2a)', 'FAIL [rank ', rank, '] ', what
      if (.not. done) call MPI_ABORT(MPI_COMM_WORLD, 1, e)
      stop 1
      end
