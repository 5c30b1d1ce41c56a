# The ucx transport (src/ucx, label ucx): which multi-rank programs run again with SKIFF_TRANSPORTS=ucx
# (skiff_ucx_twins in tests/CMakeLists.txt registers them), and its fault tests. Nothing is registered
# when skiff is built without UCX; unit_config then checks that SKIFF_TRANSPORTS=ucx is refused.
#
# Point to point (eager, rendezvous pieces, order, wildcards, synchronous sends, cancellation, probes),
# collectives, and one-sided (fence, locks, atomics, large puts/gets over the message path).
set(SKIFF_UCX_TWINS
  pingpong pt2pt_order pt2pt_unexpected ssend send_modes nb_many nb_completion probe mprobe persist
  isendrecv sendrecv_ring large large_tiny dt_p2p mpit_pvar
  coll_barrier coll_bcast coll_alltoall coll_reduce coll_nb coll_gather_scatter
  rma_fence rma_lock rma_passive rma_atomic rma_big rma_rdma
  # the progress thread asleep in the worker's descriptor (ucx's arm/doze), woken by UCX's events
  threads_async_recv threads_async_send threads_async_rma threads_async_ibarrier threads_async_iallreduce)
# UCX's shared-memory wires (no peer failure reports there): a smaller set.
set(SKIFF_UCX_SHM_TWINS pingpong pt2pt_order ssend large coll_alltoall rma_passive)
# shm within a node, ucx between two: the mixed sleep, and endpoints with peer failure reports.
set(SKIFF_UCX_NODE_TWINS pingpong large coll_bcast coll_alltoall rma_lock)

# Two made-up host names of this machine (mpiexec's PMI mode, local launcher): skiff sees two nodes.
set(SKIFF_UCX_2HOSTS ${CMAKE_CURRENT_BINARY_DIR}/launch/mpiexec-2hosts)
file(CONFIGURE OUTPUT ${SKIFF_UCX_2HOSTS}
  CONTENT "#!/bin/sh\nexec '${CMAKE_BINARY_DIR}/bin/mpiexec' --hosts ucxa:2,ucxb:2 --launcher local \"$@\"\n")
file(CHMOD ${SKIFF_UCX_2HOSTS}
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# Faults (tests/fault/fault.sh): every pair on ucx over UCX's tcp wire on one node, and rank 1 on a
# node of its own (its endpoints report a dead peer) with shm inside the other.
function(skiff_ucx_fault_tests)
  if(NOT SKIFF_HAVE_UCX)
    return()
  endif()
  foreach(mode kill abort noexit mpiexec-killed)
    add_test(NAME fault_${mode}_ucx_np3
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fault/fault.sh ${mode} ${SKIFF_MPIEXEC} $<TARGET_FILE:fault_faulty> 3)
    set_tests_properties(fault_${mode}_ucx_np3 PROPERTIES TIMEOUT 60 PROCESSORS 3 LABELS "fault;ucx"
      ENVIRONMENT "SKIFF_TRANSPORTS=ucx;UCX_TLS=tcp")
  endforeach()
  # A rank that leaves without MPI_Finalize (noexit) never closes UCX, and under ASan LeakSanitizer cannot
  # scan what UCX's module leaves running (its tracer crashes there): no leak check for those two runs.
  set_property(TEST fault_noexit_ucx_np3 APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=abort_on_error=1:detect_leaks=0")
  foreach(mode kill noexit)
    add_test(NAME fault_${mode}_ucxnodes_np3
      COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fault/fault.sh ${mode} ${SKIFF_UCX_2HOSTS} $<TARGET_FILE:fault_faulty> 3)
    set_tests_properties(fault_${mode}_ucxnodes_np3 PROPERTIES TIMEOUT 60 PROCESSORS 3 LABELS "fault;ucx"
      ENVIRONMENT "SKIFF_TRANSPORTS=shm,ucx;UCX_TLS=tcp")
  endforeach()
  set_property(TEST fault_noexit_ucxnodes_np3 APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=abort_on_error=1:detect_leaks=0")
endfunction()

# Across the emulated cluster's network namespaces (tests/cluster/cluster.sh; skipped, 77, without root
# or namespaces): shm inside each host, ucx over UCX's tcp wire between them (both networks: UCX spreads
# large messages over them itself), and a rank killed alone on the second host.
function(skiff_ucx_cluster_tests)
  if(NOT SKIFF_HAVE_UCX)
    return()
  endif()
  set(progs "")
  foreach(p pingpong large nb_many probe pt2pt_order ssend send_modes coll_bcast coll_alltoall coll_reduce rma_lock)
    list(APPEND progs $<TARGET_FILE:mpitest_${p}>)
  endforeach()
  add_test(NAME cluster_suite_ucx_np4
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cluster/cluster.sh skcu4 sh ${CMAKE_CURRENT_SOURCE_DIR}/cluster/suite.sh
            ${SKIFF_MPIEXEC} 4 ${progs})
  set_tests_properties(cluster_suite_ucx_np4 PROPERTIES TIMEOUT 600 PROCESSORS 2 LABELS "mpi;ucx;cluster"
    SKIP_RETURN_CODE 77 FAIL_REGULAR_EXPRESSION "FAILED:" ENVIRONMENT "SKIFF_TRANSPORTS=shm,ucx;UCX_TLS=tcp")
  add_test(NAME cluster_fault_kill_ucx_np2
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cluster/cluster.sh skfu sh ${CMAKE_CURRENT_SOURCE_DIR}/fault/fault.sh kill
            ${CMAKE_CURRENT_SOURCE_DIR}/cluster/mpiexec-hosts.sh $<TARGET_FILE:fault_faulty> 2)
  set_tests_properties(cluster_fault_kill_ucx_np2 PROPERTIES TIMEOUT 90 PROCESSORS 2 LABELS "fault;ucx;cluster"
    SKIP_RETURN_CODE 77 ENVIRONMENT "SKIFF_MPIEXEC=${SKIFF_MPIEXEC};SKIFF_TRANSPORTS=shm,ucx;UCX_TLS=tcp")
endfunction()

# libmpi opens the ucx module only when SKIFF_TRANSPORTS names ucx (src/ucx/module.h): a default job maps
# none of UCX's libraries, a job over ucx does.
function(skiff_ucx_module_tests)
  if(NOT SKIFF_HAVE_UCX)
    return()
  endif()
  skiff_mpi_program(ucx_module.c target)
  add_test(NAME ucx_module_absent_np2
    COMMAND ${SKIFF_MPIEXEC} -n 2 --timeout 60 $<TARGET_FILE:${target}> absent)
  add_test(NAME ucx_module_present_np2
    COMMAND ${SKIFF_MPIEXEC} -n 2 --timeout 60 $<TARGET_FILE:${target}> present)
  set_tests_properties(ucx_module_absent_np2 ucx_module_present_np2 PROPERTIES TIMEOUT 90 PROCESSORS 2
    LABELS "mpi;ucx" FAIL_REGULAR_EXPRESSION "FAIL \\[rank" PASS_REGULAR_EXPRESSION "as expected")
  set_tests_properties(ucx_module_present_np2 PROPERTIES ENVIRONMENT "SKIFF_TRANSPORTS=ucx;UCX_TLS=tcp")
  # SKIFF_TRANSPORTS=auto (the default) between two made-up hosts: on this machine, which has no RDMA
  # device, tcp without loading UCX (and without asking it: ucx/load.c); with UCX asked, which here
  # offers only its tcp, tcp still, and nothing of UCX left in the process; and with SKIFF_UCX_FABRIC
  # standing in for UCX's answer on an InfiniBand host, ucx (over UCX's tcp wire here).
  set(hosts ${CMAKE_BINARY_DIR}/bin/mpiexec --hosts ucxa:1,ucxb:1 --launcher local -n 2 --timeout 60)
  add_test(NAME ucx_auto_tcp_np2 COMMAND ${hosts} $<TARGET_FILE:${target}> absent shm,tcp)
  add_test(NAME ucx_auto_asked_np2 COMMAND ${hosts} $<TARGET_FILE:${target}> absent shm,tcp)
  add_test(NAME ucx_auto_fabric_np2 COMMAND ${hosts} $<TARGET_FILE:${target}> present shm,ucx)
  set_tests_properties(ucx_auto_tcp_np2 ucx_auto_asked_np2 ucx_auto_fabric_np2 PROPERTIES TIMEOUT 90 PROCESSORS 2
    LABELS "mpi;ucx" FAIL_REGULAR_EXPRESSION "FAIL \\[rank" PASS_REGULAR_EXPRESSION "as expected")
  set_tests_properties(ucx_auto_asked_np2 PROPERTIES ENVIRONMENT "SKIFF_UCX_FABRIC=ask")
  set_tests_properties(ucx_auto_fabric_np2 PROPERTIES ENVIRONMENT "SKIFF_UCX_FABRIC=rc_mlx5/mlx5_0:1,tcp/ib0;UCX_TLS=tcp")
  # Large pieces received in place (ucx.c, skiff_core_data_target), over UCX's tcp wire and its shared
  # memory; the same program over shm counts none in place.
  skiff_mpi_program(ucx_in_place.c inplace)
  foreach(v "ucx;UCX_TLS=tcp" "ucxshm;UCX_TLS=posix,sysv,cma,self" "shm;")
    list(POP_FRONT v kind)
    add_test(NAME ucx_in_place_${kind}_np2 COMMAND ${SKIFF_MPIEXEC} -n 2 --timeout 60 $<TARGET_FILE:${inplace}>)
    set_tests_properties(ucx_in_place_${kind}_np2 PROPERTIES TIMEOUT 90 PROCESSORS 2 LABELS "mpi;ucx"
      FAIL_REGULAR_EXPRESSION "FAIL \\[rank|UCX  ERROR" PASS_REGULAR_EXPRESSION "ucx_in_place: done")
    if(NOT kind STREQUAL "shm")
      set_tests_properties(ucx_in_place_${kind}_np2 PROPERTIES ENVIRONMENT "SKIFF_TRANSPORTS=ucx;${v}")
    endif()
  endforeach()
endfunction()

# One-sided by UCX's RMA (src/rma/rdma.c, src/ucx/rma.c): every one-sided program again with each rank a
# node of its own (SKIFF_NODE_SIZE=1), so that Win_create and Win_allocate windows are registered with
# UCX and put and get go by its RMA (accumulates and synchronization stay messages), every pair on ucx over
# UCX's tcp wire (<name>_ucxrdma_np3); and between two made-up hosts of this machine, shm within them
# (single copy or messages) and ucx RMA between (<name>_ucxrdmanodes_np4). rma_rdma also counts the
# transfers (MPI_T skiff_rma_rdma): all of them by RMA, and none with SKIFF_UCX_RDMA=0.
function(skiff_ucx_rma_tests)
  if(NOT SKIFF_HAVE_UCX)
    return()
  endif()
  set(hosts2 ${CMAKE_BINARY_DIR}/bin/mpiexec --hosts ucxa:1,ucxb:1 --launcher local)
  foreach(run rma_fence rma_fence_many rma_acc rma_win rma_lock rma_lock_create:create rma_random
              rma_random_create:1:create rma_req rma_req_create:create rma_pscw rma_pscw_create:create rma_dynamic
              rma_passive rma_atomic rma_big rma_big_create:create rma_rdma:rdma)
    string(REPLACE ":" ";" parts ${run})
    list(POP_FRONT parts name)
    string(REGEX REPLACE "_create$" "" prog ${name})
    set(env "SKIFF_TRANSPORTS=ucx;UCX_TLS=tcp;SKIFF_NODE_SIZE=1")
    add_test(NAME ${name}_ucxrdma_np3
      COMMAND ${SKIFF_MPIEXEC} -n 3 --timeout 60 $<TARGET_FILE:mpitest_${prog}> ${parts})
    list(REMOVE_ITEM parts rdma) # two ranks a host: half the neighbours are on the same one
    add_test(NAME ${name}_ucxrdmanodes_np4
      COMMAND ${SKIFF_UCX_2HOSTS} -n 4 --timeout 60 $<TARGET_FILE:mpitest_${prog}> ${parts})
    set_tests_properties(${name}_ucxrdma_np3 PROPERTIES PROCESSORS 3 ENVIRONMENT "${env}")
    set_tests_properties(${name}_ucxrdmanodes_np4 PROPERTIES PROCESSORS 4
      ENVIRONMENT "SKIFF_TRANSPORTS=shm,ucx;UCX_TLS=tcp")
    set_tests_properties(${name}_ucxrdma_np3 ${name}_ucxrdmanodes_np4 PROPERTIES TIMEOUT 90 LABELS "mpi;ucx;rma"
      FAIL_REGULAR_EXPRESSION "FAIL \\[rank|UCX  ERROR")
  endforeach()
  # rma_rdma's neighbours all on the other host (one rank each), so every transfer is counted; and the
  # same with SKIFF_UCX_RDMA=0, where none is.
  add_test(NAME rma_rdma_ucxhosts_np2 COMMAND ${hosts2} -n 2 --timeout 60 $<TARGET_FILE:mpitest_rma_rdma> rdma)
  add_test(NAME rma_rdma_ucxoff_np3
    COMMAND ${SKIFF_MPIEXEC} -n 3 --timeout 60 $<TARGET_FILE:mpitest_rma_rdma> messages)
  set_tests_properties(rma_rdma_ucxhosts_np2 PROPERTIES PROCESSORS 2 ENVIRONMENT "SKIFF_TRANSPORTS=shm,ucx;UCX_TLS=tcp")
  set_tests_properties(rma_rdma_ucxoff_np3 PROPERTIES PROCESSORS 3
    ENVIRONMENT "SKIFF_TRANSPORTS=ucx;UCX_TLS=tcp;SKIFF_NODE_SIZE=1;SKIFF_UCX_RDMA=0")
  set_tests_properties(rma_rdma_ucxhosts_np2 rma_rdma_ucxoff_np3 PROPERTIES TIMEOUT 90 LABELS "mpi;ucx;rma"
    FAIL_REGULAR_EXPRESSION "FAIL \\[rank|UCX  ERROR" PASS_REGULAR_EXPRESSION "OK rma_rdma")
  # The target outside MPI (rma_rdma_idle.c) between two made-up hosts on UCX's shared-memory wires: the
  # Win_allocate memory is allocated by UCX (a sysv segment the origin maps from the key), so put and get
  # are copies by the origin and the flush needs nothing of the target; over UCX's tcp wire, where UCP
  # emulates RMA with messages, the same test hangs (by design: it cannot pass there). UCX prints an
  # ERROR line when the endpoint with peer failure reports is refused on these wires (ucx.c retries
  # without): not a failure here.
  add_test(NAME rma_rdma_idle_ucxshmhosts_np2
    COMMAND ${hosts2} -n 2 --timeout 60 $<TARGET_FILE:mpitest_rma_rdma_idle> rdma)
  set_tests_properties(rma_rdma_idle_ucxshmhosts_np2 PROPERTIES PROCESSORS 2 TIMEOUT 90 LABELS "mpi;ucx;rma"
    ENVIRONMENT "SKIFF_TRANSPORTS=shm,ucx;UCX_TLS=posix,sysv,cma,self" FAIL_REGULAR_EXPRESSION "FAIL \\[rank"
    PASS_REGULAR_EXPRESSION "OK rma_rdma_idle")
endfunction()
