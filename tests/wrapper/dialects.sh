#!/bin/sh
# dialects.sh MPICC MPICXX WORKDIR
# Build tools interrogate a wrapper in MPICH's dialect (-show, -compile-info, -link-info) or Open
# MPI's (--showme and --showme:compile, :link, :incdirs, :libdirs, :libs, :version, :command, :help).
# Each must answer in the shape those wrappers use (checked against Debian's mpicc.mpich and
# mpicc.openmpi) and never reach the compiler: SKIFF_CC/SKIFF_CXX name a compiler that records any
# call and fails.
set -u
mpicc=$1 mpicxx=$2 work=$3
mkdir -p "$work" || exit 1
fake="$work/fake-cc"
log="$work/fake-cc.log"
printf '#!/bin/sh\necho "$0 $*" >>"%s"\nexit 1\n' "$log" >"$fake" && chmod +x "$fake" || exit 1
rm -f "$log"
export SKIFF_CC="$fake" SKIFF_CXX="$fake"
fails=0

ask() { # wrapper, option...: prints the answer; a failure or a call of the compiler is a FAIL
    out=$("$@" 2>&1) || { echo "FAIL: '$*' exited $?: $out" >&2; fails=$((fails + 1)); }
    if [ -s "$log" ]; then
        echo "FAIL: '$*' ran the compiler: $(cat "$log")" >&2
        fails=$((fails + 1))
        rm -f "$log"
    fi
    printf '%s\n' "$out"
}

expect() { # what, answer, the answer expected word for word
    if [ "$2" = "$3" ]; then
        echo "ok $1: $2"
    else
        echo "FAIL: $1: got '$2', expected '$3'"
        fails=$((fails + 1))
    fi
}

expect_re() { # what, answer, extended regex the whole answer must match
    if printf '%s\n' "$2" | grep -Eqx -- "$3"; then
        echo "ok $1: $2"
    else
        echo "FAIL: $1: got '$2', expected /$3/"
        fails=$((fails + 1))
    fi
}

incdir=$(ask "$mpicc" --showme:incdirs)
libdir=$(ask "$mpicc" --showme:libdirs)
[ -f "$incdir/mpi.h" ] || { echo "FAIL: --showme:incdirs gave '$incdir', which has no mpi.h"; fails=$((fails + 1)); }
[ -f "$libdir/libmpi.so" ] || { echo "FAIL: --showme:libdirs gave '$libdir', which has no libmpi.so"; fails=$((fails + 1)); }
I="-I$incdir"
link="-L$libdir -Wl,-rpath,$libdir $libdir/libmpi.so"

# The whole command, as MPICH's -show and Open MPI's --showme print it: compiler first.
for opt in -show -showme --showme -compile-info -compile_info -link-info -link_info; do
    expect "mpicc $opt" "$(ask "$mpicc" $opt)" "$fake $I $link"
    expect "mpicc $opt -c x.c" "$(ask "$mpicc" $opt -c x.c)" "$fake $I -c x.c"
    expect "mpicc $opt x.c -o x" "$(ask "$mpicc" $opt x.c -o x)" "$fake $I x.c -o x $link"
done
# Open MPI's parts: flags only, no compiler word.
for dash in - --; do
    expect "mpicc ${dash}showme:compile" "$(ask "$mpicc" ${dash}showme:compile)" "$I"
    expect "mpicc ${dash}showme:link" "$(ask "$mpicc" ${dash}showme:link)" "$link"
done
expect "mpicc --showme:compile x.c" "$(ask "$mpicc" --showme:compile x.c)" "$I x.c"
expect "mpicc --showme:link x.o -o x" "$(ask "$mpicc" --showme:link x.o -o x)" "x.o -o x $link"
expect "mpicc --showme:libs" "$(ask "$mpicc" --showme:libs)" "mpi"
expect "mpicc --showme:command" "$(ask "$mpicc" --showme:command)" "$fake"
expect_re "mpicc --showme:version" "$(ask "$mpicc" --showme:version)" "mpicc: skiff [0-9]+\.[0-9]+\.[0-9]+ \(Language: C\)"
expect_re "mpicxx --showme:version" "$(ask "$mpicxx" --showme:version)" "mpicxx: skiff [0-9]+\.[0-9]+\.[0-9]+ \(Language: C\+\+\)"
expect "mpicxx --showme:compile" "$(ask "$mpicxx" --showme:compile)" "$I"
expect "mpicc --showme:help" "$(ask "$mpicc" --showme:help | grep -o -- '--showme:[a-z]*' | sort -u | wc -l)" 8
# A compiler given with arguments (SKIFF_CC="ccache gcc") is printed as given.
expect "SKIFF_CC with words" "$(SKIFF_CC="$fake -m64" ask "$mpicc" -show -c x.c)" "$fake -m64 $I -c x.c"

# An unknown --showme: is refused by the wrapper, by name, not passed on.
out=$("$mpicc" --showme:nonsense 2>&1) && { echo "FAIL: --showme:nonsense was accepted: $out"; fails=$((fails + 1)); }
expect_re "mpicc --showme:nonsense" "$out" "mpicc: unknown option --showme:nonsense .*"
[ -s "$log" ] && { echo "FAIL: --showme:nonsense ran the compiler"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] || { echo "FAIL: $fails checks"; exit 1; }
echo "OK wrapper dialects"
