#!/usr/bin/env python3
"""check_map.py MODE JSON STDOUT [NODES]: checks what skiff-map wrote.

Every mode: the map has one place per rank, square matrices of that size, symmetric, blank diagonal,
positive latencies and bandwidths; the stdout summary lists pair classes whose pair counts add up to
n(n-1)/2. With NODES: the map has that many nodes; in mode twonodes (Hydra, blocks of two) the ranks
sit on the nodes Hydra gave them, and where inter-node pairs are clearly slower than intra-node ones
(not always so with 4 ranks on 2 cores), some class holds inter-node pairs only."""
import json, re, sys

mode, path, out = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
m = json.load(open(path))
n = m["ranks"]
fail = []
def check(cond, what):
    if not cond:
        fail.append(what)
check(len(m["places"]) == n, "one place per rank")
for key in ("latency_us", "bandwidth_GBps"):
    a = m[key]
    check(len(a) == n and all(len(r) == n for r in a), f"{key} is {n}x{n}")
    for i in range(n):
        check(a[i][i] is None, f"{key}[{i}][{i}] blank")
        for j in range(n):
            if i != j:
                check(a[i][j] is not None and a[i][j] > 0, f"{key}[{i}][{j}] > 0")
                check(a[i][j] == a[j][i], f"{key} symmetric at {i},{j}")
pairs = sum(int(c) for c in re.findall(r"class \d+: (\d+) pair", out))
check(pairs == n * (n - 1) // 2, f"classes cover {n*(n-1)//2} pairs (found {pairs})")
check(f"{n} ranks on" in out, "summary line")
if len(sys.argv) > 4:
    want = int(sys.argv[4])
    check(len(m["nodes"]) == want, f"{want} nodes (found {len(m['nodes'])})")
    node = [p["node"] for p in m["places"]]
    lat = m["latency_us"]
    inner = [lat[i][j] for i in range(n) for j in range(n) if i != j and node[i] == node[j]]
    outer = [lat[i][j] for i in range(n) for j in range(n) if node[i] != node[j]]
    if mode == "twonodes":
        # Hydra placed ranks in blocks of two: the map must show exactly that.
        check(node == [0, 0, 2, 2], f"nodes of the ranks {node}, want [0, 0, 2, 2]")
    if mode == "twonodes" and inner and outer:
        # Latency levels: with 4 ranks on 2 cores (and sanitizers) shared memory can be as slow as tcp,
        # so only where the levels are clearly apart must the classes find them.
        mo, mi = sorted(outer)[len(outer) // 2], sorted(inner)[len(inner) // 2]
        if mo > 2 * mi:
            check("all different nodes" in out, "a class of inter-node pairs")
if fail:
    print("FAIL:", "; ".join(fail))
    sys.exit(1)
print(f"OK skiff-map {mode}: {n} ranks, {len(m['nodes'])} node(s), {pairs} pairs classified")
