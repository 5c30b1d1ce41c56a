#!/bin/sh
# slurm.sh COMMAND [ARGS...]: runs COMMAND with a private one-node Slurm cluster up (Debian's
# slurm-wlm and munge): munged, slurmctld and slurmd started here with a minimal slurm.conf in a
# scratch directory, SLURM_CONF exported for COMMAND, everything stopped and removed afterwards.
# Exits 77 (CTest's "skipped") without root or without the Slurm/munge programs.
set -u
skip() {
    echo "SKIP: $*"
    exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root to run slurmd"
for p in munged slurmctld slurmd srun; do
    command -v $p >/dev/null || [ -x /usr/sbin/$p ] || skip "needs $p (apt-get install slurm-wlm munge)"
done
[ -r /etc/munge/munge.key ] || skip "no /etc/munge/munge.key"

dir=$(mktemp -d "${TMPDIR:-/tmp}/skiff-slurm.XXXXXX")
pids=""
cleanup() {
    # Steps still running (a test that timed out) would leave slurmstepd behind: cancel them first,
    # in this private cluster only (SLURM_CONF points at it).
    [ -n "${SLURM_CONF:-}" ] && scancel --full --signal=KILL --user="$(id -un)" 2>/dev/null && sleep 0.5
    for p in $pids; do kill "$p" 2>/dev/null; done
    sleep 0.3
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

host=$(hostname)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
# Ports away from Slurm's defaults (a real Slurm on the machine is not disturbed) and below the kernel's
# ephemeral range, where any test's outgoing or port-0 socket may already hold one (seen: slurmd's
# "Address already in use" on 34620). write_conf ATTEMPT picks another pair for each attempt.
eph_lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
[ "$eph_lo" -gt 21000 ] 2>/dev/null || eph_lo=32768
write_conf() {
    base=$((20000 + ($$ + $1 * 7919) % (eph_lo - 20002)))
    cat >"$dir/slurm.conf" <<CONF
ClusterName=skiff
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=$base
SlurmdPort=$((base + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/linear
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
}
write_conf 0
export SLURM_CONF=$dir/slurm.conf
# Slurm's munge plugins talk to munged at its standard socket: use a munged already serving there,
# else start one for the test.
if ! munge -n >/dev/null 2>&1; then
    mkdir -p /run/munge
    /usr/sbin/munged --foreground --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed" \
        --log-file="$dir/munge/munged.log" --force >/dev/null 2>&1 &
    pids="$pids $!"
    i=0 # polled: a busy machine may take a while to start it
    until munge -n >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -le 300 ] || { echo "slurm.sh: munged did not start within 30 s"; cat "$dir/munge/munged.log"; exit 1; }
        sleep 0.1
    done
fi
sleep 0.5
daemons=""
start_daemons() {
    /usr/sbin/slurmctld -D -i -f "$dir/slurm.conf" >"$dir/slurmctld.out" 2>&1 &
    daemons="$!"
    /usr/sbin/slurmd -D -f "$dir/slurm.conf" >"$dir/slurmd.out" 2>&1 &
    daemons="$daemons $!"
    pids="$pids $daemons"
}
start_daemons
attempt=0
i=0 # polled for up to 40 s: a busy machine may take a while to start both daemons
until sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; do
    i=$((i + 1))
    # A port taken after all (by a socket of another program): start again on another pair, twice at most.
    if [ $attempt -lt 2 ] && grep -qs "Address already in use" "$dir"/slurmctld.out "$dir"/slurmd.out; then
        attempt=$((attempt + 1))
        echo "slurm.sh: port $base or $((base + 1)) is taken; starting again on other ports"
        for p in $daemons; do kill -9 "$p" 2>/dev/null; done
        for p in $daemons; do wait "$p" 2>/dev/null; done
        rm -rf "$dir/state" "$dir/spool" "$dir"/*.log "$dir"/*.out && mkdir -p "$dir/state" "$dir/spool"
        write_conf $attempt
        start_daemons
        i=0
    fi
    if [ $i -gt 200 ]; then
        echo "slurm.sh: the cluster did not come up within 40 s; logs:"
        tail -n 20 "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/*.out "$dir/munge/munged.log" 2>/dev/null
        exit 1
    fi
    sleep 0.2
done
# The command gets 90 s (CTest allows more): a job that hangs then explains itself instead of being
# killed silently by CTest.
timeout -k 5 90 "$@"
rc=$?
if [ $rc -eq 124 ]; then
    echo "slurm.sh: the command did not end within 90 s; the cluster's state:"
    squeue -a 2>&1 | head -20
    sinfo 2>&1 | head -5
    ps -eo pid,ppid,stat,etime,args | grep -E "srun|slurmstepd|faulty|mpitest|skiff" | grep -v grep | head -30
    tail -n 30 "$dir"/slurmctld.log "$dir"/slurmd.log 2>/dev/null
fi
exit $rc
