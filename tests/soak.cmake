# Soak (issue 6): randomized traffic with every byte checked (tests/soak/soak.c, docs/soak.md).
# Included by tests/CMakeLists.txt. The suite runs short, fixed-seed runs (about 4 s of traffic
# each, so a failure here replays exactly); scripts/soak.sh is the long run with random seeds.
#
# Hangs explain themselves twice: SKIFF_PROGRESS_TIMEOUT makes a rank blocked in the library for
# 20 s print its pending requests, and soak's own --hang watchdog names the operation a round is
# stuck in (polling loops included) before mpiexec's --timeout ends the job.

file(GLOB soak_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/soak/*.c)
add_executable(soak ${soak_sources})
target_link_libraries(soak PRIVATE mpi)
set_target_properties(soak PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/soak)

# skiff_soak_test(<name> <np> <seed> [LAUNCHER mpiexec] [ENV VAR=value...] [LABELS label...])
function(skiff_soak_test name np seed)
  cmake_parse_arguments(S "" "LAUNCHER" "ENV;LABELS" ${ARGN})
  if(NOT S_LAUNCHER)
    set(S_LAUNCHER ${SKIFF_MPIEXEC})
  endif()
  set(labels mpi soak ${S_LABELS})
  set(procs ${np})
  if(procs GREATER 2)
    set(procs 2) # ranks beyond the cores sleep instead of spinning
  endif()
  add_test(NAME ${name}
    COMMAND ${S_LAUNCHER} -n ${np} --timeout 90
            $<TARGET_FILE:soak> --seed ${seed} --seconds 4 --hang 45)
  set_tests_properties(${name} PROPERTIES
    TIMEOUT 120
    PROCESSORS ${procs}
    LABELS "${labels}"
    ENVIRONMENT "SKIFF_PROGRESS_TIMEOUT=20;${S_ENV}"
    PASS_REGULAR_EXPRESSION "OK soak"
    FAIL_REGULAR_EXPRESSION "FAIL \\[rank")
endfunction()

#               name               np  seed   options
# Shared memory (single copy where the kernel allows it).
skiff_soak_test(soak_np2           2   1002)
skiff_soak_test(soak_np3           3   1003)
skiff_soak_test(soak_np4           4   1004)
skiff_soak_test(soak_np8           8   1008)
# Every pair on tcp over loopback.
skiff_soak_test(soak_tcp_np2       2   2002   ENV SKIFF_TRANSPORTS=tcp LABELS tcp)
skiff_soak_test(soak_tcp_np4       4   2004   ENV SKIFF_TRANSPORTS=tcp LABELS tcp)
skiff_soak_test(soak_tcp_np8       8   2008   ENV SKIFF_TRANSPORTS=tcp LABELS tcp)
# Every pair on ucx over UCX's tcp wire (issue 16 §2), and shm within two made-up hosts with ucx between
# them (tests/ucx.cmake's launcher), when the ucx transport is built.
if(SKIFF_HAVE_UCX)
  skiff_soak_test(soak_ucx_np4     4   5004   ENV SKIFF_TRANSPORTS=ucx UCX_TLS=tcp LABELS ucx)
  skiff_soak_test(soak_ucxnodes_np4 4  5104   LAUNCHER ${SKIFF_UCX_2HOSTS}
                  ENV SKIFF_TRANSPORTS=shm,ucx UCX_TLS=tcp LABELS ucx)
endif()
# Pipelined copy through shared memory instead of single copy.
skiff_soak_test(soak_nocma_np4     4   3004   ENV SKIFF_SHM_CMA=0)
# Pretend nodes of 2 ranks: the node-aware collectives, on MPI_COMM_WORLD and on splits whose rank
# order differs from it (seed 4035 has a Bcast on such a split in round 3).
skiff_soak_test(soak_nodes_np5     5   4035   ENV SKIFF_NODE_SIZE=2)

# The checks themselves: one message of the first round damaged in flight must be reported as
# corrupt with its offset, one never sent as a hang naming the receive (the watchdog, 3 s).
add_test(NAME soak_selftest_corrupt_np3
  COMMAND ${SKIFF_MPIEXEC} -n 3 --timeout 60 $<TARGET_FILE:soak> --seed 7 --rounds 2 --inject corrupt)
add_test(NAME soak_selftest_hang_np3
  COMMAND ${SKIFF_MPIEXEC} -n 3 --timeout 60 $<TARGET_FILE:soak> --seed 7 --rounds 2 --inject drop --hang 3)
set_tests_properties(soak_selftest_corrupt_np3 soak_selftest_hang_np3 PROPERTIES
  TIMEOUT 90 PROCESSORS 2 LABELS "mpi;soak")
set_tests_properties(soak_selftest_corrupt_np3 PROPERTIES
  PASS_REGULAR_EXPRESSION "FAIL \\[rank 2\\] seed=7 round=0 np=3: corrupt payload: msg 0 .* first bad offset 29")
set_tests_properties(soak_selftest_hang_np3 PROPERTIES
  PASS_REGULAR_EXPRESSION
  "FAIL \\[rank 2\\] seed=7 round=0 np=3: hang: round not done after 3 s; stuck in: .*msg 0 from 0")
