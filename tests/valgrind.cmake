# valgrind memcheck on a subset: the library's main paths (eager, rendezvous with single copy, the
# pipelined copy, tcp, collectives, derived types, errors), the launcher and the singleton. Leaks that
# are certain (definite, indirect) and every memory error fail the test. Only in builds without
# sanitizers: valgrind and ASan/TSan do not run together.
find_program(SKIFF_VALGRIND valgrind)
if(NOT SKIFF_VALGRIND OR SKIFF_SANITIZE OR SKIFF_SANITIZE_THREAD)
  return()
endif()
set(_vg ${SKIFF_VALGRIND} -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
        --show-leak-kinds=definite,indirect)

# skiff_valgrind_test(<name> <np> <target> [ENV ...] [ARGS ...]): mpiexec -n <np> valgrind <program>.
function(skiff_valgrind_test name np target)
  cmake_parse_arguments(V "" "" "ENV;ARGS" ${ARGN})
  add_test(NAME valgrind_${name}
    COMMAND ${SKIFF_MPIEXEC} -n ${np} --timeout 300 ${_vg} $<TARGET_FILE:${target}> ${V_ARGS})
  set_tests_properties(valgrind_${name} PROPERTIES TIMEOUT 360 PROCESSORS ${np} LABELS "mpi;valgrind"
    FAIL_REGULAR_EXPRESSION "==[0-9]+==;FAIL \\[rank" ENVIRONMENT "${V_ENV}")
endfunction()

foreach(p sendrecv_ring nb_completion probe pt2pt_unexpected send_modes large dt_pack comm_split coll_smoke coll_nb)
  skiff_valgrind_test(${p}_np2 2 mpitest_${p})
endforeach()
skiff_valgrind_test(large_nocma_np2 2 mpitest_large ENV SKIFF_SHM_CMA=0)
# Requests that outlive one operation: matched messages, persistent and send-receive requests
# (100000 bytes: still rendezvous, but quicker under valgrind than the default 1 MiB).
foreach(p mprobe persist isendrecv)
  skiff_valgrind_test(${p}_np2 2 mpitest_${p} ARGS 100000)
endforeach()
# Partitioned requests: sub-requests restarted every round, a hello that waits for a late receiver.
skiff_valgrind_test(partitioned_np2 2 mpitest_partitioned)
foreach(p sendrecv_ring large coll_smoke)
  skiff_valgrind_test(${p}_tcp_np3 3 mpitest_${p} ENV SKIFF_TRANSPORTS=tcp)
endforeach()
# Every bad-argument row: the error paths must not leak or touch what they should not.
skiff_valgrind_test(bad_input_np2 2 mpitest_bad_input)

# The launcher itself, and a program started without it (singleton).
add_test(NAME valgrind_mpiexec
  COMMAND ${_vg} --trace-children=no ${SKIFF_MPIEXEC} -n 2 $<TARGET_FILE:mpitest_sendrecv_ring>)
add_test(NAME valgrind_singleton COMMAND ${_vg} $<TARGET_FILE:mpitest_pt2pt_self>)
add_test(NAME valgrind_skiff_clean COMMAND ${_vg} ${CMAKE_BINARY_DIR}/bin/skiff-clean --list)
set_tests_properties(valgrind_mpiexec valgrind_singleton valgrind_skiff_clean PROPERTIES TIMEOUT 300
  LABELS "valgrind" FAIL_REGULAR_EXPRESSION "==[0-9]+==;FAIL \\[rank")
