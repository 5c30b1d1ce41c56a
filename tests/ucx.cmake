# The ucx transport (src/ucx, label ucx): which multi-rank programs run again with SKIFF_TRANSPORTS=ucx
# (skiff_ucx_twins in tests/CMakeLists.txt registers them), and its fault test. Nothing is registered
# when skiff is built without UCX; unit_config then checks that SKIFF_TRANSPORTS=ucx is refused.
#
# Point to point (eager, rendezvous pieces, order, wildcards, synchronous sends, cancellation, probes),
# collectives, and one-sided (fence, locks, atomics, large puts/gets over the message path).
set(SKIFF_UCX_TWINS
  pingpong pt2pt_order pt2pt_unexpected ssend send_modes nb_many nb_completion probe mprobe persist
  isendrecv sendrecv_ring large large_tiny dt_p2p
  coll_barrier coll_bcast coll_alltoall coll_reduce coll_nb coll_gather_scatter
  rma_fence rma_lock rma_passive rma_atomic rma_big)
# UCX's shared-memory wires (no peer failure reports there): a smaller set.
set(SKIFF_UCX_SHM_TWINS pingpong pt2pt_order ssend large coll_alltoall rma_passive)
# shm inside pretend two-rank nodes, ucx between them: the mixed sleep.
set(SKIFF_UCX_NODE_TWINS pingpong large coll_bcast coll_alltoall rma_lock)
