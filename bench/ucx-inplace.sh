#!/usr/bin/env bash
# bench/ucx-inplace.sh — the ucx transport's large messages, this build against another (before/after):
# 16 MiB streaming (bench/large_stream.c, two ranks pinned to cores 0 and 1) with SKIFF_TRANSPORTS=ucx over
# UCX_TLS=tcp and UCX_TLS=sm (posix, sysv, cma), runs interleaved ROUNDS times, median GB/s per case;
# then the instructions of the receiving rank for 9 windows of 4 x 16 MiB over UCX_TLS=tcp
# (valgrind --tool=callgrind on rank 1; the total includes start-up and the polling while waiting, which
# varies with timing: the copy functions' share is the exact part).
#
# Usage: bench/ucx-inplace.sh BASE_BUILD [ROUNDS]     Environment: SKIFF_BUILD (default <repo>/build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
base=${1:?usage: bench/ucx-inplace.sh BASE_BUILD [ROUNDS]}
rounds=${2:-7}
build=${SKIFF_BUILD:-$repo/build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-ucxip.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$build/bin/mpicc" -O2 -o "$tmp/new" "$here/large_stream.c"
"$base/bin/mpicc" -O2 -o "$tmp/base" "$here/large_stream.c"
bin() { [ "$1" = new ] && echo "$build/bin" || echo "$base/bin"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
for r in $(seq "$rounds"); do
    for tls in tcp sm; do
        for b in new base; do
            SKIFF_TRANSPORTS=ucx UCX_TLS=$tls "$(bin $b)/mpiexec" -n 2 --bind-to core "$tmp/$b" >>"$tmp/$b.$tls"
        done
    done
done
printf '%-6s %-8s %s\n' build UCX_TLS "bw 16 MiB GB/s (median of $rounds)"
for tls in tcp sm; do
    for b in new base; do
        printf '%-6s %-8s %s\n' "$b" "$tls" "$(median <"$tmp/$b.$tls")"
    done
done
cat >"$tmp/cg.sh" <<'EOS'
#!/bin/sh
if [ "${SKIFF_RANK:-$PMI_RANK}" = 1 ]; then exec valgrind --tool=callgrind --callgrind-out-file="$CGOUT" "$@"; fi
exec "$@"
EOS
chmod +x "$tmp/cg.sh"
for b in new base; do
    CGOUT=$tmp/cg.$b SKIFF_TRANSPORTS=ucx UCX_TLS=tcp "$(bin $b)/mpiexec" -n 2 --timeout 600 "$tmp/cg.sh" "$tmp/$b" $((16 << 20)) 8 >/dev/null 2>&1
    total=$(callgrind_annotate --auto=no "$tmp/cg.$b" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    copy=$(callgrind_annotate --auto=no "$tmp/cg.$b" 2>/dev/null | awk '/skiff_copy_stream|memcpy|memmove/ {gsub(",", "", $1); s += $1} END {print s + 0}')
    printf 'callgrind, receiving rank, %-4s: %s instructions, %s in skiff_copy_stream and memcpy\n' "$b" "$total" "$copy"
done
echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg))"
