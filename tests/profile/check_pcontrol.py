#!/usr/bin/env python3
"""MPI_Pcontrol and the built-in profiler (tests/profile.cmake): runs pcontrol.c at NP ranks with
SKIFF_PROFILE=1 SKIFF_PROFILE_FILE=REPORT and checks the job's report and each rank's partial one
(REPORT.rank<R>.1) against what pcontrol.c did.

  check_pcontrol.py MPIEXEC PROG NP REPORT
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_profile as cp  # noqa: E402


def main():
    if len(sys.argv) != 5:
        cp.fail(__doc__)
    mpiexec, prog, np, report = sys.argv[1], sys.argv[2], int(sys.argv[3]), os.path.abspath(sys.argv[4])
    for f in [report] + ["%s.rank%d.1" % (report, r) for r in range(np)]:
        if os.path.exists(f):
            os.remove(f)
    env = cp.clean_env()
    env["SKIFF_PROFILE"] = "1"
    env["SKIFF_PROFILE_FILE"] = report
    out, err = cp.run([mpiexec, "-n", str(np), "--timeout", "90", prog], env)
    if "OK pcontrol" not in out:
        cp.fail("the program did not finish")
    r = cp.parse(report)
    cp.check_common(r, np)
    cp.expect_eq("MPI_Comm_size calls in the job's report", r["calls"].get("MPI_Comm_size", {}).get("calls"), 12 * np)
    cp.expect_eq("MPI_Pcontrol calls in the job's report", r["calls"].get("MPI_Pcontrol", {}).get("calls"), np)
    for rank in range(np):
        part = cp.parse("%s.rank%d.1" % (report, rank))
        cp.expect_eq("rank %d partial report: MPI_Comm_size calls" % rank,
                     part["calls"].get("MPI_Comm_size", {}).get("calls"), 7)
        cp.expect_eq("rank %d partial report: MPI_Pcontrol calls" % rank,
                     part["calls"].get("MPI_Pcontrol", {}).get("calls"), None)
        if "rank %d alone, partial report 1" % rank not in part["text"]:
            cp.fail("rank %d partial report does not say which rank and flush it is" % rank)
    # Without SKIFF_PROFILE every level is a no-op: no report, no partial files.
    os.remove(report)
    out, err = cp.run([mpiexec, "-n", str(np), "--timeout", "90", prog], cp.clean_env())
    if "OK pcontrol" not in out or os.path.exists(report) or os.path.exists(report + ".rank0.2"):
        cp.fail("with the profiler off, MPI_Pcontrol wrote something or the program failed")
    print("OK profile pcontrol np=%d" % np)


if __name__ == "__main__":
    main()
