#!/usr/bin/env python3
"""Runs skiff-cg and checks its outcome.

    check_cg.py ok -- COMMAND...            skiff-cg --check: exit 0, "OK skiff-cg check", converged,
                                            true residual below the tolerance given with --tol (default
                                            1e-8), iteration counts of parallel and serial solve
                                            equal (within one)
    check_cg.py error TEXT -- COMMAND...    a bad input: nonzero exit, TEXT in stderr, no report
    check_cg.py --selftest                  the checker rejects broken reports

Prints "OK check_cg" on success, "FAIL check_cg: why" otherwise (and exits 1).
"""
import re
import subprocess
import sys


class Bad(Exception):
    pass


def check_ok(rc, out, err, tol):
    if rc != 0:
        raise Bad(f"exit status {rc}")
    if "OK skiff-cg check" not in out:
        raise Bad("no 'OK skiff-cg check' line")
    m = re.search(r"^iterations: (\d+) \((converged|NOT converged)\)$", out, re.M)
    if not m or m.group(2) != "converged":
        raise Bad("no 'iterations: N (converged)' line")
    m = re.search(r"^true residual \|\|b-Ax\|\|/\|\|b\|\|: (\S+)$", out, re.M)
    if not m or not float(m.group(1)) < tol:
        raise Bad(f"true residual missing or not below {tol}")
    m = re.search(r"^check: serial solve (\d+) iterations, .*; parallel (\d+);", out, re.M)
    if not m or abs(int(m.group(1)) - int(m.group(2))) > 1:
        raise Bad("serial and parallel iteration counts missing or too far apart")
    for field in ("spmv", "halo exchange", "reductions", "vector updates"):
        if not re.search(rf"^  {field}\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+%$", out, re.M):
            raise Bad(f"time line '{field}' missing")
    if not re.search(r"^GFLOP/s: [0-9.]+", out, re.M) or not re.search(r"^bytes moved: halo \d+ B", out, re.M):
        raise Bad("GFLOP/s or bytes moved missing")


def check_error(rc, out, err, text):
    if rc == 0:
        raise Bad("exit status 0 for a bad input")
    if text not in err:
        raise Bad(f"stderr lacks '{text}': {err.strip()[:300]}")
    if "iterations:" in out:
        raise Bad("a report was printed for a bad input")


SAMPLE = """iterations: 10 (converged)
true residual ||b-Ax||/||b||: 7.065e-16
time [s]          max-rank      mean   share
  solve           0.000018   0.000018  100.0%
  spmv            0.000003   0.000003   16.7%
  halo exchange   0.000000   0.000000    0.0%
  reductions      0.000002   0.000002   11.1%
  vector updates  0.000001   0.000001    5.6%
GFLOP/s: 0.9 (1e4 flops)
bytes moved: halo 0 B per SpMV, 0 B in the solve; memory (estimate) 1e5 B, 15.3 GB/s
check: serial solve 10 iterations, true residual 7e-16; parallel 10; ||x-x_serial||/||x_serial|| 0
OK skiff-cg check
"""


def selftest():
    check_ok(0, SAMPLE, "", 1e-8)
    broken = [
        (1, SAMPLE),
        (0, SAMPLE.replace("OK skiff-cg check", "FAIL skiff-cg check: x")),
        (0, SAMPLE.replace("(converged)", "(NOT converged)")),
        (0, SAMPLE.replace("7.065e-16", "1.2e-8")),
        (0, SAMPLE.replace("parallel 10", "parallel 14")),
        (0, SAMPLE.replace("  reductions", "  reduction")),
    ]
    for rc, out in broken:
        try:
            check_ok(rc, out, "", 1e-8)
        except Bad:
            continue
        raise Bad("a broken report passed: " + out[:80])
    check_error(1, "", "skiff-cg: f:1: bad", "f:1: bad")
    for rc, err in ((0, "skiff-cg: f:1: bad"), (1, "other")):
        try:
            check_error(rc, "", err, "f:1: bad")
        except Bad:
            continue
        raise Bad("a wrong error outcome passed")
    print("OK check_cg selftest")


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    sep = argv.index("--")
    mode, args, cmd = argv[1], argv[2:sep], argv[sep + 1:]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if mode == "ok":
        tol = float(cmd[cmd.index("--tol") + 1]) if "--tol" in cmd else 1e-8
        check_ok(p.returncode, p.stdout, p.stderr, tol)
    else:
        check_error(p.returncode, p.stdout, p.stderr, args[0])
    print("OK check_cg")


if __name__ == "__main__":
    try:
        main(sys.argv)
    except Bad as e:
        print(f"FAIL check_cg: {e}")
        sys.exit(1)
