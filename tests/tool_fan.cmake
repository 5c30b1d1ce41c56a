# Tests of skiff-fan (output parsed and checked)
#   fan_quick_np2/np4   quick runs (np=4 is oversubscribed on 2 cores: slower, must not hang), data file
#                       and stdout checked by tests/fan/check_fan.py; np2 also draws the chart if gnuplot is here
#   fan_checker_selftest  the checker rejects broken data files (so the checks above can fail)
#   fan_mpich_build     the same sources built with mpicc.mpich -Wall -Wextra -Werror (skipped without it)
#   fan_mpich_np2       that binary run by MPICH's mpiexec and checked like the others
find_program(SKIFF_PYTHON3 python3)
find_program(SKIFF_GNUPLOT gnuplot)
find_program(SKIFF_MPICC_MPICH mpicc.mpich)
find_program(SKIFF_MPIEXEC_MPICH mpiexec.mpich)
set(_fan_dir ${CMAKE_CURRENT_BINARY_DIR}/fan)
set(_fan_check ${CMAKE_CURRENT_SOURCE_DIR}/fan/check_fan.py)
file(MAKE_DIRECTORY ${_fan_dir})

if(NOT SKIFF_PYTHON3)
  message(STATUS "tests: python3 not found, skiff-fan output checks skipped")
else()
  foreach(np 2 4)
    set(_png "")
    set(_plot "")
    if(np EQUAL 2 AND SKIFF_GNUPLOT)
      set(_png --png ${_fan_dir}/fan_np2.png)
      set(_plot --plot ${_fan_dir}/fan_np2.png)
    endif()
    add_test(NAME fan_quick_np${np}
      COMMAND ${SKIFF_PYTHON3} ${_fan_check} ${np} ${_fan_dir}/fan_np${np}.out ${_png} --
              ${SKIFF_MPIEXEC} -n ${np} --timeout 120 $<TARGET_FILE:skiff-fan> --quick --repeats 50
              -o ${_fan_dir}/fan_np${np}.out ${_plot})
    set_tests_properties(fan_quick_np${np} PROPERTIES TIMEOUT 150 PROCESSORS ${np} LABELS "tools"
      PASS_REGULAR_EXPRESSION "OK skiff-fan" FAIL_REGULAR_EXPRESSION "FAIL")
  endforeach()
  add_test(NAME fan_checker_selftest COMMAND ${SKIFF_PYTHON3} ${_fan_check} --selftest)
  set_tests_properties(fan_checker_selftest PROPERTIES TIMEOUT 30 LABELS "tools"
    PASS_REGULAR_EXPRESSION "OK check_fan selftest")
endif()

add_test(NAME fan_mpich_build
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fan/build_mpich.sh ${PROJECT_SOURCE_DIR} ${_fan_dir}/skiff-fan.mpich)
set_tests_properties(fan_mpich_build PROPERTIES TIMEOUT 120 LABELS "tools" SKIP_RETURN_CODE 77
  FIXTURES_SETUP fan_mpich)
if(SKIFF_PYTHON3 AND SKIFF_MPICC_MPICH AND SKIFF_MPIEXEC_MPICH)
  add_test(NAME fan_mpich_np2
    COMMAND ${SKIFF_PYTHON3} ${_fan_check} 2 ${_fan_dir}/fan_mpich_np2.out --
            ${SKIFF_MPIEXEC_MPICH} -n 2 ${_fan_dir}/skiff-fan.mpich --quick --repeats 50 -q
            -o ${_fan_dir}/fan_mpich_np2.out)
  set_tests_properties(fan_mpich_np2 PROPERTIES TIMEOUT 120 PROCESSORS 2 LABELS "tools"
    FIXTURES_REQUIRED fan_mpich PASS_REGULAR_EXPRESSION "OK skiff-fan" FAIL_REGULAR_EXPRESSION "FAIL")
endif()
