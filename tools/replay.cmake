# skiff-replay: a trace (SKIFF_TRACE=1) replayed under a LogGP model (docs/trace.md). Not an MPI program:
# it reads the trace files' format from src/core/trace_format.h and needs libc and libm only.
add_executable(skiff-replay ${CMAKE_CURRENT_SOURCE_DIR}/skiff_replay.c ${CMAKE_CURRENT_SOURCE_DIR}/skiff_replay_sim.c)
target_include_directories(skiff-replay PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(skiff-replay PRIVATE _GNU_SOURCE)
target_link_libraries(skiff-replay PRIVATE m)
set_target_properties(skiff-replay PROPERTIES INSTALL_RPATH "") # no libmpi, as mpiexec
install(TARGETS skiff-replay RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
