#!/usr/bin/env python3
"""Runs skiff-fan and checks what it wrote.

    check_fan.py NP DATAFILE [--png FILE] -- COMMAND...   run COMMAND (it must write DATAFILE), then check
    check_fan.py --selftest                               the checker must reject broken data files

Checks: exit status 0; one data line per P = 2..NP in order, five finite numbers, RTT > 0 and
min <= median, min <= avg; the LogP comment lines with o_s, o_r, g, G > 0 and L >= 0; every model value
equal to 4o + 2L + (P-1) max(g, o) from those parameters; the line "suggested SKIFF_BARRIER_N=k" with k in
2..8 in the file (and on stdout when the run was not silent); with --png, a PNG file.
"""
import math
import os
import re
import subprocess
import sys

PARAMS = ("rtt", "o_s", "o_r", "o", "g", "G", "L")
POSITIVE = ("rtt", "o_s", "o_r", "o", "g", "G")
BARRIER = re.compile(r"suggested SKIFF_BARRIER_N=(\d+)\b")


class Bad(Exception):
    pass


def number(text, what):
    try:
        v = float(text)
    except ValueError:
        raise Bad(f"{what}: '{text}' is not a number")
    if not math.isfinite(v):
        raise Bad(f"{what}: {v} is not finite")
    return v


def parse_params(comments):
    """The '# name value unit ...' lines of the LogP block."""
    params = {}
    for line in comments:
        words = line.lstrip("#").split()
        if len(words) >= 3 and words[0] in PARAMS and words[2] in ("us", "ns/byte"):
            params[words[0]] = number(words[1], f"parameter {words[0]}")
    missing = [p for p in PARAMS if p not in params]
    if missing:
        raise Bad(f"LogP lines missing: {', '.join(missing)}")
    for p in POSITIVE:
        if params[p] <= 0:
            raise Bad(f"{p} = {params[p]} must be > 0")
    if params["L"] < 0:
        raise Bad(f"L = {params['L']} must be >= 0 (clamped)")
    return params


def check_barrier(text, where):
    m = BARRIER.search(text)
    if not m:
        raise Bad(f"no 'suggested SKIFF_BARRIER_N=k' line in {where}")
    k = int(m.group(1))
    if not 2 <= k <= 8:
        raise Bad(f"suggested SKIFF_BARRIER_N={k} in {where} is outside 2..8")


def model(params, P):
    o = params["o"]
    return 4 * o + 2 * params["L"] + (P - 1) * max(params["g"], o)


def check_rows(rows, np, params):
    want = list(range(2, np + 1))
    got = [r[0] for r in rows]
    if got != want:
        raise Bad(f"data lines for P = {got}, want {want}")
    for P, mn, avg, med, mod in rows:
        if mn <= 0:
            raise Bad(f"P={P}: rtt_min {mn} must be > 0")
        if not (mn <= med * (1 + 1e-9) and mn <= avg * (1 + 1e-9)):
            raise Bad(f"P={P}: rtt_min {mn} above median {med} or average {avg}")
        want_model = model(params, P)
        # The file holds 4 decimals of every number; allow for that rounding.
        if abs(mod - want_model) > 0.002 + 0.01 * want_model:
            raise Bad(f"P={P}: model {mod} but 4o+2L+(P-1)max(g,o) from the parameters is {want_model:.4f}")


def check_data(text, np):
    comments = [l for l in text.splitlines() if l.startswith("#")]
    data = [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
    params = parse_params(comments)
    check_barrier("\n".join(comments), "the data file's comments")
    rows = []
    for line in data:
        cols = line.split()
        if len(cols) != 5:
            raise Bad(f"data line '{line}': want 5 columns 'P rtt_min rtt_avg rtt_median model'")
        vals = [number(c, f"data line '{line}'") for c in cols]
        rows.append((int(vals[0]),) + tuple(vals[1:]))
    check_rows(rows, np, params)
    return params


def run(argv):
    np, datafile, png = int(argv[0]), argv[1], None
    rest = argv[2:]
    if rest[:1] == ["--png"]:
        png, rest = rest[1], rest[2:]
    if rest[:1] != ["--"]:
        raise SystemExit("usage: check_fan.py NP DATAFILE [--png FILE] -- COMMAND...")
    cmd = rest[1:]
    for f in (datafile, png):
        if f and os.path.exists(f):
            os.remove(f)
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        raise Bad(f"exit status {p.returncode}")
    with open(datafile) as f:
        text = f.read()
    params = check_data(text, np)
    if "-q" not in cmd:
        check_barrier(p.stdout, "stdout")
    if png:
        with open(png, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                raise Bad(f"{png} is not a PNG file")
    shown = " ".join(f"{k}={params[k]}" for k in PARAMS)
    print(f"OK skiff-fan np={np}: {shown}")


GOOD = """# LogP parameters
# rtt 1.0000 us (x)
# o_s 0.1000 us (x)
# o_r 0.2000 us (x)
# o 0.1500 us (x)
# g 0.0500 us (x)
# G 0.02000 ns/byte (x)
# L 0.2000 us (x)
# suggested SKIFF_BARRIER_N=2 (x)
2 0.9000 1.1000 1.0000 1.1500
3 1.0000 1.2000 1.1000 1.3000
"""


def selftest():
    check_data(GOOD, 3)
    broken = {
        "a missing P": (GOOD.replace("3 1.0000 1.2000 1.1000 1.3000\n", ""), 3),
        "too few ranks listed": (GOOD, 4),
        "zero RTT": (GOOD.replace("2 0.9000", "2 0.0000"), 3),
        "min above median": (GOOD.replace("2 0.9000", "2 1.0500"), 3),
        "NaN": (GOOD.replace("1.2000 1.1000", "nan 1.1000"), 3),
        "four columns": (GOOD.replace(" 1.3000\n", "\n"), 3),
        "o_s zero": (GOOD.replace("o_s 0.1000", "o_s 0.0000"), 3),
        "G missing": (GOOD.replace("# G 0.02000 ns/byte (x)\n", ""), 3),
        "L negative": (GOOD.replace("L 0.2000", "L -0.1000"), 3),
        "model off": (GOOD.replace("1.1000 1.3000", "1.1000 2.3000"), 3),
        "no barrier line": (GOOD.replace("# suggested SKIFF_BARRIER_N=2 (x)\n", ""), 3),
        "barrier n out of range": (GOOD.replace("N=2", "N=9"), 3),
    }
    for what, (text, np) in broken.items():
        try:
            check_data(text, np)
        except Bad:
            continue
        raise Bad(f"selftest: the checker accepted a data file with {what}")
    print(f"OK check_fan selftest: accepts a good file, rejects {len(broken)} broken ones")


def main():
    try:
        selftest() if sys.argv[1:] == ["--selftest"] else run(sys.argv[1:])
    except Bad as e:
        print(f"FAIL: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
