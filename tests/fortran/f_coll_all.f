! Every collective from Fortran in fixed form, built twice: with mpif.h
! (fortran_mpifh_coll_all) and with the mpi module (-DSKIFF_USE_MPI,
! fortran_coll_all). One INTEGER work array carries every buffer, seen
! as DOUBLE PRECISION, COMPLEX and LOGICAL through EQUIVALENCE, as F77
! codes do: mpif.h declares no interfaces, and gfortran warns when one
! external gets actual arguments of different types in one file. Data
! is sent from ib(1), received at ib(101) = db(51) = zb(51) = lb(101).
! Reductions: SUM on COMPLEX and DOUBLE PRECISION, LAND and LOR on
! LOGICAL, MAXLOC on 2DOUBLE_PRECISION, MAX on INTEGER, MPI_IN_PLACE, a
! user op written in Fortran (Allreduce, Reduce_local); Bcast of a
! CHARACTER variable. Prints "FAIL [rank N]" and aborts on a wrong
! answer.
      program f_coll_all
#include "use_mpi.inc"
      external absmax
      integer ierr, rank, np, i, j, root, op, req, s, w
      integer ib(200), cnt(4), dsp(4), rcnt(4), rdsp(4), typ(4)
      integer one(4), bdsp(4)
      double precision db(100)
      complex zb(100)
      logical lb(200)
      character*8 word
      equivalence (ib, db), (ib, zb), (ib, lb)

      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      w = MPI_COMM_WORLD
      root = np - 1
      s = np * (np - 1) / 2

!     Allreduce: SUM on COMPLEX and DOUBLE PRECISION.
      zb(1) = cmplx(rank, 1.0)
      call MPI_ALLREDUCE(ib(1), ib(101), 1, MPI_COMPLEX, MPI_SUM, w,
     &                   ierr)
      call check(ierr .eq. MPI_SUCCESS .and. zb(51) .eq. cmplx(s, np),
     &           'Allreduce SUM COMPLEX')
      db(1) = rank + 0.5d0
      call MPI_ALLREDUCE(ib(1), ib(101), 1, MPI_DOUBLE_PRECISION,
     &                   MPI_SUM, w, ierr)
      call check(db(51) .eq. s + 0.5d0 * np, 'Allreduce SUM DOUBLE')
!     LAND and LOR on LOGICAL: only the last rank says false.
      lb(1) = rank .ne. root
      call MPI_ALLREDUCE(ib(1), ib(101), 1, MPI_LOGICAL, MPI_LAND, w,
     &                   ierr)
      call check(.not. lb(101), 'Allreduce LAND')
      call MPI_ALLREDUCE(ib(1), ib(101), 1, MPI_LOGICAL, MPI_LOR, w,
     &                   ierr)
      call check(lb(101) .eqv. (np .gt. 1), 'Allreduce LOR')
!     MAXLOC: the value peaks at rank np/2, whose index comes back.
      db(1) = -abs(rank - np / 2)
      db(2) = rank
      call MPI_ALLREDUCE(ib(1), ib(101), 1, MPI_2DOUBLE_PRECISION,
     &                   MPI_MAXLOC, w, ierr)
      call check(db(51) .eq. 0 .and. nint(db(52)) .eq. np / 2,
     &           'Allreduce MAXLOC 2DOUBLE_PRECISION')
      ib(101) = rank
      ib(102) = 1
      call MPI_ALLREDUCE(MPI_IN_PLACE, ib(101), 2, MPI_INTEGER, MPI_SUM,
     &                   w, ierr)
      call check(ib(101) .eq. s .and. ib(102) .eq. np,
     &           'Allreduce MPI_IN_PLACE')

!     Reduce MAX to the last rank, from a buffer and in place.
      ib(1) = rank
      ib(101) = -1
      call MPI_REDUCE(ib(1), ib(101), 1, MPI_INTEGER, MPI_MAX, root, w,
     &                ierr)
      call check(rank .ne. root .or. ib(101) .eq. root, 'Reduce MAX')
      if (rank .eq. root) then
         call MPI_REDUCE(MPI_IN_PLACE, ib(1), 1, MPI_INTEGER, MPI_MIN,
     &                   root, w, ierr)
         call check(ib(1) .eq. 0, 'Reduce MPI_IN_PLACE at the root')
      else
         call MPI_REDUCE(ib(1), ib(101), 1, MPI_INTEGER, MPI_MIN,
     &                   root, w, ierr)
      end if

!     A user op written in Fortran (absmax, below).
      call MPI_OP_CREATE(absmax, .true., op, ierr)
      call check(ierr .eq. MPI_SUCCESS, 'Op_create')
      ib(1) = -rank
      ib(2) = 1
      call MPI_ALLREDUCE(ib(1), ib(101), 2, MPI_INTEGER, op, w, ierr)
      call check(ib(101) .eq. np - 1 .and. ib(102) .eq. 1,
     &           'Allreduce with a Fortran op')
      ib(1) = -7
      ib(101) = 5
      call MPI_REDUCE_LOCAL(ib(1), ib(101), 1, MPI_INTEGER, op, ierr)
      call check(ib(101) .eq. 7, 'Reduce_local with a Fortran op')
      call MPI_OP_FREE(op, ierr)
      call check(op .eq. MPI_OP_NULL, 'Op_free sets MPI_OP_NULL')

!     Barrier, and Bcast of a CHARACTER variable.
      call MPI_BARRIER(w, ierr)
      word = ' '
      if (rank .eq. root) word = 'skiff'
      call MPI_BCAST(word, 8, MPI_CHARACTER, root, w, ierr)
      call check(word .eq. 'skiff', 'Bcast CHARACTER')

!     Gather(v), Scatter(v), Allgather(v): rank r's piece is r+1 copies
!     of r in the v forms (counts cnt, displacements dsp).
      do i = 1, np
         cnt(i) = i
         dsp(i) = i * (i - 1) / 2
         rcnt(i) = rank + 1
         rdsp(i) = (i - 1) * (rank + 1)
         typ(i) = MPI_INTEGER
         one(i) = 1
         bdsp(i) = 4 * (i - 1)
      end do
      ib(1) = 3 * rank
      call MPI_GATHER(ib(1), 1, MPI_INTEGER, ib(101), 1, MPI_INTEGER,
     &                0, w, ierr)
      call check(rank .ne. 0 .or. all(ib(101:100+np) .eq.
     &           (/ (3 * i, i = 0, np - 1) /)), 'Gather')
      ib(1:rank+1) = rank
      call MPI_GATHERV(ib(1), rank + 1, MPI_INTEGER, ib(101), cnt, dsp,
     &                 MPI_INTEGER, 0, w, ierr)
      call check(rank .ne. 0 .or. all(ib(101:100+dsp(np)+np) .eq.
     &           (/ ((j, i = 0, j), j = 0, np - 1) /)), 'Gatherv')
      call MPI_ALLGATHERV(ib(1), rank + 1, MPI_INTEGER, ib(101), cnt,
     &                    dsp, MPI_INTEGER, w, ierr)
      call check(all(ib(101:100+dsp(np)+np) .eq.
     &           (/ ((j, i = 0, j), j = 0, np - 1) /)), 'Allgatherv')
      ib(1:np) = (/ (10 * i, i = 0, np - 1) /)
      call MPI_SCATTER(ib(1), 1, MPI_INTEGER, ib(101), 1, MPI_INTEGER,
     &                 0, w, ierr)
      call check(ib(101) .eq. 10 * rank, 'Scatter')
      ib(1:dsp(np)+np) = (/ ((10 * j, i = 0, j), j = 0, np - 1) /)
      call MPI_SCATTERV(ib(1), cnt, dsp, MPI_INTEGER, ib(101),
     &                  rank + 1, MPI_INTEGER, 0, w, ierr)
      call check(all(ib(101:101+rank) .eq. 10 * rank), 'Scatterv')
      ib(1) = rank + 1
      call MPI_ALLGATHER(ib(1), 1, MPI_INTEGER, ib(101), 1, MPI_INTEGER,
     &                   w, ierr)
      call check(all(ib(101:100+np) .eq. (/ (i, i = 1, np) /)),
     &           'Allgather')

!     Alltoall(v,w): rank r sends r*10+j to rank j (j+1 copies in v).
      ib(1:np) = (/ (rank * 10 + j, j = 0, np - 1) /)
      call MPI_ALLTOALL(ib(1), 1, MPI_INTEGER, ib(101), 1, MPI_INTEGER,
     &                  w, ierr)
      call check(all(ib(101:100+np) .eq. (/ (i * 10 + rank,
     &           i = 0, np - 1) /)), 'Alltoall')
      ib(101:100+np) = -1
      call MPI_ALLTOALLW(ib(1), one, bdsp, typ, ib(101), one, bdsp,
     &                   typ, w, ierr)
      call check(all(ib(101:100+np) .eq. (/ (i * 10 + rank,
     &           i = 0, np - 1) /)), 'Alltoallw')
      ib(1:dsp(np)+np) = (/ ((rank * 10 + j, i = 0, j),
     &                     j = 0, np - 1) /)
      call MPI_ALLTOALLV(ib(1), cnt, dsp, MPI_INTEGER, ib(101), rcnt,
     &                   rdsp, MPI_INTEGER, w, ierr)
      call check(all(ib(101:100+np*(rank+1)) .eq. (/ ((i * 10 + rank,
     &           j = 0, rank), i = 0, np - 1) /)), 'Alltoallv')

!     Reduce_scatter(_block), Scan, Exscan, Iallreduce.
      ib(1:np) = (/ (rank + i, i = 1, np) /)
      call MPI_REDUCE_SCATTER(ib(1), ib(101), one, MPI_INTEGER,
     &                        MPI_SUM, w, ierr)
      call check(ib(101) .eq. s + np * (rank + 1), 'Reduce_scatter')
      ib(101) = 0
      call MPI_REDUCE_SCATTER_BLOCK(ib(1), ib(101), 1, MPI_INTEGER,
     &                              MPI_SUM, w, ierr)
      call check(ib(101) .eq. s + np * (rank + 1),
     &           'Reduce_scatter_block')
      ib(1) = rank + 1
      call MPI_SCAN(ib(1), ib(101), 1, MPI_INTEGER, MPI_SUM, w, ierr)
      call check(ib(101) .eq. (rank + 1) * (rank + 2) / 2, 'Scan')
      call MPI_EXSCAN(ib(1), ib(101), 1, MPI_INTEGER, MPI_SUM, w, ierr)
      call check(rank .eq. 0 .or. ib(101) .eq. rank * (rank + 1) / 2,
     &           'Exscan')
      call MPI_IALLREDUCE(ib(1), ib(101), 1, MPI_INTEGER, MPI_MAX, w,
     &                    req, ierr)
      call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
      call check(ib(101) .eq. np .and. req .eq. MPI_REQUEST_NULL,
     &           'Iallreduce')

      call MPI_FINALIZE(ierr)
      if (rank .eq. 0) print '(a)', 'f_coll_all: ok'
      end

! The user op: elementwise maximum of absolute values, INTEGER only.
      subroutine absmax(invec, inoutvec, len, datatype)
      implicit none
      integer len, datatype, i
      integer invec(len), inoutvec(len)
      if (datatype .eq. 0) return
      do i = 1, len
         inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
      end do
      end
