#!/bin/sh
# mpiexec-hosts.sh ARGS...: skiff's mpiexec ($SKIFF_MPIEXEC) on the hosts of the emulated cluster
# ($HOSTS from cluster.sh), through 'ip netns exec'; lets fault.sh run its checks across hosts.
exec "$SKIFF_MPIEXEC" --hosts "$HOSTS" --launcher-template 'ip netns exec {host}' "$@"
