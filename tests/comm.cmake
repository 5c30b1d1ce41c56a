# Communicators, groups, attributes and Cartesian topologies (issue 3). Included by tests/CMakeLists.txt.
#                    name                   source                 ranks
# Split (reversed keys, MPI_UNDEFINED, split of a split, MPI_COMM_TYPE_SHARED) with traffic on each.
skiff_mpi_test(      comm_split             comm_split.c           "1;2;3;4;5;8")
# Dup isolates traffic; create from groups; compare; 300 create/free rounds.
skiff_mpi_test(      comm_dup               comm_dup.c             "1;2;3;4;5;8")
# Group construction, set operations, translate_ranks, compare.
skiff_mpi_test(      comm_group             comm_group.c           "1;2;3;4;5;8")
# Names, predefined attributes, keyvals with copy and delete callbacks.
skiff_mpi_test(      comm_attr              comm_attr.c            "1;2;3;4;5;8")
# Error classes of all of the above; handles used after they were freed.
skiff_mpi_test(      comm_errors            comm_errors.c          "1;2;3;4;5;8")
# Cartesian grids: create, coords/rank, shift, sub, halo exchange; Dims_create known answers.
skiff_mpi_test(      cart_topo              cart_topo.c            "1;2;3;4;5;8")
skiff_mpi_test(      cart_dims              cart_dims.c            "1;2")
# Handles as Fortran integers (c2f/f2c, and MPI-5's toint/fromint): every kind, predefined with their ABI
# values and user-made, freed and made-up integers, 2000 requests through a table that must recycle; statuses.
skiff_mpi_test(      fint_convert           fint_convert.c         "1;2;3;4;singleton")
# Intercommunicators between two unequal groups of world: create, remote size/group, point-to-point with
# wildcards, every blocking and nonblocking collective with MPI_ROOT/MPI_PROC_NULL roots (Alltoallw too), dup,
# idup, split, create, merge, free.
skiff_mpi_test(      intercomm              intercomm.c            "2;3;4")
# Graph topologies (self-loops, repeated edges, fewer nodes than processes, reorder, Graph_map) and distributed
# graphs (adjacent weighted/unweighted/empty, general with every rank naming another's edges); dup keeps them.
skiff_mpi_test(      graph_topo             graph_topo.c           "1;2;3;4")
# Neighbourhood collectives (all five, blocking, nonblocking and persistent over several starts) on rings, open
# and periodic grids, extent-1 dimensions, graphs with self-loops and repeated edges, distributed graphs; packing
# receive types.
skiff_mpi_test(      neighbor_coll          neighbor_coll.c        "1;2;3;4;6")
# Info objects (order of keys, replace, cut values, errors, dup, c2f/f2c, 10000 made and freed), MPI_INFO_ENV and
# MPI_Info_create_env of a program started with "alpha beta", hints on communicators; also before MPI_Init.
skiff_mpi_test(      info                   info.c                 "1;2;singleton" ARGS alpha beta)
# MPI_Comm_idup (several outstanding, completed by MPI_Test, mixed with dup and split, parent freed early, not
# waiting for a rank that has not called yet), idup/dup_with_info, MPI_Comm_create_group on halves and overlaps.
skiff_mpi_test(      comm_idup              comm_idup.c            "1;2;3;4")
# MPI_Comm_split_type by hardware: guided by each hwloc level (nested, within the node, a bound rank's own PU),
# mpi_shared_memory = MPI_COMM_TYPE_SHARED, unknown levels, unguided (a strict subset); bound (np <= 2) and not.
skiff_mpi_test(      comm_split_hw          comm_split_hw.c        "1;2;3;4")
skiff_mpi_test(      comm_split_hw_nodes    comm_split_hw.c        "4" ENV SKIFF_NODE_SIZE=2)
# 10000 dup, 2000 split, 1000 idup, 500 create_group, each freed: no id runs out, no growth, no leak (ASan).
skiff_mpi_test(      comm_churn             comm_churn.c           "1;2;3" TIMEOUT 240)
# MPI-4 sessions without MPI_Init: two at once, every process set (mpi_size, a communicator from each), an
# intercommunicator from the two halves of mpi://WORLD, session error handlers, a new session after the last ended.
skiff_mpi_test(      session_only           session_only.c         "1;2;3;4")
skiff_mpi_test(      session_only_nodes     session_only.c         "4" ENV SKIFF_NODE_SIZE=2)
# Sessions beside the world model: a session ended before MPI_Init, one open across it (its communicator
# congruent to MPI_COMM_WORLD, traffic on both), one between MPI_Init and MPI_Finalize, one used after MPI_Finalize.
skiff_mpi_test(      session_mixed          session_mixed.c        "1;2;3;4;singleton")
