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
# wildcards, every blocking collective with MPI_ROOT/MPI_PROC_NULL roots, dup, split, create, merge, free.
skiff_mpi_test(      intercomm              intercomm.c            "2;3;4")
# Graph topologies (self-loops, repeated edges, fewer nodes than processes, reorder, Graph_map) and distributed
# graphs (adjacent weighted/unweighted/empty, general with every rank naming another's edges); dup keeps them.
skiff_mpi_test(      graph_topo             graph_topo.c           "1;2;3;4")
# Neighbourhood collectives (all five, blocking and nonblocking) on rings, open and periodic grids, extent-1
# dimensions, graphs with self-loops and repeated edges, distributed graphs; packing receive types.
skiff_mpi_test(      neighbor_coll          neighbor_coll.c        "1;2;3;4;6")
