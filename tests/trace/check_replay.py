#!/usr/bin/env python3
"""skiff-replay on hand-made traces whose predicted run time is worked out by hand below.

usage: check_replay.py SKIFF_REPLAY DIR

Times in microseconds; w = (s - 1) G, the wire time of an s-byte message.
  pingpong    k = 10 round trips of s = 1000 bytes, rank 0 computing c = 20 us before each send:
              k (c + 2 (2o + L + w)); the ranks on two nodes (--inter used), then --ppn 2 (--intra used)
  rendezvous  one 100000-byte send (above the tcp eager limit) whose receive is posted 50 us late:
              the receiver finishes at 50 + L (answer) + o + L + w (data) + o
  exchange    both ranks send 100000 bytes to each other and receive, then wait for both (a schedule's
              round): the answer to each request leaves when the receive is posted: 3o + 3L + w
  bcast       skiff's binomial broadcast of s = 1000 bytes at 4 ranks as the tracer records it (root sends
              to 2 then 1, 2 forwards to 3) with g > o: the second send waits for the gap, so rank 1 ends
              last at g + w + o + L + w + o
  local       rank 1 receives, then sends back 3 us later inside the same call (a collective reducing
              before it forwards): 2 (2o + L + w) + 3
  barrier     a shared-memory barrier of 4 ranks arriving after 10, 20, 30, 40 us of computation:
              40 + 2 ceil(log2 4) (o + L) with the within-node parameters
  sweep       --sweep L=1us..100us --points 3 on the ping-pong: the table's rows are the formula at
              L = 1, 10, 100 us for the class varied and the fixed value for the other
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracefile as tf  # noqa: E402
from tracefile import Rec  # noqa: E402

NAMES = ["MPI_Send", "MPI_Recv", "MPI_Bcast", "MPI_Barrier", "MPI_Finalize", "MPI_Sendrecv"]
SEND, RECV, BCAST, BARRIER, FINALIZE, SENDRECV = range(6)
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what)
    return cond


class Rank:
    """Builds one rank's records; the recorded clock advances by gap before each call, 1 us inside it
    (which the model replaces: every call here moves messages)."""

    def __init__(self):
        self.recs = []
        self.clock = 0
        self.ids = 0

    def call(self, name, gap_us=0.0, *inner):
        self.clock += int(round(gap_us * 1000))
        self.recs.append(Rec(tf.CALL, call=name, t=self.clock, x=self.clock + 1000))
        self.clock += 1000
        for r in inner:  # all recorded at the call's end: no local work inside the call
            if r.kind != tf.COMM:
                r.t = self.clock
        self.recs.extend(inner)

    def rid(self):
        self.ids += 1
        return (1 << 32) | self.ids


def send(peer, s, tag=0, comm=0, x=0, flags=0):
    return Rec(tf.SEND, flags=flags, peer=peer, tag=tag, comm=comm, x=x, nbytes=s)


def recv(peer, s, tag=0, comm=0, x=0):
    return Rec(tf.RECV, peer=peer, tag=tag, comm=comm, x=x, nbytes=s)


def done(x, peer=-1, s=0, tag=0, comm=0, is_recv=False):
    return Rec(tf.DONE, flags=tf.F_RECV if is_recv else 0, peer=peer, tag=tag, comm=comm, x=x, nbytes=s)


def blocking_recv(rk, peer, s, tag=0, comm=0):
    x = rk.rid()
    return [recv(peer, s, tag, comm, x), done(x, peer, s, tag, comm, True)]


def write(d, name, ranks, nodes, **kw):
    prefix = os.path.join(d, name)
    for r, rk in enumerate(ranks):
        rk.call(FINALIZE)
        tf.write("%s.%d" % (prefix, r), r, len(ranks), nodes[r], NAMES, rk.recs, nnodes=len(set(nodes)), **kw)
    return prefix


def replay(exe, prefix, *args):
    p = subprocess.run([exe, prefix, *args], capture_output=True, text=True, timeout=60)
    m = re.search(r"predicted ([0-9.]+) s", p.stdout)
    check(p.returncode == 0 and m, "skiff-replay %s %s: status %d\n%s%s" % (prefix, " ".join(args), p.returncode,
                                                                          p.stdout, p.stderr))
    return float(m.group(1)) * 1e6 if m else None, p.stdout


def near(got, want, what):
    check(got is not None and abs(got - want) < 0.002, "%s: predicted %s us, by hand %.4f us" % (what, got, want))


def main():
    exe, d = sys.argv[1:3]
    os.makedirs(d, exist_ok=True)
    L, o, g, G = 5.0, 1.0, 0.5, 0.01e-3  # us, us, us, us per byte (0.01 ns/B)
    good = "%gus,%gus,%gus,%gns" % (L, o, g, G * 1e3)
    bad = "100us,50us,50us,10ns"  # for the class that must not be used

    # ping-pong
    k, s, c = 10, 1000, 20.0
    r0, r1 = Rank(), Rank()
    for _ in range(k):
        r0.call(SEND, c, send(1, s))
        r0.call(RECV, 0, *blocking_recv(r0, 1, s))
        r1.call(RECV, 0, *blocking_recv(r1, 0, s))
        r1.call(SEND, 0, send(0, s))
    w = (s - 1) * G
    want = k * (c + 2 * (2 * o + L + w))
    pre = write(d, "pingpong", [r0, r1], [0, 1])
    near(replay(exe, pre, "--intra", bad, "--inter", good)[0], want, "ping-pong between nodes")
    near(replay(exe, pre, "--intra", good, "--inter", bad, "--ppn", "2")[0], want, "ping-pong within a node (--ppn 2)")
    near(replay(exe, pre, "--loggp", good + ",2")[0], want, "ping-pong, --loggp for both classes")

    # rendezvous
    s = 100000
    r0, r1 = Rank(), Rank()
    x = r0.rid()
    r0.call(SEND, 0, send(1, s, x=x, flags=tf.F_RNDV), done(x))
    r1.call(RECV, 50.0, *blocking_recv(r1, 0, s))
    w = (s - 1) * G
    want = 50 + L + o + L + w + o
    pre = write(d, "rendezvous", [r0, r1], [0, 1])
    near(replay(exe, pre, "--intra", bad, "--inter", good)[0], want, "rendezvous, receive posted late")

    # a rendezvous exchange (both ranks post a send and a receive, then wait for both, as a schedule's
    # round does): each answer goes out when the receive is posted, not when it is waited for
    s = 100000
    ranks = [Rank(), Rank()]
    for r, rk in enumerate(ranks):
        a, b = rk.rid(), rk.rid()
        rk.call(SENDRECV, 0, send(1 - r, s, x=a, flags=tf.F_RNDV), recv(1 - r, s, x=b), done(a),
                done(b, 1 - r, s, 0, 0, True))
    w = (s - 1) * G
    want = 3 * o + 3 * L + w
    pre = write(d, "exchange", ranks, [0, 1])
    near(replay(exe, pre, "--loggp", good)[0], want, "rendezvous exchange (no deadlock)")

    # binomial broadcast at 4 ranks, root 0, each rank on its own node
    s, Lb, ob, gb = 1000, 1.0, 1.0, 6.0
    params = "%gus,%gus,%gus,%gns" % (Lb, ob, gb, G * 1e3)
    ranks = [Rank() for _ in range(4)]
    tag = 5
    comm = tf.Rec(tf.COMM, peer=4, comm=0)
    comm.members = [0, 1, 2, 3]

    def coll(rank):
        return Rec(tf.COLL, peer=rank, tag=tag, comm=0, nbytes=4)
    a, b = ranks[0].rid(), ranks[0].rid()
    ranks[0].call(BCAST, 0, comm, coll(0), send(2, s, tag, 1, a), send(1, s, tag, 1, b), done(a), done(b))
    for r, parent, kids in ((1, 0, []), (2, 0, [3]), (3, 2, [])):
        rk = ranks[r]
        x = rk.rid()
        inner = [comm, coll(r), recv(parent, s, tag, 1, x), done(x, parent, s, tag, 1, True)]
        for kid in kids:
            y = rk.rid()
            inner += [send(kid, s, tag, 1, y), done(y)]
        rk.call(BCAST, 0, *inner)
    w = (s - 1) * G
    want = gb + w + ob + Lb + w + ob
    pre = write(d, "bcast", ranks, [0, 1, 2, 3])
    near(replay(exe, pre, "--intra", bad, "--inter", params)[0], want, "binomial broadcast with g > o")

    # local work inside a call: rank 1 receives, works 3 us (as recorded), then sends back in the same call
    s = 1000
    r0, r1 = Rank(), Rank()
    r0.call(SEND, 0, send(1, s))
    r0.call(RECV, 0, *blocking_recv(r0, 1, s))
    r1.call(SENDRECV, 0, *blocking_recv(r1, 0, s), send(0, s))
    call = r1.recs[-4]
    r1.recs[-3].t = r1.recs[-2].t = call.t          # posted and completed as the call began
    r1.recs[-1].t = call.x = call.t + 3000            # the send 3 us later, as the call ends
    w = (s - 1) * G
    want = 2 * (2 * o + L + w) + 3.0
    pre = write(d, "local", [r0, r1], [0, 1])
    near(replay(exe, pre, "--loggp", good)[0], want, "local work between a completion and the next send")

    # shared-memory barrier
    ranks = [Rank() for _ in range(4)]
    for r, rk in enumerate(ranks):
        rk.call(BARRIER, 10.0 * (r + 1), comm, Rec(tf.SYNC, peer=1, tag=4, comm=0))
    want = 40 + 2 * 2 * (o + L)
    pre = write(d, "barrier", ranks, [0, 0, 0, 0])
    near(replay(exe, pre, "--intra", good, "--inter", bad)[0], want, "shared-memory barrier")

    # sweep of L on the ping-pong (ranks on two nodes): intra varied changes nothing, inter varied follows L
    k, s, c = 10, 1000, 20.0
    pre = os.path.join(d, "pingpong")
    out = os.path.join(d, "sweep")
    p = subprocess.run([exe, pre, "--loggp", good, "--sweep", "L=1us..100us", "--points", "3", "-o", out],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, "sweep: status %d %s" % (p.returncode, p.stderr))
    rows = [list(map(float, ln.split())) for ln in open(out + ".dat") if ln.strip() and not ln.startswith("#")]
    w = (s - 1) * G
    check(len(rows) == 3, "sweep: %d rows, expected 3" % len(rows))
    for row, lv in zip(rows, (1.0, 10.0, 100.0)):
        fixed = k * (c + 2 * (2 * o + L + w))
        varied = k * (c + 2 * (2 * o + lv + w))
        check(abs(row[0] - lv) < 1e-6 and abs(row[1] * 1e6 - fixed) < 0.002 and abs(row[2] * 1e6 - varied) < 0.002,
              "sweep row %s: expected L %g, intra varied %.4f us, inter varied %.4f us" % (row, lv, fixed, varied))
    check(os.path.exists(out + ".gp") and "plot" in open(out + ".gp").read(), "sweep: no gnuplot script")

    if FAILS:
        print("FAIL: %d checks failed" % len(FAILS))
        sys.exit(1)
    print("OK replay")


if __name__ == "__main__":
    main()
