#!/usr/bin/env python3
"""Runs a program under the built-in profiler and checks the report (tests/profile.cmake).

  check_profile.py counts  MPIEXEC PROG NP REPORT   SKIFF_PROFILE=1, SKIFF_PROFILE_FILE=REPORT: the
                                                    table is exactly what prof_calls.c does
  check_profile.py default MPIEXEC PROG NP          mpiexec --profile writes skiff-profile.<job>.txt
                                                    into the working directory
  check_profile.py off     MPIEXEC PROG NP          without SKIFF_PROFILE nothing is written
  check_profile.py pmpi    MPIEXEC PROG NP REPORT   pmpi_wrap.c's own MPI_Send etc. and the profiler
                                                    both see every call once
  check_profile.py threads MPIEXEC PROG NP REPORT   prof_threads.c: every call of every thread counted,
                                                    also of threads that exit before MPI_Finalize

Prints what it checked; exits 1 with "FAIL: ..." on the first mismatch.
"""
import glob
import os
import re
import subprocess
import sys

DEFAULT_NAME = re.compile(r"^skiff-profile\.[0-9a-f]{16}\.txt$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, env):
    print("running: " + " ".join(cmd))
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if p.returncode != 0:
        fail("exit status %d" % p.returncode)
    if "FAIL" in p.stdout:
        fail("the program reported a failure")
    return p.stdout, p.stderr


def clean_env():
    env = dict(os.environ)
    env.pop("SKIFF_PROFILE", None)
    env.pop("SKIFF_PROFILE_FILE", None)
    return env


# ---- the report ----------------------------------------------------------------------------------

def sections(text):
    """{title: [lines]} for every '== title ==' section."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^== (.*) ==$", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur is not None and line.strip():
            out[cur].append(line)
    return out


def section(secs, prefix):
    for title, lines in secs.items():
        if title.startswith(prefix):
            return lines
    fail("the report has no section '%s...'" % prefix)


def parse(path):
    with open(path) as f:
        text = f.read()
    secs = sections(text)
    r = {"text": text}

    lines = section(secs, "Time per rank")
    r["ranks"] = []
    for line in lines[1:]:
        w = line.split()
        if w[0].isdigit():
            r["ranks"].append({"rank": int(w[0]), "wall": float(w[1]), "mpi": float(w[2]), "pct": float(w[3]),
                               "compute": float(w[4]), "calls": int(w[5])})
        elif line.startswith("imbalance"):
            m = re.search(r"mpi ([0-9.]+) compute ([0-9.]+)", line)
            r["imbalance"] = (float(m.group(1)), float(m.group(2)))

    lines = section(secs, "Calls, all ranks")
    r["calls"] = {}
    for line in lines[1:]:
        w = line.split()
        r["calls"][w[0]] = {"calls": int(w[1]), "total": float(w[2]), "avg": float(w[3]), "min": float(w[4]),
                            "max": float(w[5]), "msgs": int(w[6]), "bytes": int(w[7]), "pct": float(w[8])}

    lines = section(secs, "The ")
    r["per_rank"] = {}
    for line in lines[1:]:
        w = line.split()
        r["per_rank"].setdefault(w[0], {})[int(w[1])] = int(w[2])

    lines = section(secs, "Message sizes")
    cols = lines[0].split()
    r["hist"] = {}
    for line in lines[1:]:
        w = line.split()
        r["hist"][w[0]] = dict(zip(cols[1:], (int(x) for x in w[1:])))
    return r


def expect_eq(what, got, want):
    if got != want:
        fail("%s: got %r, want %r" % (what, got, want))
    print("ok  %s = %r" % (what, got))


def check_common(r, np):
    """What any report must satisfy."""
    expect_eq("ranks in 'Time per rank'", [x["rank"] for x in r["ranks"]], list(range(np)))
    for x in r["ranks"]:
        if not (0.0 <= x["pct"] <= 100.0) or x["wall"] <= 0 or x["mpi"] > x["wall"] + 1e-6:
            fail("rank %d: wall %g s, mpi %g s, mpi %% %g" % (x["rank"], x["wall"], x["mpi"], x["pct"]))
    print("ok  every rank: wall > 0, 0 <= mpi % <= 100")
    if r["imbalance"][0] < 1.0 - 1e-9 or r["imbalance"][1] < 1.0 - 1e-9:
        fail("imbalance (max/avg) below 1: %r" % (r["imbalance"],))
    for name, c in r["calls"].items():
        if not (c["min"] <= c["avg"] + 1e-3 and c["avg"] <= c["max"] + 1e-3):
            fail("%s: min %g avg %g max %g" % (name, c["min"], c["avg"], c["max"]))
    for name, per in r["per_rank"].items():
        expect_eq("%s summed over the per-rank rows" % name, sum(per.values()), r["calls"][name]["calls"])
    all_msgs = sum(c["msgs"] for c in r["calls"].values())
    expect_eq("messages in the size histogram", sum(row["all"] for row in r["hist"].values()), all_msgs)


def check_summary(stderr, path, np):
    m = re.search(r"skiff profile: report in (\S+) \((\d+) ranks?", stderr)
    if not m:
        fail("no summary line naming the report on stderr")
    expect_eq("file named on stderr", os.path.abspath(m.group(1)), os.path.abspath(path))
    expect_eq("ranks named on stderr", int(m.group(2)), np)
    if not re.search(r"time in MPI over ranks: min [0-9.]+% avg [0-9.]+% max [0-9.]+%", stderr):
        fail("no 'time in MPI' summary line")
    if not re.search(r"top calls by time: MPI_\w+ ", stderr):
        fail("no 'top calls' summary line")
    print("ok  stderr summary")


# ---- prof_calls.c --------------------------------------------------------------------------------

def expected_calls(n):
    """call: (calls, messages, bytes) summed over n ranks, as prof_calls.c makes them."""
    once = {"calls": n, "msgs": 0, "bytes": 0}
    e = {name: dict(once) for name in ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Op_create",
                                       "MPI_Op_free", "MPI_Waitall", "MPI_Finalize")}
    e["MPI_Send"] = {"calls": 100, "msgs": 100, "bytes": 100 * 1024}
    e["MPI_Recv"] = {"calls": 100, "msgs": 100, "bytes": 100 * 1024}
    e["MPI_Barrier"] = {"calls": 10 * n, "msgs": 0, "bytes": 0}
    e["MPI_Allreduce"] = {"calls": 5 * n, "msgs": 5 * n, "bytes": 5 * n * 8}
    e["MPI_Sendrecv"] = {"calls": 3 * n, "msgs": 6 * n, "bytes": 3 * n * 32}
    e["MPI_Isend"] = {"calls": 4 * n, "msgs": 4 * n, "bytes": 4 * n * 8}
    e["MPI_Irecv"] = {"calls": 4 * n, "msgs": 4 * n, "bytes": 4 * n * 8}
    return e


def check_prof_calls(r, np, stdout):
    check_common(r, np)
    want = expected_calls(np)
    got = {name: {k: c[k] for k in ("calls", "msgs", "bytes")} for name, c in r["calls"].items()}
    for name in sorted(set(want) | set(got)):
        expect_eq(name + " (calls, messages, bytes)", got.get(name), want.get(name))
    nested = sum(int(m.group(1)) for m in re.finditer(r"^op_calls \d+ (\d+)$", stdout, re.M))
    if nested == 0:
        fail("the user op never ran, so the test of nested calls proved nothing")
    print("ok  MPI_Type_size called %d times inside MPI_Allreduce, not counted" % nested)
    h = r["hist"]
    expect_eq("1 KiB bucket", {k: h.get("1024-2047", {}).get(k) for k in ("MPI_Send", "MPI_Recv", "all")},
              {"MPI_Send": 100, "MPI_Recv": 100, "all": 200})
    expect_eq("8-byte bucket", {k: h.get("8-15", {}).get(k) for k in ("MPI_Allreduce", "MPI_Isend", "MPI_Irecv")},
              {"MPI_Allreduce": 5 * np, "MPI_Isend": 4 * np, "MPI_Irecv": 4 * np})
    expect_eq("16-byte bucket", h.get("16-31", {}).get("MPI_Sendrecv"), 6 * np)
    expect_eq("size ranges used", sorted(h), ["1024-2047", "16-31", "8-15"])
    expect_eq("calls per rank summed", sum(x["calls"] for x in r["ranks"]), sum(w["calls"] for w in want.values()))


# ---- modes ---------------------------------------------------------------------------------------

def mode_counts(mpiexec, prog, np, report):
    if os.path.exists(report):
        os.remove(report)
    env = clean_env()
    env["SKIFF_PROFILE"] = "1"
    env["SKIFF_PROFILE_FILE"] = report
    out, err = run([mpiexec, "-n", str(np), "--timeout", "90", prog], env)
    if not os.path.exists(report):
        fail("no report at " + report)
    check_prof_calls(parse(report), np, out)
    check_summary(err, report, np)


def mode_default(mpiexec, prog, np):
    for old in glob.glob("skiff-profile.*"):
        os.remove(old)
    out, err = run([mpiexec, "--profile", "-n", str(np), "--timeout", "90", prog], clean_env())
    files = [f for f in os.listdir(".") if f.startswith("skiff-profile.")]
    if len(files) != 1 or not DEFAULT_NAME.match(files[0]):
        fail("want one skiff-profile.<16 hex digits>.txt in %s, found %r" % (os.getcwd(), files))
    print("ok  mpiexec --profile wrote %s in the working directory" % files[0])
    check_prof_calls(parse(files[0]), np, out)
    check_summary(err, files[0], np)


def mode_off(mpiexec, prog, np):
    for old in glob.glob("skiff-profile.*") + glob.glob("off-report.txt"):
        os.remove(old)
    env = clean_env()
    env["SKIFF_PROFILE_FILE"] = os.path.abspath("off-report.txt") # set, but the profiler is off
    out, err = run([mpiexec, "-n", str(np), "--timeout", "90", prog], env)
    left = glob.glob("skiff-profile.*") + glob.glob("off-report.txt")
    if left:
        fail("the profiler is off but wrote %r" % left)
    if "skiff profile" in err:
        fail("the profiler is off but printed a summary")
    print("ok  no report, no summary without SKIFF_PROFILE")


def run_profiled(mpiexec, prog, np, report, finished):
    """Runs prog under SKIFF_PROFILE=1 into report; the parsed report (common checks done) and stderr."""
    if os.path.exists(report):
        os.remove(report)
    env = clean_env()
    env["SKIFF_PROFILE"] = "1"
    env["SKIFF_PROFILE_FILE"] = report
    out, err = run([mpiexec, "-n", str(np), "--timeout", "90", prog], env)
    if finished not in out:
        fail("the program did not finish")
    r = parse(report)
    check_common(r, np)
    return r, err


def mode_pmpi(mpiexec, prog, np, report):
    r, err = run_profiled(mpiexec, prog, np, report, "OK pmpi_wrap")
    for name, want in (("MPI_Send", 40 * (np - 1)), ("MPI_Recv", 40 * (np - 1)), ("MPI_Barrier", 3 * np),
                       ("MPI_Comm_rank", 2 * np), ("MPI_Comm_size", 2 * np)):
        expect_eq(name + " calls", r["calls"].get(name, {}).get("calls"), want)
    check_summary(err, report, np)


def mode_threads(mpiexec, prog, np, report):
    """prof_threads.c: four threads per rank, two of which exit before MPI_Finalize."""
    r, err = run_profiled(mpiexec, prog, np, report, "OK prof_threads")
    threads, rounds, ranks = 4, 100, 250
    calls = r["calls"]
    for name, want in (("MPI_Send", np * threads * rounds), ("MPI_Irecv", np * threads * rounds),
                       ("MPI_Wait", np * threads * rounds), ("MPI_Comm_rank", np * (threads * ranks + 1)),
                       ("MPI_Comm_dup", np * threads), ("MPI_Init_thread", np), ("MPI_Finalize", np)):
        expect_eq(name + " calls", calls.get(name, {}).get("calls"), want)
    expect_eq("MPI_Send bytes", calls["MPI_Send"]["bytes"], np * rounds * 8 * sum(range(1, threads + 1)))
    check_summary(err, report, np)


def main():
    if len(sys.argv) < 5:
        fail(__doc__)
    mode, mpiexec, prog, np = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if mode == "counts":
        mode_counts(mpiexec, prog, np, os.path.abspath(sys.argv[5]))
    elif mode == "default":
        mode_default(mpiexec, prog, np)
    elif mode == "off":
        mode_off(mpiexec, prog, np)
    elif mode == "threads":
        mode_threads(mpiexec, prog, np, os.path.abspath(sys.argv[5]))
    elif mode == "pmpi":
        mode_pmpi(mpiexec, prog, np, os.path.abspath(sys.argv[5]))
    else:
        fail("unknown mode " + mode)
    print("OK profile %s np=%d" % (mode, np))


if __name__ == "__main__":
    main()
