#!/bin/sh
# clean.sh SKIFF_CLEAN HYDRA_MPIEXEC PROGRAM
# What skiff-clean is for: a job whose launcher died in a way that could not take its ranks down.
# The ranks of `faulty compute` sleep outside MPI under Hydra; Hydra's proxy and mpiexec are then
# killed with SIGKILL, so nothing tells the ranks. skiff-clean must
#   - before: see the live job and leave it alone (--dry-run exits 0),
#   - after:  name both ranks (--dry-run exits 1 and lists their pids), end them (exit 0, gone:
#             polled for up to 20 s, as a busy machine may take a moment), and then find nothing.
set -u
clean=$1 hydra=$2 prog=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-clean.XXXXXX") || exit 2
pids=""
cleanup() { for p in $pids; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
    echo "FAIL (skiff-clean): $*"
    for f in out err dry1 dry2 clean after; do [ -f "$tmp/$f" ] && { echo "--- $f"; cat "$tmp/$f"; }; done
    exit 1
}
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

: >"$tmp/out"
"$hydra" -n 2 "$prog" compute >"$tmp/out" 2>"$tmp/err" &
launcher=$!
i=0
while [ "$(grep -c ready "$tmp/out")" -lt 2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
pids=$(sed -n 's/^rank [0-9]* pid \([0-9]*\) ready$/\1/p' "$tmp/out")
[ "$(echo $pids | wc -w)" -eq 2 ] || fail "the job did not start"

"$clean" --dry-run --list >"$tmp/dry1" 2>&1 || fail "skiff-clean --dry-run found leftovers in a live job"
for p in $pids; do grep -q " $p (rank slot" "$tmp/dry1" || fail "--list does not show rank pid $p as alive"; done

# Kill the launcher side only: each rank's parent (Hydra's proxy) and mpiexec.hydra.
proxies=$(for p in $pids; do awk '{print $4}' "/proc/$p/stat"; done | sort -u)
for p in $proxies; do kill -9 "$p" 2>/dev/null; done
kill -9 "$launcher" 2>/dev/null
wait "$launcher" 2>/dev/null
# A launcher is gone for skiff-clean once its process is, zombie included: wait until the proxies are
# reaped (polled for up to 20 s, as a busy machine may take a moment) rather than for a fixed time.
i=0
while [ $i -lt 200 ]; do
    left=""
    for p in $proxies; do [ -e "/proc/$p" ] && left="$left $p"; done
    [ -z "$left" ] && break
    sleep 0.1; i=$((i + 1))
done
[ -z "$left" ] || fail "Hydra's proxy$left still there (not reaped) after SIGKILL"
for p in $pids; do alive "$p" || fail "rank pid $p died with its launcher: nothing left to clean (test is void)"; done

"$clean" --dry-run >"$tmp/dry2" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "skiff-clean --dry-run exited $rc with leftovers present, expected 1"
for p in $pids; do grep -q " $p (rank slot" "$tmp/dry2" || fail "--dry-run does not name rank pid $p"; done
for p in $pids; do alive "$p" || fail "--dry-run ended pid $p"; done

"$clean" >"$tmp/clean" 2>&1 || fail "skiff-clean exited $?"
i=0
while [ $i -lt 200 ]; do
    left=""
    for p in $pids; do alive "$p" && left="$left $p"; done
    [ -z "$left" ] && break
    sleep 0.1; i=$((i + 1))
done
[ -z "$left" ] || fail "ranks$left survived skiff-clean"
"$clean" --dry-run >"$tmp/after" 2>&1 || fail "leftovers remain after skiff-clean"
grep -q "nothing to clean" "$tmp/after" || fail "no 'nothing to clean' at the end"
pids=""
echo "OK skiff-clean: live job left alone, the 2 ranks of a job whose launcher died were named and ended"
