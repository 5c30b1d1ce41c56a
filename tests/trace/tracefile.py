"""Reads and writes skiff trace files (src/core/trace_format.h; docs/trace.md), for the tests."""
import struct

MAGIC = b"SKTRACE1"
HEAD = struct.Struct("<8s6I7Q64s")  # magic, rank size node nnodes flags ncalls, nrecs max jobid wall start shm tcp, host
REC = struct.Struct("<BBHiiIQQQ")
MEMBERS = struct.Struct("<BBH9i")
assert HEAD.size == 152 and REC.size == 40 and MEMBERS.size == 40

CALL, SEND, RECV, DONE, COLL, SYNC, COMM, MEMBERS_KIND = range(1, 9)
F_RNDV, F_SYNC, F_RECV, F_NONBLOCKING, F_TRUNCATED = 1, 2, 4, 8, 16
HEAD_TRUNCATED = 1


class Rec:
    __slots__ = ("kind", "flags", "call", "peer", "tag", "comm", "t", "x", "bytes", "members")

    def __init__(self, kind, flags=0, call=0, peer=-1, tag=0, comm=0, t=0, x=0, nbytes=0):
        self.kind, self.flags, self.call, self.peer, self.tag = kind, flags, call, peer, tag
        self.comm, self.t, self.x, self.bytes = comm, t, x, nbytes
        self.members = None

    def __repr__(self):
        return "Rec(kind=%d flags=%d call=%d peer=%d tag=%d comm=%d t=%d x=%d bytes=%d)" % (
            self.kind, self.flags, self.call, self.peer, self.tag, self.comm, self.t, self.x, self.bytes)


class Trace:
    """One rank's file: head fields as attributes, recs (MEMBERS folded into their COMM's .members), names."""

    def __init__(self, path):
        data = open(path, "rb").read()
        (magic, self.rank, self.size, self.node, self.nnodes, self.flags, ncalls, nrecs, self.max_recs,
         self.jobid, self.wall_ns, self.start_ns, self.shm_eager, self.tcp_eager, host) = HEAD.unpack_from(data, 0)
        if magic != MAGIC:
            raise ValueError("%s: not a skiff trace" % path)
        self.host = host.rstrip(b"\0").decode()
        self.nrecs = nrecs
        self.recs = []
        off = HEAD.size
        comm = None
        for i in range(nrecs):
            kind = data[off]
            if kind == MEMBERS_KIND:
                f = MEMBERS.unpack_from(data, off)
                comm.members.extend(f[3:3 + f[1]])
            else:
                r = Rec(*REC.unpack_from(data, off))
                if kind == COMM:
                    r.members = []
                    comm = r
                self.recs.append(r)
            off += REC.size
        self.names = data[off:].split(b"\0")[:ncalls]
        self.names = [n.decode() for n in self.names]
        if len(self.names) != ncalls:
            raise ValueError("%s: %d call names, %d announced" % (path, len(self.names), ncalls))

    def name(self, rec):
        return self.names[rec.call]

    def calls(self):
        """[(CALL record, [records inside it])]"""
        out = []
        for r in self.recs:
            if r.kind == CALL:
                out.append((r, []))
            elif out:
                out[-1][1].append(r)
        return out


def write(path, rank, size, node, names, recs, nnodes=1, flags=0, shm_eager=16384, tcp_eager=65536, wall_ns=0,
          jobid=0x1234):
    """recs: Rec objects; a COMM's .members are written as MEMBERS records after it."""
    body = b""
    n = 0
    for r in recs:
        body += REC.pack(r.kind, r.flags, r.call, r.peer, r.tag, r.comm, r.t, r.x, r.bytes)
        n += 1
        if r.kind == COMM:
            m = list(r.members)
            for k in range(0, len(m), 9):
                part = m[k:k + 9]
                body += MEMBERS.pack(MEMBERS_KIND, len(part), 0, *(part + [0] * (9 - len(part))))
                n += 1
    head = HEAD.pack(MAGIC, rank, size, node, nnodes, flags, len(names), n, max(n, 1), jobid, wall_ns, 0,
                     shm_eager, tcp_eager, b"test")
    with open(path, "wb") as f:
        f.write(head + body + b"".join(x.encode() + b"\0" for x in names))
