"""Broken on purpose (balance): a ring whose points are 64-bit positions
but whose keys are hashed to 32 bits. Every key then falls in the first
2^-32 of the ring, before the first point, and one node owns them all.
Joins and leaves still move only what they should. The fix is one width
for points and keys.
"""
from serve import serve, position, ring, walk


def build(nodes, parent):
    return ring([(position(n + b"#" + str(i).encode()), n) for n, _ in nodes for i in range(160)])


def owners(table, key, r):
    return walk(table, position(key, 4), r)


serve("mixed-width-ring", "weighted=no leave=any ordered=no replicas=8", build, owners)
