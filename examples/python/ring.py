#!/usr/bin/env python3
"""A textbook consistent-hash ring speaking chbench's external placement
protocol, version 1 (docs/protocol.md). Standard library only.

Each node gets round(160 * weight) points (at least one) on a ring of 64-bit
positions. A point's position is the first 8 bytes, big-endian, of
MD5(node ID + b"#" + decimal point number); a key's position is the first 8
bytes of MD5(key). A key belongs to the node of the first point at or after
its position, wrapping around; its replicas are the next distinct nodes met
walking on.

Run it under chbench:
    bin/chbench conformance -algo 'exec:python3 examples/python/ring.py'
To test your own placement, copy this file and replace build() and owners().
"""
import bisect
import hashlib
import sys
from urllib.parse import quote_from_bytes, unquote_to_bytes

VNODES = 160
SAFE = "!\"#$&'()*+,/:;<=>?@[\\]^`{|}~"  # with -._~ and A-Za-z0-9: every byte 0x21..0x7E but %


def position(data):
    return int.from_bytes(hashlib.md5(data).digest()[:8], "big")


def build(nodes):
    """nodes: [(node ID bytes, weight)] -> the ring: sorted positions and their nodes."""
    points = sorted((position(node + b"#" + str(i).encode()), node)
                    for node, weight in nodes for i in range(max(1, round(VNODES * weight))))
    return [p for p, _ in points], [node for _, node in points]


def owners(ring, key, r):
    """The r distinct nodes that hold key, the owner first."""
    positions, nodes = ring
    start = bisect.bisect_left(positions, position(key))
    found = []
    for j in range(len(nodes)):
        node = nodes[(start + j) % len(nodes)]
        if node not in found:
            found.append(node)
            if len(found) == r:
                break
    return found


def serve(inp, out):
    rings = {}  # membership ID -> ring
    for line in inp:
        words = line.split()
        if words[0] == b"hello":
            out.write("ok 1 textbook-ring weighted=yes leave=any ordered=no replicas=8\n")
        elif words[0] == b"members":
            nodes = []
            for _ in range(int(words[3])):
                token, weight = inp.readline().split()
                nodes.append((unquote_to_bytes(token), float(weight)))
            rings[int(words[1])] = build(nodes)
            out.write("ok\n")
        elif words[0] == b"locate":
            ring, r = rings[int(words[1])], int(words[2])
            keys = [unquote_to_bytes(inp.readline()[:-1]) for _ in range(int(words[3]))]
            out.write("ok\n" + "".join(" ".join(quote_from_bytes(o, safe=SAFE) for o in owners(ring, key, r)) + "\n"
                                       for key in keys))
        elif words[0] == b"drop":
            rings.pop(int(words[1]), None)
            out.write("ok\n")
        else:
            out.write("error unknown request %r\n" % words[0])
        out.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout)
