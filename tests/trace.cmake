# Tests of the call tracer (SKIFF_TRACE; docs/trace.md) and of skiff-replay. Included by tests/CMakeLists.txt.
#
# tests/trace/trace_known.c makes a known set of calls; tests/trace/check_trace.py runs it under the
# tracer and reads the files back (tests/trace/tracefile.py reads and writes the format). Replay tests
# feed skiff-replay hand-made traces whose predicted time is worked out by hand in
# tests/trace/check_replay.py.

set(SKIFF_TRACE_SRC ${CMAKE_CURRENT_SOURCE_DIR}/trace)
set(SKIFF_TRACE_BIN ${CMAKE_CURRENT_BINARY_DIR}/trace)

add_executable(trace_known ${SKIFF_TRACE_SRC}/trace_known.c)
target_link_libraries(trace_known PRIVATE mpi)
set_target_properties(trace_known PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SKIFF_TRACE_BIN})

find_program(SKIFF_PYTHON3 python3)
if(NOT SKIFF_PYTHON3)
  message(STATUS "tests: python3 not found, the tracer's checks are skipped")
  return()
endif()

# skiff_trace_check(<test> <mode> <np> [ENV VAR=value...]): check_trace.py in a directory of its own.
function(skiff_trace_check test mode np)
  cmake_parse_arguments(P "" "" "ENV" ${ARGN})
  set(dir ${SKIFF_TRACE_BIN}/${test})
  file(MAKE_DIRECTORY ${dir})
  add_test(NAME ${test}
    COMMAND ${SKIFF_PYTHON3} ${SKIFF_TRACE_SRC}/check_trace.py ${mode} ${SKIFF_MPIEXEC}
            $<TARGET_FILE:trace_known> ${np} ${dir} $<TARGET_FILE:skiff-replay>
    WORKING_DIRECTORY ${dir})
  set_tests_properties(${test} PROPERTIES TIMEOUT 150 PROCESSORS ${np} LABELS "mpi;trace"
    PASS_REGULAR_EXPRESSION "OK trace ${mode}" FAIL_REGULAR_EXPRESSION "FAIL")
  if(P_ENV)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${P_ENV}")
  endif()
endfunction()

skiff_trace_check(trace_counts_np2     counts    2)
skiff_trace_check(trace_counts_np4     counts    4)
skiff_trace_check(trace_counts_tcp_np3 counts    3 ENV SKIFF_TRANSPORTS=tcp)
skiff_trace_check(trace_mpiexec_flag   mpiexec   2)
skiff_trace_check(trace_off            off       2)
skiff_trace_check(trace_truncated      truncated 3)

# skiff-replay on hand-made traces with answers worked out by hand.
add_test(NAME replay_hand COMMAND ${SKIFF_PYTHON3} ${SKIFF_TRACE_SRC}/check_replay.py $<TARGET_FILE:skiff-replay>
  ${SKIFF_TRACE_BIN}/replay_hand)
set_tests_properties(replay_hand PROPERTIES TIMEOUT 60 LABELS "trace;replay"
  PASS_REGULAR_EXPRESSION "OK replay" FAIL_REGULAR_EXPRESSION "FAIL")

# A real trace's dependency graph is complete: replayed, every rank reaches MPI_Finalize (no message
# without its sender, no rendezvous without its receive): tests/trace/coll_mix.c at np 4, over shared
# memory, over tcp, and on two pretend nodes (node-aware collectives).
add_executable(trace_coll_mix ${SKIFF_TRACE_SRC}/coll_mix.c)
target_link_libraries(trace_coll_mix PRIVATE mpi)
set_target_properties(trace_coll_mix PROPERTIES OUTPUT_NAME coll_mix RUNTIME_OUTPUT_DIRECTORY ${SKIFF_TRACE_BIN})
foreach(variant shm tcp nodes)
  set(dir ${SKIFF_TRACE_BIN}/replay_complete_${variant})
  file(MAKE_DIRECTORY ${dir})
  add_test(NAME replay_complete_${variant}
    COMMAND ${SKIFF_PYTHON3} ${SKIFF_TRACE_SRC}/check_complete.py ${SKIFF_MPIEXEC} $<TARGET_FILE:trace_coll_mix> 4
            ${dir} $<TARGET_FILE:skiff-replay>
    WORKING_DIRECTORY ${dir})
  set_tests_properties(replay_complete_${variant} PROPERTIES TIMEOUT 150 PROCESSORS 4 LABELS "mpi;trace;replay"
    PASS_REGULAR_EXPRESSION "OK replay complete" FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()
set_tests_properties(replay_complete_tcp PROPERTIES ENVIRONMENT "SKIFF_TRANSPORTS=tcp")
set_tests_properties(replay_complete_nodes PROPERTIES ENVIRONMENT "SKIFF_NODE_SIZE=2")

# The same across two emulated hosts (tests/cluster/cluster.sh: network namespaces; skipped, 77, without
# root or namespaces): 2 + 2 ranks, each rank writing its file from its own host; the trace records two
# nodes and the replay completes with messages between them.
set(dir ${SKIFF_TRACE_BIN}/trace_cluster)
file(MAKE_DIRECTORY ${dir})
add_test(NAME trace_cluster
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cluster/cluster.sh sktr ${SKIFF_PYTHON3} ${SKIFF_TRACE_SRC}/check_complete.py
          ${SKIFF_MPIEXEC} $<TARGET_FILE:trace_coll_mix> 4 ${dir} $<TARGET_FILE:skiff-replay>
  WORKING_DIRECTORY ${dir})
set_tests_properties(trace_cluster PROPERTIES TIMEOUT 300 PROCESSORS 2 LABELS "mpi;tcp;cluster;trace;replay"
  SKIP_RETURN_CODE 77 FAIL_REGULAR_EXPRESSION "FAIL")

# The profiler and the tracer together (one span, one flag): the profile's counts are still exactly the
# program's calls (tests/profile/check_profile.py), with the trace written beside the report.
if(COMMAND skiff_profile_check)
  skiff_profile_check(profile_counts_traced_np3 counts profile_prof_calls 3 ENV SKIFF_TRACE=1
    SKIFF_TRACE_FILE=${CMAKE_CURRENT_BINARY_DIR}/profile/profile_counts_traced_np3/trace)
endif()
