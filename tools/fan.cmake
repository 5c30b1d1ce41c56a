# skiff-fan: see docs/skiff-fan.md (target, install rule)
# Hoefler's fan-out/fan-in round trip beside the LogP model of it. MPI API and tools/lib only, so the same
# files also build with MPICH's and Open MPI's mpicc (tests/tool_fan.cmake checks MPICH).
set(SKIFF_FAN_SOURCES skiff_fan.c skiff_fan_options.c skiff_fan_util.c skiff_fan_logp.c skiff_fan_gap.c
  skiff_fan_rtt.c skiff_fan_model.c skiff_fan_report.c skiff_fan_plot.c)
list(TRANSFORM SKIFF_FAN_SOURCES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
add_executable(skiff-fan ${SKIFF_FAN_SOURCES})
target_link_libraries(skiff-fan PRIVATE mpi skiff_measure)
install(TARGETS skiff-fan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
