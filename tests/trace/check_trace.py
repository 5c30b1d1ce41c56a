#!/usr/bin/env python3
"""Runs tests/trace/trace_known.c under the tracer and checks its files record by record.

usage: check_trace.py MODE MPIEXEC PROGRAM NP DIR [REPLAY]
  counts     SKIFF_TRACE=1, SKIFF_TRACE_FILE=DIR/t: the calls, peers, sizes, tags, the collectives'
             messages (binomial broadcast) and the split communicator's members are what the program did
  mpiexec    mpiexec --trace: files skiff-trace.<16 hex digits>.<rank> in the working directory DIR
  off        SKIFF_TRACE unset (SKIFF_TRACE_FILE set): nothing written
  truncated  SKIFF_TRACE_RECORDS=20: each file holds at most 20 records, says it is truncated, marks the
             call where it filled; REPLAY (skiff-replay) still runs on it and says so
"""
import collections
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracefile as tf  # noqa: E402

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what)
    return cond


def run(mpiexec, prog, np, env, extra=()):
    e = dict(os.environ)
    e.update(env)
    p = subprocess.run([mpiexec, *extra, "-n", str(np), "--timeout", "60", prog], env=e, capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == 0, "program exit status %d: %s" % (p.returncode, p.stderr[-2000:]))
    return p


def binomial(rel, n):
    """The binomial broadcast's (parent rel or None, children rels in send order) for rel (0 = root)."""
    mask = 1
    parent = None
    while mask < n:
        if rel & mask:
            parent = rel - mask
            break
        mask <<= 1
    kids = []
    mask >>= 1
    while mask > 0:
        if rel + mask < n:
            kids.append(rel + mask)
        mask >>= 1
    return parent, kids


def msgs_of(inner):
    return [r for r in inner if r.kind in (tf.SEND, tf.RECV)]


def check_bcast(rank, call, inner, members, root, nbytes, what):
    n = len(members)
    me = members.index(rank)
    check(call.peer == root and call.bytes == nbytes,
          "%s on rank %d: root %d bytes %d in the CALL record, expected %d, %d" % (what, rank, call.peer, call.bytes,
                                                                                 root, nbytes))
    colls = [r for r in inner if r.kind == tf.COLL]
    if not check(len(colls) == 1, "%s on rank %d: %d COLL records, expected 1" % (what, rank, len(colls))):
        return
    coll = colls[0]
    check(coll.bytes == n and coll.peer == me, "%s on rank %d: COLL says size %d rank %d" % (what, rank, coll.bytes,
                                                                                         coll.peer))
    rel = (me - root + n) % n
    parent, kids = binomial(rel, n)
    want = []
    if parent is not None:
        want.append((tf.RECV, members[(parent + root) % n]))
    want += [(tf.SEND, members[(k + root) % n]) for k in kids]
    got = [(r.kind, r.peer) for r in msgs_of(inner)]
    check(got == want, "%s on rank %d: messages %s, the binomial tree has %s" % (what, rank, got, want))
    for r in msgs_of(inner):
        check(r.bytes == nbytes and r.tag == coll.tag and r.comm == coll.comm + 1,
              "%s on rank %d: message %r: bytes, tag or context not the schedule's" % (what, rank, r))
    dones = [r for r in inner if r.kind == tf.DONE]
    check(len(dones) == len(want), "%s on rank %d: %d DONE records for %d messages" % (what, rank, len(dones),
                                                                                    len(want)))


def check_counts(traces, np):
    for t in traces:
        r = t.rank
        check(t.size == np and t.flags == 0 and t.wall_ns > 0 and t.nnodes == 1 and t.node == 0,
              "rank %d: header size %d flags %d wall %d nodes %d node %d" % (r, t.size, t.flags, t.wall_ns, t.nnodes,
                                                                            t.node))
        calls = t.calls()
        names = collections.Counter(t.name(c) for c, _ in calls)
        want = collections.Counter({"MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Isend": 1, "MPI_Irecv": 1,
                                    "MPI_Waitall": 1, "MPI_Bcast": 2, "MPI_Barrier": 1, "MPI_Allreduce": 1,
                                    "MPI_Comm_split": 1, "MPI_Comm_free": 1, "MPI_Finalize": 1})
        if r == 0:
            want["MPI_Send"] = 5
        if r == 1:
            want["MPI_Recv"] = 5
        check(names == want, "rank %d: calls %s, expected %s" % (r, dict(names), dict(want)))
        last = 0
        for c, _ in calls:
            check(c.t <= c.x and c.t >= last, "rank %d: %s times %d..%d after %d" % (r, t.name(c), c.t, c.x, last))
            last = c.x
        check(t.name(calls[-1][0]) == "MPI_Finalize", "rank %d: the last call is not MPI_Finalize" % r)
        world = None
        for c, inner in calls:
            for x in inner:
                if x.kind == tf.COMM and x.comm == 0:
                    world = x
        if not check(world is not None and world.members == list(range(np)),
                     "rank %d: MPI_COMM_WORLD (context 0) announced with members %s" % (
                         r, world.members if world else None)):
            continue
        ids = {}
        for c, inner in calls:
            name = t.name(c)
            ms = msgs_of(inner)
            dones = [x for x in inner if x.kind == tf.DONE]
            if name == "MPI_Send":
                check(len(ms) == 1 and (ms[0].kind, ms[0].peer, ms[0].tag, ms[0].bytes, ms[0].comm) ==
                      (tf.SEND, 1, 7, 1000, 0) and c.bytes == 1000, "rank 0: MPI_Send records %s" % inner)
            elif name == "MPI_Recv":
                ok = len(ms) == 1 and (ms[0].kind, ms[0].peer, ms[0].tag, ms[0].bytes) == (tf.RECV, -1, -1, 1000)
                ok = ok and len(dones) == 1 and dones[0].flags & tf.F_RECV and (
                    dones[0].peer, dones[0].tag, dones[0].bytes, dones[0].x) == (0, 7, 1000, ms[0].x)
                check(ok, "rank 1: MPI_Recv records %s" % inner)
            elif name == "MPI_Isend":
                ok = len(ms) == 1 and (ms[0].kind, ms[0].peer, ms[0].tag, ms[0].bytes) == (tf.SEND, (r + 1) % np, 3, 64)
                check(ok and ms[0].x != 0, "rank %d: MPI_Isend records %s" % (r, inner))
                ids["isend"] = ms[0].x if ms else None
            elif name == "MPI_Irecv":
                ok = len(ms) == 1 and (ms[0].kind, ms[0].peer, ms[0].tag, ms[0].bytes) == (tf.RECV, (r - 1) % np, 3, 64)
                check(ok and ms[0].x != 0, "rank %d: MPI_Irecv records %s" % (r, inner))
                ids["irecv"] = ms[0].x if ms else None
            elif name == "MPI_Waitall":
                got = {d.x: d for d in dones}
                ok = set(got) == {ids.get("isend"), ids.get("irecv")}
                rd = got.get(ids.get("irecv"))
                ok = ok and rd is not None and rd.flags & tf.F_RECV and (rd.peer, rd.tag, rd.bytes) == ((r - 1) % np,
                                                                                                         3, 64)
                check(ok, "rank %d: MPI_Waitall's DONE records %s" % (r, dones))
            elif name == "MPI_Bcast" and c.bytes == 100:
                check_bcast(r, c, inner, list(range(np)), 1, 100, "MPI_Bcast(100 B, root 1, world)")
            elif name == "MPI_Bcast":
                comms = [x for x in inner if x.kind == tf.COMM]
                mine = [q for q in range(np) if q % 2 == r % 2]
                if not check(len(comms) == 1 and comms[0].members == mine and comms[0].peer == len(mine) and
                             comms[0].tag == mine.index(r),
                             "rank %d: the split communicator announced as %s, expected members %s" % (
                                 r, [(x.peer, x.members) for x in comms], mine)):
                    continue
                check_bcast(r, c, inner, mine, 0, 8, "MPI_Bcast(8 B, root 0, half)")
            elif name in ("MPI_Barrier", "MPI_Allreduce"):
                syncs = [x for x in inner if x.kind == tf.SYNC]
                colls = [x for x in inner if x.kind == tf.COLL]
                check((len(syncs) == 1 and syncs[0].peer == 1 and syncs[0].tag == np and not colls) or
                      (not syncs and colls and ms),
                      "rank %d: %s is neither one shared-memory SYNC nor a schedule: %s" % (r, name, inner))


def main():
    mode, mpiexec, prog, np, d = sys.argv[1:6]
    replay = sys.argv[6] if len(sys.argv) > 6 else None
    np = int(np)
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.unlink(f)
    prefix = os.path.join(d, "t")
    if mode == "counts":
        p = run(mpiexec, prog, np, {"SKIFF_TRACE": "1", "SKIFF_TRACE_FILE": prefix})
        check(re.search(r"skiff trace: .*t\.0 \.\.\. .*t\.%d" % (np - 1), p.stderr), "rank 0's stderr line: %s" %
              p.stderr)
        traces = [tf.Trace("%s.%d" % (prefix, r)) for r in range(np)]
        check_counts(traces, np)
    elif mode == "mpiexec":
        run(mpiexec, prog, np, {}, ["--trace"])
        files = sorted(os.listdir(d))
        check(len(files) == np and all(re.fullmatch(r"skiff-trace\.[0-9a-f]{16}\.\d+", f) for f in files),
              "mpiexec --trace wrote %s" % files)
        check(len({f.rsplit(".", 1)[0] for f in files}) == 1, "one prefix for the job's files: %s" % files)
    elif mode == "off":
        e = {k: v for k, v in os.environ.items() if k != "SKIFF_TRACE"}
        os.environ.clear()
        os.environ.update(e)
        run(mpiexec, prog, np, {"SKIFF_TRACE_FILE": prefix})
        check(not os.listdir(d), "written without SKIFF_TRACE: %s" % os.listdir(d))
    elif mode == "truncated":
        p = run(mpiexec, prog, np, {"SKIFF_TRACE": "1", "SKIFF_TRACE_FILE": prefix, "SKIFF_TRACE_RECORDS": "20"})
        check("TRUNCATED" in p.stderr, "no TRUNCATED on stderr: %s" % p.stderr)
        for r in range(np):
            t = tf.Trace("%s.%d" % (prefix, r))
            check(t.flags & tf.HEAD_TRUNCATED and t.nrecs <= 20 and t.max_recs == 20,
                  "rank %d: flags %d, %d records of %d" % (r, t.flags, t.nrecs, t.max_recs))
            marked = [c for c, _ in t.calls() if c.flags & tf.F_TRUNCATED]
            check(len(marked) == 1 and marked[0] is t.calls()[-1][0],
                  "rank %d: the call where the buffer filled is not the last one, marked: %s" % (r, marked))
        if replay:
            q = subprocess.run([replay, prefix, "--loggp", "1us,0.5us,0.5us,0.1ns"], capture_output=True, text=True,
                               timeout=60)
            check(q.returncode == 0 and "TRUNCATED" in q.stdout and "predicted" in q.stdout,
                  "skiff-replay on a truncated trace: status %d, %s %s" % (q.returncode, q.stdout, q.stderr))
    else:
        sys.exit("unknown mode " + mode)
    if FAILS:
        print("FAIL: %d checks failed" % len(FAILS))
        sys.exit(1)
    print("OK trace %s" % mode)


if __name__ == "__main__":
    main()
