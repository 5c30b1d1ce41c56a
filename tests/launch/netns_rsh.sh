#!/bin/sh
# netns_rsh.sh HOST COMMAND...: Open MPI's plm_rsh_agent for the emulated cluster (tests/cluster):
# runs the command mpirun would run over ssh (orted and its arguments, one shell string) in the
# network namespace HOST instead.
host=$1
shift
exec ip netns exec "$host" sh -c "$*"
