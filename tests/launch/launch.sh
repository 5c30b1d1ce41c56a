#!/bin/sh
# launch.sh CASE MPIEXEC CLIENT
# mpiexec's PMI mode, tested with pmi_client (a PMI-1 client without the library): placement and
# PMI_process_mapping, the protocol over PMI_FD and PMI_PORT, launcher templates, ssh (a fake one
# that runs the command here), and how failures are reported. One CASE per CTest test.
set -u
case_=$1 mpiexec=$2 client=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiff-launch.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

# run [ARGS...]: mpiexec ARGS, with stdout, stderr and exit code kept for the checks below.
run() {
    last="mpiexec $*"
    "$mpiexec" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
fail() {
    echo "FAIL ($case_): $*"
    echo "    command: $last"
    echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"
    failed=1
}
rc_is() { [ "$rc" -eq "$1" ] || fail "exit code $rc, expected $1"; }
out_has() { grep -qF -- "$1" "$tmp/out" || fail "stdout lacks '$1'"; }
err_has() { grep -qF -- "$1" "$tmp/err" || fail "stderr lacks '$1'"; }
out_lacks() { if grep -qF -- "$1" "$tmp/out"; then fail "stdout has '$1'"; fi; }
ok_lines() { # every rank finished the protocol check
    n=$(grep -c '^OK pmi rank' "$tmp/out")
    [ "$n" -eq "$1" ] || fail "$n ranks passed the PMI check, expected $1"
}
# mapping ARGS... MAPPING HOSTS: the placement that ARGS give, as rank 0 reads it.
mapping() {
    eval "want_hosts=\${$#}"
    eval "want_map=\${$(($# - 1))}"
    args=""
    while [ $# -gt 2 ]; do args="$args $1"; shift; done
    # shellcheck disable=SC2086 # the arguments are single words
    run $args --launcher local "$client" check
    rc_is 0
    out_has "rank 0: mapping=$want_map hosts=$want_hosts"
}

case $case_ in
fd_nodes) # two entries with one name are two nodes
    run --hosts localhost:2,localhost:2 -n 4 "$client" check
    rc_is 0; ok_lines 4
    out_has "rank 0: mapping=(vector,(0,2,2)) hosts=localhost,localhost"
    ;;
placement)
    mapping --hosts a:3,b:1,c:1 -n 5 "(vector,(0,1,3),(1,2,1))" "a,b,c"
    mapping --hosts a,b,c --ppn 2 -n 5 "(vector,(0,2,2),(2,1,1))" "a,b,c"
    mapping --hosts a,b,c -n 4 "(vector,(0,2,2))" "a,b"           # ceil(4/3) = 2: c is not used
    mapping --hosts a,b --ppn 2 "(vector,(0,2,2))" "a,b"           # no -n: every place
    mapping --hosts a:2 --hosts b "(vector,(0,1,2),(1,1,1))" "a,b" # a host without slots counts one
    printf '# test hosts\n\na slots=2   # two\nb:1\n  c\n' >"$tmp/hosts"
    mapping --hostfile "$tmp/hosts" "(vector,(0,1,2),(1,2,1))" "a,b,c"
    mapping --hostfile "$tmp/hosts" -n 3 "(vector,(0,1,2),(1,1,1))" "a,b"
    mapping --pmi fd -n 2 "(vector,(0,1,2))" "$(hostname)"           # this machine alone
    run --hosts a,b --ppn 2 -n 5 --launcher local "$client" check
    rc_is 2; err_has "5 ranks do not fit on 2 hosts with -ppn 2 (at most 4 ranks)"
    run --hosts a:1,b:2 -n 4 --launcher local "$client" check
    rc_is 2; err_has "4 ranks do not fit in the 3 slots"
    ;;
usage)
    run --pmi-host 127.0.0.1 -n 2 "$client" check
    rc_is 2; err_has "need PMI mode"
    run -ppn 2 -n 2 "$client" check
    rc_is 2; err_has "-ppn needs --hosts"
    printf 'a slots=2 extra\n' >"$tmp/bad"
    run --hostfile "$tmp/bad" "$client" check
    rc_is 2; err_has "line 1"
    run --hosts a,,b "$client" check
    rc_is 2; err_has "empty entry"
    run --hosts nodeA --pmi fd "$client" check
    rc_is 2; err_has "--pmi fd cannot reach ranks started through ssh"
    run --launcher rsh "$client" check
    rc_is 2; err_has "--launcher takes ssh or local"
    ;;
port) # initack; a second claim on a rank and an id out of range are refused
    run --pmi port --hosts localhost:3 "$client" badid
    rc_is 0; ok_lines 3
    err_has "a second PMI connection claims to be rank 0; refused"
    err_has "pmiid=3 (job of 3 ranks); refused"
    ;;
abort)
    run --hosts localhost:3 "$client" abort 7
    rc_is 7
    err_has "rank 1 on host localhost aborted the job with code 7"
    # The rank's last words come before mpiexec's verdict.
    first=$(grep -n -e "last words" -e "aborted the job" "$tmp/err" | head -1)
    case $first in *"last words"*) ;; *) fail "the verdict came before the rank's last words" ;; esac
    run --hosts localhost:2 "$client" abort
    rc_is 1; err_has "rank 1 on host localhost aborted the job with code 1"
    ;;
nofinalize)
    run --hosts localhost:3 "$client" nofinalize
    rc_is 1; err_has "rank 1 on host localhost exited (code 0) without calling MPI_Finalize"
    ;;
longline)
    run --hosts h1:2 --launcher local "$client" longline
    rc_is 3; err_has "rank 1 on host h1 sent a PMI line longer than 1024 bytes"
    ;;
kill)
    run --hosts h1:1,h2:2 --launcher local "$client" kill
    rc_is 137; err_has "rank 1 on host h2 killed by signal 9 (SIGKILL)"
    ;;
timeout) # the ranks need only start and reach the barrier before it: 5 s is ample on a busy machine
    run --hosts h1:1,h2:2 --launcher local --timeout 5 "$client" hang
    rc_is 124
    err_has "rank 0 on host h1 (pid"
    err_has "rank 2 on host h2 (pid"
    err_has "waiting in the PMI barrier"
    ;;
template) # the template's words run first, each {host} replaced; fd passes through env
    run --launcher-template 'env SKIFF_TEST_HOST={host} SKIFF_TEST_TWICE={host}-{host}' --hosts n1:1,n2:2 \
        --tag-output -x SKIFF_X=1 "$client" env
    rc_is 0
    out_has "[0] OK pmi rank 0 of 3"
    out_has "[2] OK pmi rank 2 of 3"
    out_has "[0] rank 0 env SKIFF_TEST_HOST=n1 "
    out_has "[2] rank 2 env SKIFF_TEST_HOST=n2 "
    out_has "[1] OK pmi rank 1 of 3"
    out_has "SKIFF_X=1"
    out_lacks "SKIFF_NODE_CPUS=(unset)"
    ;;
ssh) # a fake ssh on PATH runs the one command string here, from $HOME, in a bare environment
    mkdir "$tmp/bin" || exit 2
    printf '#!/bin/sh\nexec sh "%s" "$@"\n' "$here/fake_ssh.sh" >"$tmp/bin/ssh" && chmod +x "$tmp/bin/ssh" || exit 2
    dir=$tmp/work\ dir\'s
    mkdir "$dir" || exit 2
    PATH="$tmp/bin:$PATH"
    export PATH
    cd "$dir" || exit 2
    SKIFF_X=from-mpiexec
    export SKIFF_X
    run --hosts nodeA:1,nodeB:1 --pmi-host 127.0.0.1 -x SKIFF_X "$client" args "a b" "it's" '$HOME' '*'
    rc_is 0; ok_lines 2
    out_has "rank 1 arg1=[a b]"
    out_has "rank 1 arg2=[it's]"
    out_has "rank 1 arg3=[\$HOME]"
    out_has "rank 1 arg4=[*]"
    out_has "rank 0 cwd=$dir"
    run --hosts nodeA:1,nodeB:1 --pmi-host 127.0.0.1 -x SKIFF_X "$client" env
    rc_is 0
    out_has "rank 1 env SKIFF_TEST_HOST=nodeB SKIFF_NODE_CPUS=(unset) "
    out_has "PMI_PORT=127.0.0.1:"
    out_has "SKIFF_X=from-mpiexec"
    run --hosts nodeA:1,unreachable:1 --pmi-host 127.0.0.1 "$client" check
    rc_is 255; err_has "rank 1 on host unreachable exited with code 255 (255 is also ssh's code"
    # A template that starts with ssh is quoted like ssh.
    run --launcher-template 'ssh -o BatchMode=no {host}' --hosts nodeC:2 --pmi-host 127.0.0.1 "$client" args "x y"
    rc_is 0; out_has "rank 1 arg1=[x y]"
    ;;
killed) # mpiexec killed (SIGKILL, then SIGTERM): no rank survives, SIGTERM is passed on
    for sig in KILL TERM; do
        : >"$tmp/out"
        "$mpiexec" --hosts h1:1,h2:2 --launcher local "$client" hang >"$tmp/out" 2>"$tmp/err" &
        launcher=$!
        i=0
        while [ "$(grep -c ready "$tmp/out")" -lt 3 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
        kill -s $sig $launcher
        wait $launcher
        rc=$?
        last="mpiexec (killed with SIG$sig)"
        [ $sig = KILL ] || [ $rc -eq 143 ] || fail "exit code $rc after SIGTERM, expected 143"
        pids=$(sed -n 's/^rank [0-9]* pid \([0-9]*\) ready$/\1/p' "$tmp/out")
        [ -n "$pids" ] || fail "no rank reported its pid"
        i=0 # a busy machine may take a moment to tear the ranks down: poll for up to 20 s
        while [ $i -lt 200 ]; do
            alive=""
            for p in $pids; do
                if [ -r /proc/$p/stat ] && [ "$(awk '{print $3}' /proc/$p/stat 2>/dev/null)" != Z ]; then
                    alive="$alive $p"
                fi
            done
            [ -z "$alive" ] && break
            sleep 0.1
            i=$((i + 1))
        done
        [ -z "$alive" ] || fail "ranks$alive survived SIG$sig to mpiexec"
    done
    ;;
*)
    echo "unknown case $case_"
    exit 2
    ;;
esac
[ $failed -eq 0 ] && echo "OK launch $case_"
exit $failed
