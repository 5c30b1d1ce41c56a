/* Every MPI call the profiler (mpi/profile.h) and the tracer (core/trace.c) can record, one X(name) each:
 * the list gives each call a small id (SKIFF_PC_MPI_X) that indexes a fixed table, so recording a call
 * never looks up a string. In core, below both, so the tracer needs nothing from the MPI layer.
 * An entry point whose SKIFF_ENTER names a call missing here does not compile. */
#ifndef SKIFF_PROFILE_CALLS_H
#define SKIFF_PROFILE_CALLS_H

#define SKIFF_PROFILE_CALLS(X)                                                                           \
    /* start-up, shut-down, environment */                                                               \
    X(MPI_Init) X(MPI_Init_thread) X(MPI_Finalize) X(MPI_Abort) X(MPI_Query_thread) X(MPI_Is_thread_main)  \
    X(MPI_Get_processor_name) X(MPI_Get_version) X(MPI_Get_library_version) X(MPI_Alloc_mem)             \
    X(MPI_Free_mem)                                                                                      \
    /* point-to-point */                                                                                 \
    X(MPI_Send) X(MPI_Ssend) X(MPI_Rsend) X(MPI_Bsend) X(MPI_Isend) X(MPI_Issend) X(MPI_Irsend)          \
    X(MPI_Ibsend) X(MPI_Buffer_attach) X(MPI_Buffer_detach) X(MPI_Recv) X(MPI_Irecv) X(MPI_Probe)        \
    X(MPI_Iprobe) X(MPI_Sendrecv) X(MPI_Sendrecv_replace)                                                \
    X(MPI_Buffer_flush) X(MPI_Buffer_iflush) X(MPI_Comm_attach_buffer) X(MPI_Comm_detach_buffer)         \
    X(MPI_Comm_flush_buffer) X(MPI_Comm_iflush_buffer)                                                   \
    X(MPI_Get_hw_resource_info) X(MPI_Type_get_value_index)                                              \
    X(MPI_Session_attach_buffer) X(MPI_Session_detach_buffer) X(MPI_Session_flush_buffer)                \
    X(MPI_Session_iflush_buffer) X(MPI_Session_attach_buffer_c) X(MPI_Session_detach_buffer_c)           \
    X(MPI_Mprobe) X(MPI_Improbe) X(MPI_Mrecv) X(MPI_Imrecv) X(MPI_Isendrecv) X(MPI_Isendrecv_replace)   \
    X(MPI_Send_init) X(MPI_Bsend_init) X(MPI_Ssend_init) X(MPI_Rsend_init) X(MPI_Recv_init) X(MPI_Start) \
    X(MPI_Startall) X(MPI_Psend_init) X(MPI_Precv_init) X(MPI_Pready) X(MPI_Pready_range)                \
    X(MPI_Pready_list) X(MPI_Parrived)                                                                   \
    /* completion */                                                                                     \
    X(MPI_Wait) X(MPI_Test) X(MPI_Waitall) X(MPI_Testall) X(MPI_Waitany) X(MPI_Testany) X(MPI_Waitsome)  \
    X(MPI_Testsome) X(MPI_Request_free) X(MPI_Request_get_status) X(MPI_Cancel) X(MPI_Test_cancelled)    \
    X(MPI_Get_count) X(MPI_Get_elements)                                                                 \
    X(MPI_Request_get_status_any) X(MPI_Request_get_status_all) X(MPI_Request_get_status_some)          \
    X(MPI_Grequest_start) X(MPI_Grequest_complete) X(MPI_Status_set_cancelled) X(MPI_Status_set_source)  \
    X(MPI_Status_set_tag) X(MPI_Status_set_error) X(MPI_Status_get_source) X(MPI_Status_get_tag)         \
    X(MPI_Status_get_error) X(MPI_Pcontrol)                                                              \
    X(MPI_Abi_get_fortran_info) X(MPI_Abi_set_fortran_info) X(MPI_Abi_get_fortran_booleans)              \
    X(MPI_Abi_set_fortran_booleans)                                                                      \
    X(MPI_Attr_get) X(MPI_Attr_put) X(MPI_Attr_delete) X(MPI_Keyval_create) X(MPI_Keyval_free)           \
    /* collectives */                                                                                    \
    X(MPI_Barrier) X(MPI_Ibarrier) X(MPI_Bcast) X(MPI_Ibcast) X(MPI_Reduce) X(MPI_Ireduce)               \
    X(MPI_Allreduce) X(MPI_Iallreduce) X(MPI_Gather) X(MPI_Gatherv) X(MPI_Scatter) X(MPI_Scatterv)       \
    X(MPI_Allgather) X(MPI_Allgatherv) X(MPI_Alltoall) X(MPI_Alltoallv) X(MPI_Reduce_scatter)            \
    X(MPI_Reduce_scatter_block) X(MPI_Scan) X(MPI_Exscan) X(MPI_Reduce_local)                            \
    X(MPI_Alltoallw) X(MPI_Iallgather) X(MPI_Iallgatherv) X(MPI_Ialltoall) X(MPI_Ialltoallv)             \
    X(MPI_Ialltoallw) X(MPI_Igather) X(MPI_Igatherv) X(MPI_Iscatter) X(MPI_Iscatterv)                    \
    X(MPI_Ireduce_scatter) X(MPI_Ireduce_scatter_block) X(MPI_Iscan) X(MPI_Iexscan)                      \
    X(MPI_Barrier_init) X(MPI_Bcast_init) X(MPI_Reduce_init) X(MPI_Allreduce_init) X(MPI_Gather_init)    \
    X(MPI_Gatherv_init) X(MPI_Scatter_init) X(MPI_Scatterv_init) X(MPI_Allgather_init)                   \
    X(MPI_Allgatherv_init) X(MPI_Alltoall_init) X(MPI_Alltoallv_init) X(MPI_Alltoallw_init)              \
    X(MPI_Reduce_scatter_init) X(MPI_Reduce_scatter_block_init) X(MPI_Scan_init) X(MPI_Exscan_init)      \
    X(MPI_Op_create) X(MPI_Op_free) X(MPI_Op_commutative)                                                \
    /* communicators, groups, topologies, attributes, errors */                                          \
    X(MPI_Comm_rank) X(MPI_Comm_size) X(MPI_Comm_compare) X(MPI_Comm_group) X(MPI_Comm_test_inter)       \
    X(MPI_Comm_remote_size) X(MPI_Comm_remote_group) X(MPI_Intercomm_create) X(MPI_Intercomm_merge)   \
    X(MPI_Comm_set_name) X(MPI_Comm_get_name) X(MPI_Comm_dup) X(MPI_Comm_split) X(MPI_Comm_split_type)   \
    X(MPI_Comm_create) X(MPI_Comm_free) X(MPI_Comm_create_keyval) X(MPI_Comm_free_keyval)                \
    X(MPI_Comm_set_attr) X(MPI_Comm_get_attr) X(MPI_Comm_delete_attr) X(MPI_Comm_set_errhandler)         \
    X(MPI_Comm_get_errhandler) X(MPI_Errhandler_free) X(MPI_Error_string) X(MPI_Error_class)             \
    X(MPI_Comm_create_errhandler) X(MPI_Comm_call_errhandler) X(MPI_Errhandler_create)                   \
    X(MPI_Errhandler_get) X(MPI_Errhandler_set) X(MPI_Add_error_class) X(MPI_Add_error_code)             \
    X(MPI_Add_error_string) X(MPI_Remove_error_class) X(MPI_Remove_error_code) X(MPI_Remove_error_string) \
    X(MPI_Group_size) X(MPI_Group_rank) X(MPI_Group_free) X(MPI_Group_compare)                           \
    X(MPI_Group_translate_ranks) X(MPI_Group_incl) X(MPI_Group_excl) X(MPI_Group_range_incl)             \
    X(MPI_Group_range_excl) X(MPI_Group_union) X(MPI_Group_intersection) X(MPI_Group_difference)         \
    X(MPI_Cart_create) X(MPI_Cart_map) X(MPI_Cart_sub) X(MPI_Cart_coords) X(MPI_Cart_rank)               \
    X(MPI_Cart_shift) X(MPI_Cart_get) X(MPI_Cartdim_get) X(MPI_Topo_test) X(MPI_Dims_create)             \
    /* info objects, communicator hints, communicators made with hints, nonblocking or by a group */     \
    X(MPI_Info_create) X(MPI_Info_create_env) X(MPI_Info_set) X(MPI_Info_get) X(MPI_Info_get_string)     \
    X(MPI_Info_get_valuelen) X(MPI_Info_get_nkeys) X(MPI_Info_get_nthkey) X(MPI_Info_delete)             \
    X(MPI_Info_dup) X(MPI_Info_free) X(MPI_Comm_set_info) X(MPI_Comm_get_info) X(MPI_Comm_dup_with_info) \
    X(MPI_Comm_idup) X(MPI_Comm_idup_with_info) X(MPI_Comm_create_group)                                 \
    /* sessions and communicators made from groups alone */                                              \
    X(MPI_Session_init) X(MPI_Session_finalize) X(MPI_Session_get_num_psets) X(MPI_Session_get_nth_pset) \
    X(MPI_Session_get_pset_info) X(MPI_Session_get_info) X(MPI_Session_set_errhandler)                   \
    X(MPI_Session_get_errhandler) X(MPI_Session_create_errhandler) X(MPI_Session_call_errhandler)        \
    X(MPI_Group_from_session_pset) X(MPI_Comm_create_from_group) X(MPI_Intercomm_create_from_groups)     \
    X(MPI_Graph_create) X(MPI_Graph_map) X(MPI_Graphdims_get) X(MPI_Graph_get)                           \
    X(MPI_Graph_neighbors_count) X(MPI_Graph_neighbors) X(MPI_Dist_graph_create_adjacent)                \
    X(MPI_Dist_graph_create) X(MPI_Dist_graph_neighbors_count) X(MPI_Dist_graph_neighbors)               \
    X(MPI_Neighbor_allgather) X(MPI_Neighbor_allgatherv) X(MPI_Neighbor_alltoall)                        \
    X(MPI_Neighbor_alltoallv) X(MPI_Neighbor_alltoallw) X(MPI_Ineighbor_allgather)                       \
    X(MPI_Ineighbor_allgatherv) X(MPI_Ineighbor_alltoall) X(MPI_Ineighbor_alltoallv)                     \
    X(MPI_Ineighbor_alltoallw) X(MPI_Neighbor_allgather_init) X(MPI_Neighbor_allgatherv_init)           \
    X(MPI_Neighbor_alltoall_init) X(MPI_Neighbor_alltoallv_init) X(MPI_Neighbor_alltoallw_init)          \
    /* the large-count (_c) forms */                                                                     \
    X(MPI_Allgather_c) X(MPI_Allgather_init_c) X(MPI_Allgatherv_c) X(MPI_Allgatherv_init_c)              \
    X(MPI_Allreduce_c) X(MPI_Allreduce_init_c) X(MPI_Alltoall_c) X(MPI_Alltoall_init_c)                  \
    X(MPI_Alltoallv_c) X(MPI_Alltoallv_init_c) X(MPI_Alltoallw_c) X(MPI_Alltoallw_init_c) X(MPI_Bcast_c) \
    X(MPI_Bcast_init_c) X(MPI_Bsend_c) X(MPI_Bsend_init_c) X(MPI_Buffer_attach_c) X(MPI_Buffer_detach_c) \
    X(MPI_Comm_attach_buffer_c) X(MPI_Comm_detach_buffer_c) X(MPI_Exscan_c) X(MPI_Exscan_init_c)         \
    X(MPI_Gather_c) X(MPI_Gather_init_c) X(MPI_Gatherv_c) X(MPI_Gatherv_init_c) X(MPI_Get_count_c)       \
    X(MPI_Get_elements_c) X(MPI_Iallgather_c) X(MPI_Iallgatherv_c) X(MPI_Iallreduce_c)                   \
    X(MPI_Ialltoall_c) X(MPI_Ialltoallv_c) X(MPI_Ialltoallw_c) X(MPI_Ibcast_c) X(MPI_Ibsend_c)           \
    X(MPI_Iexscan_c) X(MPI_Igather_c) X(MPI_Igatherv_c) X(MPI_Imrecv_c) X(MPI_Ineighbor_allgather_c)     \
    X(MPI_Ineighbor_allgatherv_c) X(MPI_Ineighbor_alltoall_c) X(MPI_Ineighbor_alltoallv_c)               \
    X(MPI_Ineighbor_alltoallw_c) X(MPI_Irecv_c) X(MPI_Ireduce_c) X(MPI_Ireduce_scatter_block_c)          \
    X(MPI_Ireduce_scatter_c) X(MPI_Irsend_c) X(MPI_Iscan_c) X(MPI_Iscatter_c) X(MPI_Iscatterv_c)         \
    X(MPI_Isend_c) X(MPI_Isendrecv_c) X(MPI_Isendrecv_replace_c) X(MPI_Issend_c) X(MPI_Mrecv_c)          \
    X(MPI_Neighbor_allgather_c) X(MPI_Neighbor_allgather_init_c) X(MPI_Neighbor_allgatherv_c)            \
    X(MPI_Neighbor_allgatherv_init_c) X(MPI_Neighbor_alltoall_c) X(MPI_Neighbor_alltoall_init_c)         \
    X(MPI_Neighbor_alltoallv_c) X(MPI_Neighbor_alltoallv_init_c) X(MPI_Neighbor_alltoallw_c)             \
    X(MPI_Neighbor_alltoallw_init_c) X(MPI_Op_create_c) X(MPI_Pack_c) X(MPI_Pack_external_c)             \
    X(MPI_Pack_external_size_c) X(MPI_Pack_size_c) X(MPI_Precv_init_c) X(MPI_Psend_init_c) X(MPI_Recv_c) \
    X(MPI_Recv_init_c) X(MPI_Reduce_c) X(MPI_Reduce_init_c) X(MPI_Reduce_local_c)                        \
    X(MPI_Reduce_scatter_block_c) X(MPI_Reduce_scatter_block_init_c) X(MPI_Reduce_scatter_c)             \
    X(MPI_Reduce_scatter_init_c) X(MPI_Rsend_c) X(MPI_Rsend_init_c) X(MPI_Scan_c) X(MPI_Scan_init_c)     \
    X(MPI_Scatter_c) X(MPI_Scatter_init_c) X(MPI_Scatterv_c) X(MPI_Scatterv_init_c) X(MPI_Send_c)        \
    X(MPI_Send_init_c) X(MPI_Sendrecv_c) X(MPI_Sendrecv_replace_c) X(MPI_Ssend_c) X(MPI_Ssend_init_c)    \
    X(MPI_Status_set_elements_c) X(MPI_Type_contiguous_c) X(MPI_Type_create_darray_c)                    \
    X(MPI_Type_create_hindexed_block_c) X(MPI_Type_create_hindexed_c) X(MPI_Type_create_hvector_c)       \
    X(MPI_Type_create_indexed_block_c) X(MPI_Type_create_resized_c) X(MPI_Type_create_struct_c)          \
    X(MPI_Type_create_subarray_c) X(MPI_Type_get_extent_c) X(MPI_Type_get_true_extent_c)                 \
    X(MPI_Type_indexed_c) X(MPI_Type_size_c) X(MPI_Type_vector_c) X(MPI_Unpack_c)                        \
    X(MPI_Unpack_external_c)                                                                             \
    /* one-sided communication */                                                                        \
    X(MPI_Win_create) X(MPI_Win_create_c) X(MPI_Win_allocate) X(MPI_Win_allocate_c)                      \
    X(MPI_Win_allocate_shared) X(MPI_Win_allocate_shared_c) X(MPI_Win_shared_query)                      \
    X(MPI_Win_shared_query_c) X(MPI_Win_free) X(MPI_Win_get_group) X(MPI_Win_set_name)                   \
    X(MPI_Win_get_name) X(MPI_Win_set_info) X(MPI_Win_get_info) X(MPI_Win_create_keyval)                 \
    X(MPI_Win_free_keyval) X(MPI_Win_set_attr) X(MPI_Win_get_attr) X(MPI_Win_delete_attr)                \
    X(MPI_Win_create_errhandler) X(MPI_Win_set_errhandler) X(MPI_Win_get_errhandler)                     \
    X(MPI_Win_call_errhandler) X(MPI_Put) X(MPI_Put_c) X(MPI_Get) X(MPI_Get_c) X(MPI_Accumulate)         \
    X(MPI_Accumulate_c) X(MPI_Get_accumulate) X(MPI_Get_accumulate_c) X(MPI_Fetch_and_op)                \
    X(MPI_Compare_and_swap) X(MPI_Win_fence) X(MPI_Win_lock) X(MPI_Win_unlock) X(MPI_Win_lock_all)       \
    X(MPI_Win_unlock_all) X(MPI_Win_flush) X(MPI_Win_flush_all) X(MPI_Win_flush_local)                   \
    X(MPI_Win_flush_local_all) X(MPI_Win_sync) X(MPI_Rput) X(MPI_Rput_c) X(MPI_Rget) X(MPI_Rget_c)       \
    X(MPI_Raccumulate) X(MPI_Raccumulate_c) X(MPI_Rget_accumulate) X(MPI_Rget_accumulate_c)              \
    X(MPI_Win_post) X(MPI_Win_start) X(MPI_Win_complete) X(MPI_Win_wait) X(MPI_Win_test)                 \
    X(MPI_Win_create_dynamic) X(MPI_Win_attach) X(MPI_Win_detach)                                        \
    /* datatypes */                                                                                      \
    X(MPI_Type_size) X(MPI_Type_get_name) X(MPI_Type_get_extent) X(MPI_Type_get_true_extent)             \
    X(MPI_Type_extent) X(MPI_Type_lb) X(MPI_Type_ub) X(MPI_Type_commit) X(MPI_Type_free) X(MPI_Type_dup) \
    X(MPI_Type_contiguous) X(MPI_Type_vector) X(MPI_Type_create_hvector) X(MPI_Type_hvector)             \
    X(MPI_Type_indexed) X(MPI_Type_create_hindexed) X(MPI_Type_hindexed) X(MPI_Type_create_indexed_block) \
    X(MPI_Type_create_hindexed_block) X(MPI_Type_create_struct) X(MPI_Type_struct)                       \
    X(MPI_Type_create_subarray) X(MPI_Type_create_darray) X(MPI_Type_get_envelope)                       \
    X(MPI_Type_get_contents) X(MPI_Type_set_name) X(MPI_Type_create_keyval) X(MPI_Type_free_keyval)      \
    X(MPI_Type_set_attr) X(MPI_Type_get_attr) X(MPI_Type_delete_attr) X(MPI_Type_match_size)             \
    X(MPI_Type_create_f90_integer) X(MPI_Type_create_f90_real) X(MPI_Type_create_f90_complex)            \
    X(MPI_Type_get_envelope_c) X(MPI_Type_get_contents_c)                                                \
    X(MPI_Pack_external) X(MPI_Unpack_external) X(MPI_Pack_external_size) X(MPI_Type_size_x)             \
    X(MPI_Type_get_extent_x) X(MPI_Type_get_true_extent_x) X(MPI_Get_elements_x) X(MPI_Status_set_elements) \
    X(MPI_Status_set_elements_x) X(MPI_Aint_add) X(MPI_Aint_diff)                                         \
    X(MPI_Type_create_resized) X(MPI_Pack) X(MPI_Unpack) X(MPI_Pack_size) X(MPI_Get_address) X(MPI_Address)

enum skiff_prof_call {
#define SKIFF_PC_ENUM(name) SKIFF_PC_##name,
    SKIFF_PROFILE_CALLS(SKIFF_PC_ENUM)
#undef SKIFF_PC_ENUM
    SKIFF_PC_COUNT
};

/* The calls that are not recorded: they answer questions that are legal before MPI_Init and after
 * MPI_Finalize, or read the clock the user times with, or belong to the tools interface. */
#define SKIFF_PROFILE_UNRECORDED "MPI_Initialized, MPI_Finalized, MPI_Wtime, MPI_Wtick, MPI_T_*"

#endif
