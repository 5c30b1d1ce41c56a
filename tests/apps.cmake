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
