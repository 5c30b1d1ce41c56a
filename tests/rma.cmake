include_guard(GLOBAL) # once, whatever includes it
# One-sided communication (issue 17): windows, put/get/accumulates, fence and passive target. Every test
# also passes with MPICH 4.0 and Open MPI 4.1.
skiff_mpi_test(rma_fence            rma_fence.c            "1;2;3;4")
# 600 fence epochs on three windows, each epoch's data checked, a late rank now and then (the others
# sleep and are woken): at 5 ranks on this 2-core machine, oversubscribed.
skiff_mpi_test(rma_fence_many       rma_fence_many.c       "1;2;3;5")
skiff_mpi_test(rma_acc              rma_acc.c              "1;2;3;4")
skiff_mpi_test(rma_win              rma_win.c              "1;2;3;4")
skiff_mpi_test(rma_lock             rma_lock.c             "1;2;3;4")
# Randomized traffic checked against a model every rank keeps, with checksums; two seeds.
skiff_mpi_test(rma_random           rma_random.c           "1;2;3;4")
skiff_mpi_test(rma_random_seed7     rma_random.c           "3;4"               ARGS 7)
skiff_mpi_test(rma_req              rma_req.c              "1;2;3;4")
skiff_mpi_test(rma_pscw             rma_pscw.c             "1;2;3;4")
skiff_mpi_test(rma_dynamic          rma_dynamic.c          "1;2;3;4")
# Within a node, Win_allocate windows are reached directly (copies by the origin); one pretend node per
# rank (SKIFF_NODE_SIZE=1) puts the same programs on the message path the target applies.
foreach(t rma_acc rma_lock rma_random rma_req rma_pscw)
  skiff_mpi_test(${t}_msgpath ${t}.c "2;4" ENV SKIFF_NODE_SIZE=1)
endforeach()
# A target computing outside MPI does not hold up lock/accumulate/unlock on a shared window.
skiff_mpi_test(rma_passive          rma_passive.c          "1;2;3;4")
# Every rank but the target hammers the same counters with fetch-and-op, compare-and-swap and
# accumulates (CPU atomics within a node) while the target stays outside MPI; the totals are exact.
skiff_mpi_test(rma_atomic           rma_atomic.c           "1;2;3;4")
# Faults with a window open: rank 1 killed in a fence epoch, holding a lock others wait for, in a lock_all
# epoch, or leaving without MPI_Finalize (tests/fault/faulty.c, win_* modes). The job ends by itself,
# names the rank, leaves no process and nothing in /dev/shm: on the direct path (one node), with every
# pair on tcp, and on the message path (a pretend node per rank).
foreach(mode win_fence win_lock win_epoch win_noexit)
  foreach(np 2 4)
    add_test(NAME fault_${mode}_np${np}
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fault/fault.sh ${mode} ${SKIFF_MPIEXEC} $<TARGET_FILE:fault_faulty> ${np})
    set_tests_properties(fault_${mode}_np${np} PROPERTIES TIMEOUT 60 PROCESSORS ${np} LABELS "fault;rma")
  endforeach()
  add_test(NAME fault_${mode}_tcp_np3
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fault/fault.sh ${mode} ${SKIFF_MPIEXEC} $<TARGET_FILE:fault_faulty> 3)
  set_tests_properties(fault_${mode}_tcp_np3 PROPERTIES TIMEOUT 60 PROCESSORS 3 LABELS "fault;tcp;rma"
    ENVIRONMENT SKIFF_TRANSPORTS=tcp)
  add_test(NAME fault_${mode}_msgpath_np3
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fault/fault.sh ${mode} ${SKIFF_MPIEXEC} $<TARGET_FILE:fault_faulty> 3)
  set_tests_properties(fault_${mode}_msgpath_np3 PROPERTIES TIMEOUT 60 PROCESSORS 3 LABELS "fault;rma"
    ENVIRONMENT SKIFF_NODE_SIZE=1)
endforeach()
# The same over user memory (MPI_Win_create): within a node put and get by single copy
# (process_vm_writev/readv), accumulates and synchronization as messages. Also pass under MPICH 4.0 and
# Open MPI 4.1, except rma_req_create under Open MPI, whose Rget_accumulate into a vector result type on a
# Win_create window returns a wrong first element (Win_allocate: right); MPICH and skiff agree.
skiff_mpi_test(rma_random_create    rma_random.c           "2;3;4"             ARGS 1 create)
skiff_mpi_test(rma_lock_create      rma_lock.c             "2;3;4"             ARGS create)
skiff_mpi_test(rma_req_create       rma_req.c              "2;3;4"             ARGS create)
skiff_mpi_test(rma_pscw_create      rma_pscw.c             "2;3;4"             ARGS create)
skiff_mpi_test(rma_random_create_nocma rma_random.c        "3"                 ARGS 1 create ENV SKIFF_SHM_CMA=0)
# Large transfers: 4 MiB put/get (contiguous and through a vector type) and a 1 MiB accumulate, every
# byte checked; on the message path (a pretend node per rank; the _tcp_ ones over tcp) they go by the
# point-to-point rendezvous, striped over the rails.
skiff_mpi_test(rma_big              rma_big.c              "1;2;3")
skiff_mpi_test(rma_big_create       rma_big.c              "2;3"               ARGS create)
skiff_mpi_test(rma_big_msgpath      rma_big.c              "2;3"               ENV SKIFF_NODE_SIZE=1)
# Put and get by a transport's RDMA (rma/rdma.c): here, where no transport offers it (shm, tcp, and ucx
# within one node, where windows are shared segments or single copies), the data is checked and none of
# the transfers may be counted as RDMA; tests/ucx.cmake runs it where they all must be. Also passes under
# Open MPI 4.1 and MPICH 4.0 (np 2-4), except that MPICH at np 4 once in 25 runs returned a 1 MiB get's
# buffer incomplete after the closing fence (element 214240 still 0), which no skiff run has shown.
skiff_mpi_test(rma_rdma             rma_rdma.c             "2;4"               ARGS messages)
# A target outside MPI (blocked in read() on a FIFO) while the origin locks with MPI_MODE_NOCHECK, puts,
# flushes, gets and unlocks: it hangs unless put and get need nothing of the target. Here a shared window;
# tests/ucx.cmake runs it between two made-up hosts over UCX's shared memory. Also passes under Open MPI
# 4.1; MPICH 4.0 hangs in it now and then (its one-sided needs the target's progress there).
skiff_mpi_test(rma_rdma_idle        rma_rdma_idle.c        "2")
skiff_ucx_rma_tests()
