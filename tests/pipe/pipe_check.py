#!/usr/bin/env python3
"""Runs skiff-pipe in one configuration and checks what it wrote (tests/tool_pipe.cmake).

usage: pipe_check.py CASE --pipe BIN [--launch "CMD ARGS"] [--cc CC --src DIR] -- [skiff-pipe args]

cases:
  timing     MPI run under --launch: the data file (5 positive finite columns, 6 non-negative CPU
             columns, the flows' and workload's columns where asked for, the NetPIPE size
             schedule for the given --start/--end/--pert, min <= avg <= max) and the summary
             (latency, peak, N1/2 consistent with the data; the CPU, flows and overlap lines)
  memcpy     the same checks for --memcpy (no launcher, no MPI)
  tcp        a --tcp-server on an ephemeral port and a --tcp 127.0.0.1 client; the same checks
  integrity  --integrity: one line per size, zero failures, exit status 0
  corrupt    --integrity with SKIFF_PIPE_CORRUPT_TEST=1: every size fails, exit status non-zero
  plot       --plot after a run and the overlay mode: non-empty PNG files (77 = skipped without gnuplot)
  refused    an MPI run that must refuse to start (--cacheline without shared memory): a non-zero
             exit status and the tool's message naming the reason
  usage      bad options exit 2 with a message, --help lists every option
  peer       compiles tools/skiff_pipe*.c + tools/lib/*.c with --cc (77 if missing) with -Werror,
             then, if the --launch command exists, a timing and an integrity run of that build
"""
import argparse
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def run(cmd, env=None, timeout=300):
    print("+ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    sys.stdout.flush()
    return p


def parse_bytes(s):
    m = re.fullmatch(r"(\d+)([kKmMgG]?)(i?B)?", s)
    if not m:
        fail(f"test error: cannot parse size {s!r}")
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]


def option(args, name, default):
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return default


def expected_sizes(args):
    """NetPIPE's schedule, written out independently of tools/lib/measure.c. The one-sided
    atomics and the cache-line floor move 8 bytes only."""
    if any(m in args for m in ("--fop", "--cas", "--cacheline")):
        return [8]
    quick = "--quick" in args
    start = parse_bytes(option(args, "--start", "1"))
    end = parse_bytes(option(args, "--end", "1m" if quick else "8m"))
    pert = parse_bytes(option(args, "--pert", "3"))
    sizes, p = {end}, 1
    while p <= end:
        for b in ([p] if p == 1 else [p, p + p // 2]):
            sizes.add(b)
            if pert and b > pert:
                sizes.add(b - pert)
            if pert:
                sizes.add(b + pert)
        p *= 2
    return sorted(s for s in sizes if start <= s <= end)


def data_columns(args):
    """NetPIPE's 5, CPU per message for two sides (6), then the flows' 2 with --pairs/--pattern and
    the workload's 3 with --workload."""
    n = 11
    if "--pairs" in args or option(args, "--pattern", None):
        n += 2
    if option(args, "--workload", None):
        n += 3
    return n


def check_data(path, args, one_sided=False):
    if not os.path.exists(path):
        fail(f"no data file {path}")
    rows, ncols = [], data_columns(args)
    for i, line in enumerate(open(path), 1):
        f = line.split()
        if len(f) != ncols:
            fail(f"{path}:{i}: {len(f)} columns, want {ncols}: {line!r}")
        try:
            v = [float(x) for x in f]
        except ValueError:
            fail(f"{path}:{i}: not numbers: {line!r}")
        if not all(math.isfinite(x) for x in v):
            fail(f"{path}:{i}: every number must be finite: {line!r}")
        if not all(x > 0 for x in v[:5]):
            fail(f"{path}:{i}: size, throughput and time must be positive: {line!r}")
        if not v[2] <= v[1] <= v[3]:
            fail(f"{path}:{i}: want min <= avg <= max throughput: {line!r}")
        # CPU per message (user, system) and busy share, two sides: never negative, and some CPU
        # was spent by the side that leads. No bound from above: that would be a timing judgement.
        if any(x < 0 for x in v[5:11]):
            fail(f"{path}:{i}: CPU columns 6-11 must not be negative: {line!r}")
        if v[5] + v[6] <= 0 or v[7] <= 0:
            fail(f"{path}:{i}: rank 0 (or the ranks' mean) spent no CPU at all: {line!r}")
        if one_sided and any(x != 0 for x in v[8:11]):
            fail(f"{path}:{i}: --memcpy has no second side, columns 9-11 must be 0: {line!r}")
        if not one_sided and (v[8] + v[9] <= 0 or v[10] <= 0):
            fail(f"{path}:{i}: the second side's CPU columns are empty: {line!r}")
        extra = v[11:]
        if "--pairs" in args or option(args, "--pattern", None):
            if not all(x > 0 for x in extra[:2]):
                fail(f"{path}:{i}: per-flow throughput and slowest time must be positive: {line!r}")
            if extra[1] < v[4] * 0.999:
                fail(f"{path}:{i}: the slowest flow's time {extra[1]} is below the mean {v[4]}: {line!r}")
            extra = extra[2:]
        if extra and not (extra[0] > 0 and extra[1] > 0):
            fail(f"{path}:{i}: workload transfer and work times must be positive: {line!r}")
        rows.append(v)
    sizes = [int(r[0]) for r in rows]
    if any(b <= a for a, b in zip(sizes, sizes[1:])):
        fail(f"{path}: sizes not strictly increasing: {sizes}")
    want = expected_sizes(args)
    if sizes != want:
        fail(f"{path}: sizes {sizes}\n  want {want}")
    print(f"data file OK: {len(rows)} sizes {sizes[0]} .. {sizes[-1]}, {ncols} columns")
    return rows


def close(a, b, rel=0.01, absolute=0.0015):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), absolute)


def check_summary(out, rows):
    lat = re.search(r"^latency\s+([0-9.]+) us", out, re.M)
    peak = re.search(r"^peak\s+([0-9.]+) Gbit/s\s+at (\d+) B", out, re.M)
    half = re.search(r"^N1/2\s+(\d+) B", out, re.M)
    if not (lat and peak and half):
        fail("summary lines latency / peak / N1/2 missing")
    sizes, avg = [int(r[0]) for r in rows], [r[1] for r in rows]
    if not close(float(lat.group(1)), rows[0][4]):
        fail(f"latency {lat.group(1)} us is not the smallest size's time {rows[0][4]}")
    # The data file rounds what the tool compared at full precision: accept ties and borderlines
    # within that rounding.
    top = max(range(len(rows)), key=lambda i: avg[i])
    psize = int(peak.group(2))
    if psize not in sizes or not close(avg[sizes.index(psize)], avg[top]) or not close(float(peak.group(1)), avg[top]):
        fail(f"peak {peak.group(1)} at {peak.group(2)}, data says {avg[top]} at {sizes[top]}")
    n_half = int(half.group(1))
    if not sizes[0] <= n_half <= sizes[-1] or n_half not in sizes:
        fail(f"N1/2 {n_half} is not a measured size between {sizes[0]} and {sizes[-1]}")
    half_peak = float(peak.group(1)) / 2
    k = sizes.index(n_half)
    if avg[k] < half_peak * 0.99 or any(a >= half_peak * 1.01 for a in avg[:k]):
        first = next(s for s, a in zip(sizes, avg) if a >= half_peak)
        fail(f"N1/2 is {n_half}, but the first size reaching half the peak is {first}")
    print(f"summary OK: latency {lat.group(1)} us, peak {peak.group(1)} Gbit/s at {sizes[top]} B, N1/2 {n_half} B")


def check_more_summary(out, args):
    """The CPU lines (both sides), the flows line with --pairs/--pattern, the overlap line with --workload."""
    multi = "--pairs" in args or option(args, "--pattern", None)
    who = ["mean", "busiest"] if multi else ["rank 0", "rank 1"]
    for w in who:
        if not re.search(rf"^cpu {w}\s+\d+ B: user [0-9.]+ sys [0-9.]+ us, busy \d+%;", out, re.M):
            fail(f"summary: no 'cpu {w}' line")
    if multi and not re.search(r"^flows\s+\d+ at once; at \d+ B one moves [0-9.]+ Gbit/s", out, re.M):
        fail("summary: no 'flows' line")
    if option(args, "--workload", None) and not re.search(r"^overlap\s+-?[0-9.]+ %", out, re.M):
        fail("summary: no 'overlap' line")
    print("CPU" + (", flows" if multi else "") + (", overlap" if option(args, "--workload", None) else "") +
          " lines OK")


def mpi_cmd(a, extra):
    return shlex.split(a.launch) + [a.pipe] + extra


def case_timing(a, tmp):
    data = os.path.join(tmp, "np.out")
    p = run(mpi_cmd(a, ["-o", data] + a.args))
    if p.returncode != 0:
        fail(f"exit status {p.returncode}")
    check_summary(p.stdout, check_data(data, a.args))
    check_more_summary(p.stdout, a.args)


def case_memcpy(a, tmp):
    data = os.path.join(tmp, "np.out")
    p = run([a.pipe, "--memcpy", "-o", data] + a.args)
    if p.returncode != 0:
        fail(f"exit status {p.returncode}")
    check_summary(p.stdout, check_data(data, a.args, one_sided=True))


def case_tcp(a, tmp):
    data = os.path.join(tmp, "np.out")
    server = subprocess.Popen([a.pipe, "--tcp-server", "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        print(line, end="")
        m = re.search(r"listening on port (\d+)", line)
        if not m:
            fail("the server did not say its port")
        p = run([a.pipe, "--tcp", "127.0.0.1", "--port", m.group(1), "-o", data] + a.args)
        if p.returncode != 0:
            fail(f"client exit status {p.returncode}")
        check_summary(p.stdout, check_data(data, a.args))
        check_more_summary(p.stdout, a.args)
        if server.wait(timeout=30) != 0:
            fail(f"server exit status {server.returncode}")
    finally:
        if server.poll() is None:
            server.kill()


def integrity_lines(out, args):
    per = [tuple(map(int, m)) for m in re.findall(r"^\s*(\d+) B\s+(\d+) of (\d+) messages failed$", out, re.M)]
    total = re.search(r"^integrity: (\d+) of (\d+) messages failed, (\d+) sizes$", out, re.M)
    want = expected_sizes(args)
    if [s for s, _, _ in per] != want:
        fail(f"per-size lines for {[s for s, _, _ in per]}, want {want}")
    if not total or int(total.group(3)) != len(want) or int(total.group(1)) != sum(f for _, f, _ in per):
        fail("the integrity total line is missing or does not add up")
    return per, int(total.group(1))


def case_integrity(a, tmp):
    p = run(mpi_cmd(a, ["--integrity", "-o", os.path.join(tmp, "np.out")] + a.args))
    per, total = integrity_lines(p.stdout, a.args)
    if a.messages and any(n != a.messages for _, _, n in per):
        fail(f"messages checked per size {sorted(set(n for _, _, n in per))}, want {a.messages} "
             "(every flow of every repeat)")
    if total != 0 or p.returncode != 0:
        fail(f"{total} failures, exit status {p.returncode}: want 0 and 0")
    print(f"integrity OK: {len(per)} sizes, {sum(n for _, _, n in per)} messages checked")


def case_corrupt(a, tmp):
    env = dict(os.environ, SKIFF_PIPE_CORRUPT_TEST="1")
    p = run(mpi_cmd(a, ["--integrity", "-o", os.path.join(tmp, "np.out")] + a.args), env=env)
    per, total = integrity_lines(p.stdout, a.args)
    if any(f < 1 for _, f, _ in per):
        fail("a corrupted size was reported without failures")
    if p.returncode == 0:
        fail("integrity failures but exit status 0")
    if "expected 0x" not in p.stderr:
        fail("no note on stderr naming the bad byte")
    print(f"corruption detected: {total} failures, exit status {p.returncode}")


def check_png(path):
    if not os.path.exists(path) or os.path.getsize(path) < 1000:
        fail(f"{path} missing or nearly empty")
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail(f"{path} is not a PNG")
    print(f"{path}: PNG, {os.path.getsize(path)} bytes")


def case_plot(a, tmp):
    if not shutil.which("gnuplot"):
        print("SKIP: gnuplot is not installed")
        sys.exit(SKIP)
    data, png = os.path.join(tmp, "np.out"), os.path.join(tmp, "run.png")
    p = run(mpi_cmd(a, ["-o", data, "--plot", png] + a.args))
    if p.returncode != 0:
        fail(f"exit status {p.returncode}")
    check_png(png)
    copy, over = os.path.join(tmp, "copy.out"), os.path.join(tmp, "overlay.png")
    shutil.copy(data, copy)
    p = run([a.pipe, "--plot", over, "--plot-files", f"{data},{copy}", "--labels", "first,second"])
    if p.returncode != 0:
        fail(f"overlay exit status {p.returncode}")
    check_png(over)
    busy = os.path.join(tmp, "busy.png")
    p = run([a.pipe, "--plot", busy, "--plot-y", "8", "--plot-files", f"{data},{copy}"])
    if p.returncode != 0:
        fail(f"overlay of column 8 exit status {p.returncode}")
    check_png(busy)


USAGE_ERRORS = [
    (["--bogus"], "unknown option"),
    (["--end", "12q"], "bad value"),
    (["--start", "64k", "--end", "1k"], "--start"),
    (["--memcpy", "--bidir"], "--memcpy"),
    (["--stream", "--bidir"], "exclude"),
    (["--labels", "a"], "--labels"),
    (["--plot-files", "a.out"], "--plot"),
    (["--tcp", "localhost", "--integrity"], "--tcp"),
    (["--tcp-server", "--end", "1k"], "--tcp-server"),
    (["--put", "--get"], "exclude"),
    (["--fop", "--cacheline"], "exclude"),
    (["--nofence"], "--nofence goes with"),
    (["--fop", "--nofence"], "--nofence goes with"),
    (["--put", "--pairs"], "one pair"),
    (["--get", "--pattern", "ring"], "one pair"),
    (["--put", "--stream"], "one-sided"),
    (["--get", "--nocache"], "one-sided"),
    (["--put", "--roffset", "8"], "--roffset"),
    (["--memcpy", "--put"], "measure MPI"),
    (["--fop", "--end", "64"], "8 bytes"),
    (["--cacheline", "--integrity"], "--integrity"),
    (["--repeats"], "needs a value"),
    (["--pattern", "star"], "bad value"),
    (["--pairs", "--pattern", "ring"], "exclude"),
    (["--pattern", "ring", "--bidir"], "--pattern"),
    (["--pattern", "ring", "--nocache"], "--pattern"),
    (["--workload", "10"], "--workload needs"),
    (["--workload", "-1", "--bidir"], "bad value"),
    (["--workload", "soon", "--bidir"], "bad value"),
    (["--memcpy", "--pairs"], "--pairs"),
    (["--plot-y", "8"], "--plot-y"),
    (["--plot", "x.png", "--plot-y", "1"], "bad value"),
]
HELP_OPTIONS = ["--stream", "--bidir", "--integrity", "--nocache", "--async", "--pert", "--start", "--end",
                "--repeats", "--trials", "--quick", "--soffset", "--roffset", "-o FILE", "--plot ", "--plot-files",
                "--labels", "--silent", "--memcpy", "--tcp HOST", "--tcp-server", "--port", "--window", "--help",
                "--pairs", "--pattern P", "ring", "bisection", "alltoall", "neighbour2d", "--workload US",
                "--workload auto", "--plot-y", "--put", "--get", "--nofence", "--fop", "--cas", "--cacheline"]


def case_usage(a, tmp):
    for args, words in USAGE_ERRORS:
        p = run([a.pipe] + args)
        if p.returncode != 2 or words not in p.stderr:
            fail(f"{args}: exit {p.returncode}, want 2 with a message about {words!r}")
    p = run([a.pipe, "--help"])
    missing = [o for o in HELP_OPTIONS if o not in p.stdout]
    if p.returncode != 0 or missing:
        fail(f"--help: exit {p.returncode}, missing {missing}")
    print("usage OK")


def case_refused(a, tmp):
    p = run(mpi_cmd(a, ["-o", os.path.join(tmp, "np.out")] + a.args))
    if p.returncode == 0 or "skiff-pipe: --cacheline needs both ranks on one node" not in p.stderr:
        fail(f"exit status {p.returncode}: want non-zero with the tool's message about shared memory")
    print("refused OK")


def case_peer(a, tmp):
    if not shutil.which(a.cc):
        print(f"SKIP: {a.cc} is not installed")
        sys.exit(SKIP)
    srcs = sorted(os.path.join(a.src, f) for f in os.listdir(a.src) if re.fullmatch(r"skiff_pipe.*\.c", f))
    lib = os.path.join(a.src, "lib")
    srcs += sorted(os.path.join(lib, f) for f in os.listdir(lib) if f.endswith(".c"))
    exe = os.path.join(tmp, "skiff-pipe")
    p = run([a.cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-I" + lib] + srcs + ["-o", exe])
    if p.returncode != 0:
        fail(f"{a.cc} failed")
    launcher = shlex.split(a.launch)
    tool = next((w for w in launcher if w != "env" and "=" not in w), "")
    if not shutil.which(tool):
        print(f"built; {tool or 'no launcher'} not available, runs skipped")
        return
    a.pipe = exe
    a.args = ["-q", "--end", "16k", "--repeats", "20"]
    case_timing(a, tmp)
    a.args = ["--end", "64k"]
    case_integrity(a, tmp)
    # The new modes at the two ranks the launcher starts: one pair, a pattern, a workload.
    a.args = ["-q", "--pairs", "--bidir", "--workload", "2", "--end", "16k", "--repeats", "10", "--trials", "2"]
    case_timing(a, tmp)
    a.args = ["--pattern", "neighbour2d", "--end", "64k"]
    case_integrity(a, tmp)
    # The one-sided modes (issue 17): every transfer checked, and each mode once timed.
    for mode in (["--put"], ["--put", "--nofence"], ["--get"], ["--get", "--nofence"]):
        a.args = mode + ["--end", "256k"]
        case_integrity(a, tmp)
        a.args = ["-q", "--end", "16k", "--repeats", "10", "--trials", "2"] + mode
        case_timing(a, tmp)
    for mode in (["--fop"], ["--cas"]):
        a.args = mode
        case_integrity(a, tmp)
    for mode in (["--fop"], ["--cas"], ["--cacheline"]):
        a.args = ["-q", "--repeats", "100", "--trials", "2"] + mode
        case_timing(a, tmp)


CASES = {"timing": case_timing, "memcpy": case_memcpy, "tcp": case_tcp, "integrity": case_integrity,
         "corrupt": case_corrupt, "plot": case_plot, "usage": case_usage, "refused": case_refused, "peer": case_peer}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--pipe", help="the skiff-pipe binary")
    ap.add_argument("--launch", default="", help="launcher prefix for 2 ranks, one string")
    ap.add_argument("--cc", default="mpicc.mpich")
    ap.add_argument("--src", help="the tools/ directory (peer case)")
    ap.add_argument("--messages", type=int, default=0, help="integrity: messages each size must check")
    # Everything after "--" goes to skiff-pipe untouched (argparse would mix it with its own options).
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    a.args = argv[cut + 1:]
    with tempfile.TemporaryDirectory(prefix="skiff-pipe-test-") as tmp:
        CASES[a.case](a, tmp)
    print(f"OK {a.case}")


if __name__ == "__main__":
    main()
