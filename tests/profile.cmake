# Tests of the built-in profiler (SKIFF_PROFILE; docs/profiler.md). Included by tests/CMakeLists.txt.
#
# tests/profile/prof_calls.c makes a known set of calls; tests/profile/check_profile.py runs it under
# the profiler and checks the report against that set, the size histogram and the stderr summary.
# tests/profile/pmpi_wrap.c is an external profiler of the classic kind (its own MPI_Send calling
# PMPI_Send), alone and together with the built-in one.

set(SKIFF_PROFILE_SRC ${CMAKE_CURRENT_SOURCE_DIR}/profile)
set(SKIFF_PROFILE_BIN ${CMAKE_CURRENT_BINARY_DIR}/profile)

foreach(prog prof_calls pmpi_wrap pcontrol prof_threads)
  add_executable(profile_${prog} ${SKIFF_PROFILE_SRC}/${prog}.c)
  target_link_libraries(profile_${prog} PRIVATE mpi)
  set_target_properties(profile_${prog} PROPERTIES OUTPUT_NAME ${prog} RUNTIME_OUTPUT_DIRECTORY ${SKIFF_PROFILE_BIN})
endforeach()
target_link_libraries(profile_prof_threads PRIVATE Threads::Threads)

# The external profiler without the built-in one (also over tcp).
foreach(np 2 3)
  add_test(NAME profile_pmpi_wrap_np${np}
    COMMAND ${SKIFF_MPIEXEC} -n ${np} --timeout 60 $<TARGET_FILE:profile_pmpi_wrap>)
  add_test(NAME profile_pmpi_wrap_tcp_np${np}
    COMMAND ${SKIFF_MPIEXEC} -n ${np} --timeout 60 $<TARGET_FILE:profile_pmpi_wrap>)
  set_tests_properties(profile_pmpi_wrap_tcp_np${np} PROPERTIES ENVIRONMENT "SKIFF_TRANSPORTS=tcp")
  set_tests_properties(profile_pmpi_wrap_np${np} profile_pmpi_wrap_tcp_np${np} PROPERTIES
    TIMEOUT 90 PROCESSORS ${np} LABELS "mpi;profile"
    PASS_REGULAR_EXPRESSION "OK pmpi_wrap" FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()

find_program(SKIFF_PYTHON3 python3)
if(NOT SKIFF_PYTHON3)
  message(STATUS "tests: python3 not found, the profiler's report checks are skipped")
  return()
endif()

# skiff_profile_check(<test> <mode> <program target> <np> [ENV VAR=value...])
#   Runs check_profile.py <mode> in a working directory of its own under the build tree (the report
#   lands there; modes default and off look at what appears in it).
function(skiff_profile_check test mode target np)
  cmake_parse_arguments(P "" "" "ENV" ${ARGN})
  set(dir ${SKIFF_PROFILE_BIN}/${test})
  file(MAKE_DIRECTORY ${dir})
  add_test(NAME ${test}
    COMMAND ${SKIFF_PYTHON3} ${SKIFF_PROFILE_SRC}/check_profile.py ${mode} ${SKIFF_MPIEXEC}
            $<TARGET_FILE:${target}> ${np} ${dir}/report.txt
    WORKING_DIRECTORY ${dir})
  set_tests_properties(${test} PROPERTIES TIMEOUT 150 PROCESSORS ${np} LABELS "mpi;profile"
    PASS_REGULAR_EXPRESSION "OK profile ${mode}" FAIL_REGULAR_EXPRESSION "FAIL")
  if(P_ENV)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${P_ENV}")
  endif()
endfunction()

# Counts, bytes and sizes are exactly what the program did, summed over ranks.
skiff_profile_check(profile_counts_np2     counts  profile_prof_calls 2)
skiff_profile_check(profile_counts_np3     counts  profile_prof_calls 3)
skiff_profile_check(profile_counts_tcp_np3 counts  profile_prof_calls 3 ENV SKIFF_TRANSPORTS=tcp)
# Threads (MPI_THREAD_MULTIPLE): a table per thread, summed; threads that exit before MPI_Finalize count.
skiff_profile_check(profile_threads_np2     threads profile_prof_threads 2)
skiff_profile_check(profile_threads_tcp_np3 threads profile_prof_threads 3 ENV SKIFF_TRANSPORTS=tcp)
# mpiexec --profile: skiff-profile.<job id>.txt in the working directory.
skiff_profile_check(profile_default_file   default profile_prof_calls 2)
# Off by default: nothing written even with SKIFF_PROFILE_FILE set.
skiff_profile_check(profile_off            off     profile_prof_calls 2)
# The external profiler and the built-in one together: each call seen once by both.
skiff_profile_check(profile_pmpi_np3       pmpi    profile_pmpi_wrap  3)

# MPI_Pcontrol: level 0 stops recording, 1 resumes, 2 writes each rank's partial report; a no-op without
# SKIFF_PROFILE.
foreach(np 1 2 3 4)
  set(dir ${SKIFF_PROFILE_BIN}/profile_pcontrol_np${np})
  file(MAKE_DIRECTORY ${dir})
  add_test(NAME profile_pcontrol_np${np}
    COMMAND ${SKIFF_PYTHON3} ${SKIFF_PROFILE_SRC}/check_pcontrol.py ${SKIFF_MPIEXEC}
            $<TARGET_FILE:profile_pcontrol> ${np} ${dir}/report.txt
    WORKING_DIRECTORY ${dir})
  set_tests_properties(profile_pcontrol_np${np} PROPERTIES TIMEOUT 150 PROCESSORS ${np} LABELS "mpi;profile"
    PASS_REGULAR_EXPRESSION "OK profile pcontrol" FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()
