# Tests of apps/ (STREAM)
#   stream_np1/np2          skiff-stream -v with small arrays (well under 5 s), report checked by
#                           tests/apps/check_stream.py: four kernels, positive rates, validation passed,
#                           aggregate = sum of the per-rank rates within 1%
#   stream_checker_selftest the checker rejects broken reports (so the checks above can fail)
find_program(SKIFF_PYTHON3 python3)
if(NOT SKIFF_PYTHON3)
  message(STATUS "tests: python3 not found, skiff-stream checks skipped")
  return()
endif()
set(_stream_check ${CMAKE_CURRENT_SOURCE_DIR}/apps/check_stream.py)
foreach(np 1 2)
  # 1 M doubles: 8 MB per array, 24 MB per rank; a few tenths of a second.
  add_test(NAME stream_np${np}
    COMMAND ${SKIFF_PYTHON3} ${_stream_check} ${np} --
            ${SKIFF_MPIEXEC} -n ${np} --timeout 60 $<TARGET_FILE:skiff-stream> -n 1000000 -v)
  set_tests_properties(stream_np${np} PROPERTIES TIMEOUT 90 PROCESSORS ${np} LABELS "apps"
    PASS_REGULAR_EXPRESSION "OK skiff-stream" FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()
add_test(NAME stream_checker_selftest COMMAND ${SKIFF_PYTHON3} ${_stream_check} --selftest)
set_tests_properties(stream_checker_selftest PROPERTIES TIMEOUT 30 LABELS "apps"
  PASS_REGULAR_EXPRESSION "OK check_stream selftest")

# Tests of apps/cg (skiff-cg, docs/cg.md), each well under 5 s at np 4 oversubscribed. check_cg.py ok runs
# skiff-cg --check: rank 0 solves the same problem alone, and the test passes on convergence, a true
# residual below the tolerance, iteration counts equal within one and x equal to the serial x and to
# the exact solution (all ones). check_cg.py error: a bad input ends with a message naming file and line.
set(_cg_check ${CMAKE_CURRENT_SOURCE_DIR}/apps/check_cg.py)
set(_cg_mtx ${PROJECT_SOURCE_DIR}/apps/cg/matrices)
function(skiff_cg_test name np)
  cmake_parse_arguments(C "" "" "ENV;ARGS" ${ARGN})
  add_test(NAME cg_${name}_np${np}
    COMMAND ${SKIFF_PYTHON3} ${_cg_check} ok -- ${SKIFF_MPIEXEC} -n ${np} --timeout 60
            $<TARGET_FILE:skiff-cg> --check ${C_ARGS})
  set_tests_properties(cg_${name}_np${np} PROPERTIES TIMEOUT 90 PROCESSORS ${np} LABELS "apps"
    PASS_REGULAR_EXPRESSION "OK check_cg" FAIL_REGULAR_EXPRESSION "FAIL")
  if(C_ENV)
    set_tests_properties(cg_${name}_np${np} PROPERTIES ENVIRONMENT "${C_ENV}")
  endif()
endfunction()
foreach(np 1 2 3 4)
  foreach(mode p2p persist neighbor neighbor-init)
    skiff_cg_test(poisson2d_${mode} ${np} ARGS --gen poisson2d --size 20 --exchange ${mode})
  endforeach()
  skiff_cg_test(mtx_symmetric ${np} ARGS --mtx ${_cg_mtx}/poisson2d_8_symmetric.mtx)
  skiff_cg_test(mtx_general ${np} ARGS --mtx ${_cg_mtx}/poisson3d_5_general.mtx --exchange neighbor)
  skiff_cg_test(mtx_tridiag_jacobi ${np} ARGS --mtx ${_cg_mtx}/tridiag6_comments.mtx --jacobi --exchange p2p)
endforeach()
foreach(np 2 4)
  skiff_cg_test(poisson3d ${np} ARGS --gen poisson3d --size 8 --exchange p2p)
  skiff_cg_test(poisson3d27_jacobi ${np} ARGS --gen poisson3d27 --size 7 --jacobi --exchange neighbor-init)
  skiff_cg_test(mtx_27point ${np} ARGS --mtx ${_cg_mtx}/poisson3d27_4_symmetric.mtx --exchange neighbor)
endforeach()
# --by-nodes on two pretend nodes of two ranks (SKIFF_NODE_SIZE; at np 3 the second has one rank).
foreach(np 3 4)
  skiff_cg_test(by_nodes ${np} ARGS --gen poisson2d --size 16 --by-nodes --jacobi ENV SKIFF_NODE_SIZE=2)
endforeach()
foreach(mode persist neighbor)
  skiff_cg_test(poisson2d_tcp_${mode} 4 ARGS --gen poisson2d --size 20 --exchange ${mode}
    ENV SKIFF_TRANSPORTS=tcp)
endforeach()
skiff_cg_test(mtx_general_tcp 3 ARGS --mtx ${_cg_mtx}/poisson3d_5_general.mtx --exchange p2p
  ENV SKIFF_TRANSPORTS=tcp)
# No arguments: the default problem, its iteration count and residual.
add_test(NAME cg_default_np1 COMMAND ${SKIFF_MPIEXEC} -n 1 --timeout 60 $<TARGET_FILE:skiff-cg>)
set_tests_properties(cg_default_np1 PROPERTIES TIMEOUT 90 LABELS "apps"
  PASS_REGULAR_EXPRESSION "iterations: [0-9]+ \\(converged\\).*true residual [^\n]*: [0-9.]+e-(09|1[0-9])")
add_test(NAME cg_help COMMAND $<TARGET_FILE:skiff-cg> --help)
set_tests_properties(cg_help PROPERTIES TIMEOUT 30 LABELS "apps"
  PASS_REGULAR_EXPRESSION "usage: mpiexec -n N skiff-cg.*--exchange MODE")
# Bad inputs: each must end the job with a nonzero exit and a message that names the problem.
set(_cg_bad ${CMAKE_CURRENT_SOURCE_DIR}/apps/cg_bad)
foreach(case
    "array_format|array_format.mtx:1: format 'array' is not supported"
    "no_banner|no_banner.mtx:1: not a Matrix Market file"
    "out_of_range|out_of_range.mtx:5: entry (4, 3) is outside the 3 x 3 matrix"
    "upper_in_symmetric|upper_in_symmetric.mtx:4: entry (1, 2) is above the diagonal"
    "truncated|truncated.mtx:5: file ends after 2 of the 4 entries"
    "not_square|not_square.mtx:2: the matrix is 2 x 3"
    "bad_entry|bad_entry.mtx:4: expected an entry 'row column value'"
    "missing|cannot open")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 bad)
  list(GET parts 1 text)
  add_test(NAME cg_bad_${bad}_np2
    COMMAND ${SKIFF_PYTHON3} ${_cg_check} error "${text}" -- ${SKIFF_MPIEXEC} -n 2 --timeout 60
            $<TARGET_FILE:skiff-cg> --mtx ${_cg_bad}/${bad}.mtx)
  set_tests_properties(cg_bad_${bad}_np2 PROPERTIES TIMEOUT 90 PROCESSORS 2 LABELS "apps"
    PASS_REGULAR_EXPRESSION "OK check_cg" FAIL_REGULAR_EXPRESSION "FAIL check_cg")
endforeach()
add_test(NAME cg_bad_option COMMAND ${SKIFF_PYTHON3} ${_cg_check} error "--exchange wants p2p" --
  ${SKIFF_MPIEXEC} -n 2 --timeout 60 $<TARGET_FILE:skiff-cg> --exchange carrier-pigeon)
set_tests_properties(cg_bad_option PROPERTIES TIMEOUT 90 PROCESSORS 2 LABELS "apps"
  PASS_REGULAR_EXPRESSION "OK check_cg" FAIL_REGULAR_EXPRESSION "FAIL check_cg")
# An indefinite matrix: CG breaks down (p.Ap <= 0) and says so instead of iterating on NaNs.
add_test(NAME cg_bad_indefinite_np2 COMMAND ${SKIFF_MPIEXEC} -n 2 --timeout 60 $<TARGET_FILE:skiff-cg>
  --mtx ${_cg_bad}/indefinite.mtx)
set_tests_properties(cg_bad_indefinite_np2 PROPERTIES TIMEOUT 90 PROCESSORS 2 LABELS "apps"
  PASS_REGULAR_EXPRESSION "iterations: 0 \\(NOT converged: p.Ap <= 0, the matrix is not positive definite\\)")
# The shipped matrices are what skiff-cg --write-mtx writes today (they were made that way, no downloads).
foreach(m "poisson2d_8_symmetric|--gen;poisson2d;--size;8" "poisson3d_5_general|--gen;poisson3d;--size;5;--general"
          "poisson3d27_4_symmetric|--gen;poisson3d27;--size;4")
  string(FIND "${m}" "|" bar)
  string(SUBSTRING "${m}" 0 ${bar} file)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${m}" ${bar} -1 args)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/cg_${file}.mtx)
  add_test(NAME cg_shipped_${file}
    COMMAND sh -c "\"$0\" \"$@\" --write-mtx '${out}' && cmp '${out}' '${_cg_mtx}/${file}.mtx' && echo SAME"
            $<TARGET_FILE:skiff-cg> ${args})
  set_tests_properties(cg_shipped_${file} PROPERTIES TIMEOUT 30 LABELS "apps" PASS_REGULAR_EXPRESSION "SAME")
endforeach()
add_test(NAME cg_checker_selftest COMMAND ${SKIFF_PYTHON3} ${_cg_check} --selftest)
set_tests_properties(cg_checker_selftest PROPERTIES TIMEOUT 30 LABELS "apps"
  PASS_REGULAR_EXPRESSION "OK check_cg selftest")
# bench/cg-compare.sh (skiff-cg beside MPICH and Open MPI) runs end to end: skiff only, np 1, its tiny -q
# problem, one round; only the summary line is checked, never a time.
find_program(SKIFF_BASH bash)
if(SKIFF_BASH)
  add_test(NAME cg_compare_smoke
    COMMAND ${CMAKE_COMMAND} -E env SKIFF_BUILD=${CMAKE_BINARY_DIR} RUN_TIMEOUT=60
            ${SKIFF_BASH} ${PROJECT_SOURCE_DIR}/bench/cg-compare.sh -q -l skiff -n 1 -r 1
            -o ${CMAKE_CURRENT_BINARY_DIR}/cg_compare_smoke)
  set_tests_properties(cg_compare_smoke PROPERTIES TIMEOUT 120 LABELS "apps;tools"
    PASS_REGULAR_EXPRESSION "np 1 pinned +skiff +41 .*runs with results: skiff 1")
endif()
