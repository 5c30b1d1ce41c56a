# Tests of skiff-map (output parsed and checked by tests/map/check_map.py)
set(_map ${CMAKE_CURRENT_SOURCE_DIR}/map/run_map.sh)
foreach(np 2 4)
  add_test(NAME map_np${np} COMMAND sh ${_map} np${np} 0 ${SKIFF_MPIEXEC} -n ${np} --timeout 120 $<TARGET_FILE:skiff-map>)
  set_tests_properties(map_np${np} PROPERTIES TIMEOUT 180 PROCESSORS 2 LABELS tools FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()
# Pretend nodes: the map must report the nodes the library uses (the same discovery code).
add_test(NAME map_pretend_nodes_np4 COMMAND sh ${_map} pretend 2 ${SKIFF_MPIEXEC} -n 4 --timeout 120 -x SKIFF_NODE_SIZE=2 $<TARGET_FILE:skiff-map>)
set_tests_properties(map_pretend_nodes_np4 PROPERTIES TIMEOUT 180 PROCESSORS 2 LABELS tools FAIL_REGULAR_EXPRESSION "FAIL")
if(SKIFF_HYDRA)
  # Two real nodes (Hydra's fork launcher): tcp between them, shared memory inside; the classes must
  # separate the inter-node pairs from the rest.
  add_test(NAME map_hydra_2nodes_np4
    COMMAND sh ${_map} twonodes 2 ${SKIFF_HYDRA} -launcher fork -hosts nodeA:2,nodeB:2 -n 4 $<TARGET_FILE:skiff-map>)
  set_tests_properties(map_hydra_2nodes_np4 PROPERTIES TIMEOUT 180 PROCESSORS 2 LABELS tools FAIL_REGULAR_EXPRESSION "FAIL"
    RUN_SERIAL TRUE)
endif()
