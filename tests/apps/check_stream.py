#!/usr/bin/env python3
"""Runs skiff-stream -v and checks its report.

    check_stream.py NP -- COMMAND...   run COMMAND (skiff-stream -v on NP ranks), then check its stdout
    check_stream.py --selftest         the checker must reject broken reports

Checks: exit status 0; a per-rank line for every rank 0..NP-1 and every kernel (Copy, Scale, Add, Triad)
with a positive rate; the aggregate table with the four kernels, both columns positive; each kernel's
"sum of ranks" equal to the sum of the per-rank best rates within 1%, and the "slowest rank" rate not above
it (it cannot be: every rank's best time is at most the slowest rank's time in any run); the validation
lines "Solution Validates" and "validation passed".
"""
import math
import re
import subprocess
import sys
import time

KERNELS = ("Copy", "Scale", "Add", "Triad")
PER_RANK = re.compile(r"^\s*(\d+)\s+(Copy|Scale|Add|Triad):\s+(\S+)\s+\S+\s+\S+\s+\S+\s*$")
AGGREGATE = re.compile(r"^(Copy|Scale|Add|Triad):\s+(\S+)\s+(\S+)\s*$")


class Bad(Exception):
    pass


def rate(text, what):
    try:
        v = float(text)
    except ValueError:
        raise Bad(f"{what}: '{text}' is not a number")
    if not (math.isfinite(v) and v > 0):
        raise Bad(f"{what}: rate {text} is not positive and finite")
    return v


def parse(out):
    per_rank, agg = {}, {}
    for line in out.splitlines():
        m = PER_RANK.match(line)
        if m:
            per_rank[(int(m.group(1)), m.group(2))] = rate(m.group(3), f"rank {m.group(1)} {m.group(2)}")
            continue
        m = AGGREGATE.match(line)
        if m:
            k = m.group(1)
            agg[k] = (rate(m.group(2), f"aggregate {k} sum"), rate(m.group(3), f"aggregate {k} slowest"))
    return per_rank, agg


def check_report(out, np):
    per_rank, agg = parse(out)
    for k in KERNELS:
        for r in range(np):
            if (r, k) not in per_rank:
                raise Bad(f"no per-rank {k} line for rank {r} (run with -v)")
        if k not in agg:
            raise Bad(f"no aggregate line for {k}")
        total = sum(per_rank[(r, k)] for r in range(np))
        summed, slowest = agg[k]
        if abs(summed - total) > 0.01 * total:
            raise Bad(f"{k}: aggregate sum {summed} MB/s is not the sum of the per-rank rates ({total:.1f})")
        if slowest > summed * 1.01:
            raise Bad(f"{k}: slowest-rank rate {slowest} above the sum of ranks {summed}")
    extra = sorted({r for r, _ in per_rank if r >= np})
    if extra:
        raise Bad(f"per-rank lines for ranks {extra}, but the job has {np}")
    for want in ("Solution Validates", "validation passed"):
        if want not in out:
            raise Bad(f"no '{want}' line")
    if "FAILED" in out:
        raise Bad("the report says FAILED")
    return agg


def run(argv):
    if len(argv) < 3 or argv[1] != "--":
        raise SystemExit("usage: check_stream.py NP -- COMMAND...")
    np, cmd = int(argv[0]), argv[2:]
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    took = time.monotonic() - start
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        raise Bad(f"exit status {p.returncode}")
    agg = check_report(p.stdout, np)
    shown = ", ".join(f"{k} {agg[k][0]:.0f}" for k in KERNELS)
    print(f"OK skiff-stream np={np} in {took:.1f} s: sum-of-ranks MB/s {shown}")


GOOD = """rank Function    Best Rate MB/s  Avg time     Min time     Max time
   0 Copy:            10000.0     0.002207     0.000684     0.009615
   0 Scale:           10000.0     0.001276     0.000728     0.001548
   0 Add:             12000.0     0.001967     0.001421     0.002382
   0 Triad:           12000.0     0.002954     0.001452     0.005991
   1 Copy:            11000.0     0.003720     0.000843     0.013108
   1 Scale:           11000.0     0.002136     0.000759     0.009255
   1 Add:             13000.0     0.005275     0.001810     0.013410
   1 Triad:           13000.0     0.005684     0.002075     0.010192
Function    Sum-of-ranks MB/s  Slowest-rank MB/s
Copy:                 21000.0            20000.0
Scale:                21000.0            20000.0
Add:                  25000.0            24000.0
Triad:                25000.0            24000.0
Solution Validates: avg error less than 1.000000e-13 on all three arrays, on every rank
validation passed
"""


def selftest():
    check_report(GOOD, 2)
    broken = {
        "a rank missing": (GOOD, 3),
        "a kernel missing": (GOOD.replace("Triad:                25000.0            24000.0\n", ""), 2),
        "a zero rate": (GOOD.replace("0 Add:             12000.0", "0 Add:                 0.0"), 2),
        "a wrong sum": (GOOD.replace("Copy:                 21000.0", "Copy:                 23000.0"), 2),
        "slowest above sum": (GOOD.replace("20000.0", "22000.0", 1), 2),
        "no validation": (GOOD.replace("validation passed\n", ""), 2),
        "a failed validation": (GOOD.replace("validation passed", "validation FAILED on 1 of 2 ranks"), 2),
        "too many ranks": (GOOD, 1),
    }
    for what, (text, np) in broken.items():
        try:
            check_report(text, np)
        except Bad:
            continue
        raise Bad(f"selftest: the checker accepted a report with {what}")
    print(f"OK check_stream selftest: accepts a good report, rejects {len(broken)} broken ones")


def main():
    try:
        selftest() if sys.argv[1:] == ["--selftest"] else run(sys.argv[1:])
    except Bad as e:
        print(f"FAIL: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
