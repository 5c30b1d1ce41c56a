# skiff-map: NodeMap (docs/skiff-map.md). hwloc for each node's make-up and each rank's binding.
target_sources(skiff_measure PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/lib/heatmap.c)
add_executable(skiff-map ${CMAKE_CURRENT_SOURCE_DIR}/skiff_map.c)
target_link_libraries(skiff-map PRIVATE mpi skiff_measure PkgConfig::HWLOC m)
install(TARGETS skiff-map RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
