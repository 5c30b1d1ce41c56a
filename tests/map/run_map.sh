#!/bin/sh
# run_map.sh MODE NODES COMMAND... : runs COMMAND (a launcher line ending in skiff-map) in a scratch
# directory with --quick and heat maps, then checks the map, the summary and the pictures.
set -u
mode=$1 nodes=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/skiff-map.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
"$@" --quick -q -o map.json --plot heat >out.txt 2>err.txt
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: skiff-map exited $rc"; cat out.txt err.txt; exit 1
fi
for p in heat-latency.png heat-bandwidth.png; do
    [ -s "$p" ] || { echo "FAIL: $p missing or empty"; cat out.txt err.txt; exit 1; }
done
cat out.txt
if [ "$nodes" = 0 ]; then
    python3 "$(dirname "$0")/check_map.py" "$mode" map.json out.txt
else
    python3 "$(dirname "$0")/check_map.py" "$mode" map.json out.txt "$nodes"
fi
