#!/bin/sh
# The whole test suite, as CI runs it: a release build and an AddressSanitizer +
# UndefinedBehaviorSanitizer build, each with every unit and multi-rank test, and the unit tests under
# ThreadSanitizer. Each suite's time is printed: README.md quotes the total for an idle machine.
set -eu
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)
t0=$(date +%s)
# A rank blocked this long prints what it waits for: a hang in CI then explains itself.
export SKIFF_PROGRESS_TIMEOUT=${SKIFF_PROGRESS_TIMEOUT:-60}

run_suite() { # build-dir, ctest filter (or ""), extra cmake args...
    dir=$1
    filter=$2
    shift 2
    echo "== $dir: configure and build"
    cmake -S . -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j "$jobs" >/dev/null
    echo "== $dir: tests"
    t=$(date +%s)
    (cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 300 ${filter:+-R "$filter"})
    echo "== $dir: tests took $(( $(date +%s) - t )) s"
}

run_suite build "" -DCMAKE_BUILD_TYPE=RelWithDebInfo
# Leak checking stays on; ASAN also checks the launcher. abort_on_error keeps failures loud.
ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite build-asan "" -DCMAKE_BUILD_TYPE=Debug -DSKIFF_SANITIZE=ON
# The lock-free queue's unit test runs producers as threads, and the threads_* tests (tests/threads.cmake)
# call MPI from four threads per rank under MPI_THREAD_MULTIPLE: ThreadSanitizer checks both. (They use no
# ucx, so UCX's libucm, which TSan does not survive, is never loaded: src/ucx/module.h.)
TSAN_OPTIONS=halt_on_error=1 run_suite build-tsan "^(unit_|threads_)" -DCMAKE_BUILD_TYPE=Debug -DSKIFF_SANITIZE_THREAD=ON
echo "== all suites passed in $(( $(date +%s) - t0 )) s, builds included"
