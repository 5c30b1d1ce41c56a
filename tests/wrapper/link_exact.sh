#!/bin/sh
# link_exact.sh MPICC MPIEXEC HELLO_C WORKDIR
# The wrapper links skiff's libmpi whatever the user's arguments: a -L to the system's lib directory
# (where another MPI's libmpi.so lives) given first, or a bare -I at the end of the line (a real
# benchmark's makefile does that; it swallows the next word, once the wrapper's -L). Each program
# must need libmpi.so.0, resolve it to the wrapper's lib directory (readelf, ldd) and run 2 ranks.
set -u
mpicc=$1 mpiexec=$2 hello=$3 work=$4
mkdir -p "$work" || exit 1
# Both the build tree and an installed prefix keep libmpi in bin/../lib.
libdir=$(cd "$(dirname "$mpicc")/../lib" && pwd -P) || exit 1

# The directory where the compiler finds another MPI's libmpi.so (Open MPI's on Debian); without
# one the cases still run but prove less.
other=$(${SKIFF_CC:-cc} -print-file-name=libmpi.so)
case $other in
    /*) other=$(cd "$(dirname "$other")" && pwd -P) ;;
    *) other=/usr/lib/$(${SKIFF_CC:-cc} -print-multiarch 2>/dev/null); echo "note: no other libmpi.so found" ;;
esac

check() { # name, extra wrapper arguments...
    name=$1
    shift
    exe="$work/$name"
    rm -f "$exe"
    echo "+ $mpicc $hello -o $exe $*"
    "$mpicc" "$hello" -o "$exe" "$@" || { echo "FAIL: $name: the wrapper failed"; exit 1; }
    needed=$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(libmpi[^]]*\)\].*/\1/p')
    [ "$needed" = "libmpi.so.0" ] || { echo "FAIL: $name needs '$needed', not skiff's libmpi.so.0"; exit 1; }
    resolved=$(env -u LD_LIBRARY_PATH ldd "$exe" | sed -n 's/^[[:space:]]*libmpi[^ ]* => \([^ ]*\) .*/\1/p')
    resolved=$(readlink -f "$resolved")
    [ "$resolved" = "$(readlink -f "$libdir/libmpi.so.0")" ] ||
        { echo "FAIL: $name loads libmpi from '$resolved', not $libdir"; exit 1; }
    out=$(env -u LD_LIBRARY_PATH "$mpiexec" -n 2 "$exe") || { echo "FAIL: $name: mpiexec exited $?"; exit 1; }
    lines=$(printf '%s\n' "$out" | grep -c '^Hello from rank [01] of 2$')
    [ "$lines" -eq 2 ] || { echo "FAIL: $name printed:"; echo "$out"; exit 1; }
    echo "ok $name: needs libmpi.so.0 from $resolved, ran 2 ranks"
}

check user_L_first "-L$other"
check bare_I_last -I
check both "-L$other" -I
echo "OK link_exact"
