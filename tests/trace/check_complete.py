#!/usr/bin/env python3
"""Records PROGRAM (coll_mix: 30 iterations) at NP ranks under SKIFF_TRACE=1 and replays the trace: every rank
must reach MPI_Finalize in the model (the dependency graph the trace gives is complete), the replay must
see the nodes the run had, and with skiff-fan-like parameters of this host the prediction must be finite
and positive.

usage: check_complete.py MPIEXEC PROGRAM NP DIR SKIFF_REPLAY
With HOSTS set (tests/cluster/cluster.sh sets it), the ranks run on those emulated hosts and the trace must
record one node per host.
"""
import glob
import os
import re
import subprocess
import sys


def main():
    mpiexec, prog, np, d, replay = sys.argv[1:6]
    for f in glob.glob(os.path.join(d, "t.*")):
        os.unlink(f)
    env = dict(os.environ, SKIFF_TRACE="1", SKIFF_TRACE_FILE=os.path.join(d, "t"))
    hosts = os.environ.get("HOSTS")
    extra = ["--hosts", hosts, "--launcher-template", "ip netns exec {host}", "-x", "SKIFF_TRACE",
             "-x", "SKIFF_TRACE_FILE"] if hosts else []
    p = subprocess.run([mpiexec, *extra, "-n", np, "--timeout", "120", prog, "30", "2"], env=env,
                       capture_output=True, text=True, timeout=140)
    if p.returncode:
        sys.exit("FAIL: %s exited %d: %s" % (prog, p.returncode, p.stderr))
    q = subprocess.run([replay, os.path.join(d, "t"), "--intra", "0.2us,0.15us,0.06us,0.06ns", "--inter",
                        "20us,5us,2us,1ns"], capture_output=True, text=True, timeout=60)
    print(q.stdout, q.stderr)
    nodes = "2" if os.environ.get("SKIFF_NODE_SIZE") == "2" or hosts else "1"
    ok = q.returncode == 0 and "could not finish" not in q.stdout
    ok = ok and re.search(r"%s ranks on %s node\(s\)" % (np, nodes), q.stdout)
    m = re.search(r"predicted ([0-9.]+) s", q.stdout)
    ok = ok and m and float(m.group(1)) > 0
    if nodes == "2":
        ok = ok and re.search(r"between nodes [1-9]", q.stdout)
    print("OK replay complete" if ok else "FAIL: the replay did not complete as expected")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
