#!/bin/sh
# cluster.sh [-r RATE] [-n NODES] [-l LINKS] NAME COMMAND [ARGS...]
#
# An emulated cluster on one machine: NODES network namespaces ("hosts") NAME-h0, NAME-h1, ...,
# joined by LINKS separate networks (198.18.<link>.0/24, the benchmarking range), each host with its
# own veth port on each network, through a bridge per network in the host's root namespace. With
# -r (e.g. 400mbit) every port's egress is shaped by a token bucket (tc tbf; netem and the kernel
# bonding driver are not available here). COMMAND runs in the root namespace with HOSTS set to the
# comma-separated host names; the cluster is torn down when it exits, whatever happens.
#
# Exits 77 (CTest's "skipped") when it cannot build namespaces here: not root, or no ip netns.
set -u
rate=""
nodes=2
links=2
while getopts r:n:l: o; do
    case $o in
    r) rate=$OPTARG ;;
    n) nodes=$OPTARG ;;
    l) links=$OPTARG ;;
    *) echo "usage: cluster.sh [-r RATE] [-n NODES] [-l LINKS] NAME COMMAND..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
name=$1
shift

skip() {
    echo "SKIP: $*"
    exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v ip >/dev/null || skip "needs iproute2 (ip)"
ip netns add "$name-probe" 2>/dev/null || skip "cannot create network namespaces here"
ip netns del "$name-probe"
[ -z "$rate" ] || command -v tc >/dev/null || skip "needs tc for -r"

teardown() {
    for h in $(seq 0 $((nodes - 1))); do
        ip netns del "$name-h$h" 2>/dev/null
    done
    for l in $(seq 1 "$links"); do
        ip link del "$name-b$l" 2>/dev/null
    done
}
trap teardown EXIT
trap 'exit 130' INT TERM

die() {
    echo "cluster.sh: $*" >&2
    exit 1
}

# Interface names are limited to 15 bytes: keep NAME short (tests use 'sk' + a few digits).
build() {
    for l in $(seq 1 "$links"); do
        ip link add "$name-b$l" type bridge || die "cannot create bridge $name-b$l"
        ip link set "$name-b$l" up
    done
    for h in $(seq 0 $((nodes - 1))); do
        ns=$name-h$h
        ip netns add "$ns" || die "cannot create namespace $ns"
        ip -n "$ns" link set lo up
        for l in $(seq 1 "$links"); do
            ip link add "$name-$h-$l" type veth peer name "eth$l" netns "$ns" || die "cannot create veth"
            ip link set "$name-$h-$l" master "$name-b$l" up
            ip -n "$ns" addr add "198.18.$l.$((h + 1))/24" dev "eth$l"
            ip -n "$ns" link set "eth$l" up
            if [ -n "$rate" ]; then
                # Shape both directions: the host's port (its egress) and the bridge side (its ingress).
                ip netns exec "$ns" tc qdisc add dev "eth$l" root tbf rate "$rate" burst 256kb latency 50ms ||
                    die "tc tbf failed"
                tc qdisc add dev "$name-$h-$l" root tbf rate "$rate" burst 256kb latency 50ms || die "tc tbf failed"
            fi
        done
    done
}
build

HOSTS=$(seq 0 $((nodes - 1)) | sed "s/^/$name-h/" | paste -sd, -)
export HOSTS
"$@"
