# skiff-pipe: see docs/skiff-pipe.md (target, install rule)
# NetPIPE-style curves over MPI, memcpy and plain TCP. The tools/lib files it adds (cache size, a clock
# that needs no MPI) join skiff_measure, so the other tools can use them too.
target_sources(skiff_measure PRIVATE ${CMAKE_CURRENT_LIST_DIR}/lib/cachesize.c ${CMAKE_CURRENT_LIST_DIR}/lib/walltime.c)
add_executable(skiff-pipe skiff_pipe.c skiff_pipe_options.c skiff_pipe_buf.c skiff_pipe_pattern.c
  skiff_pipe_sweep.c skiff_pipe_report.c skiff_pipe_plot.c skiff_pipe_mpi.c skiff_pipe_memcpy.c skiff_pipe_tcp.c
  skiff_pipe_cpu.c skiff_pipe_work.c skiff_pipe_multi.c skiff_pipe_rma.c)
target_link_libraries(skiff-pipe PRIVATE mpi skiff_measure)
install(TARGETS skiff-pipe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
