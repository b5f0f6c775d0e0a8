"""The protocol loop the broken examples share: chbench's external
placement protocol, version 1 (docs/protocol.md). A placement is
build(nodes, parent) -> table, nodes a list of (node ID bytes, weight) and
parent the table of the membership this one derives from (None when built
from nothing), and owners(table, key, r) -> the r node IDs (bytes) holding
key. examples/python/ring.py is a self-contained program of the same shape.
"""
import sys
from urllib.parse import quote_from_bytes, unquote_to_bytes

SAFE = "!\"#$&'()*+,/:;<=>?@[\\]^`{|}~"


def serve(name, facts, build, owners):
    inp, out = sys.stdin.buffer, sys.stdout
    tables = {}
    for line in inp:
        words = line.split()
        if words[0] == b"hello":
            out.write("ok 1 %s %s\n" % (name, facts))
        elif words[0] == b"members":
            nodes = []
            for _ in range(int(words[3])):
                token, weight = inp.readline().split()
                nodes.append((unquote_to_bytes(token), float(weight)))
            tables[int(words[1])] = build(nodes, tables.get(int(words[2])))
            out.write("ok\n")
        elif words[0] == b"locate":
            table, r = tables[int(words[1])], int(words[2])
            keys = [unquote_to_bytes(inp.readline()[:-1]) for _ in range(int(words[3]))]
            out.write("ok\n" + "".join(" ".join(quote_from_bytes(o, safe=SAFE) for o in owners(table, key, r)) + "\n"
                                       for key in keys))
        elif words[0] == b"drop":
            tables.pop(int(words[1]), None)
            out.write("ok\n")
        out.flush()


def position(data, nbytes=8):
    """The first nbytes of MD5(data), big-endian."""
    import hashlib
    return int.from_bytes(hashlib.md5(data).digest()[:nbytes], "big")


def ring(points):
    """points: [(position, node)] -> the ring (sorted positions, their nodes)."""
    points.sort()
    return [p for p, _ in points], [n for _, n in points]


def walk(ring, pos, r):
    """The first r distinct nodes at or after pos on the ring."""
    import bisect
    positions, nodes = ring
    start = bisect.bisect_left(positions, pos)
    found = []
    for j in range(len(nodes)):
        node = nodes[(start + j) % len(nodes)]
        if node not in found:
            found.append(node)
            if len(found) == r:
                break
    return found
