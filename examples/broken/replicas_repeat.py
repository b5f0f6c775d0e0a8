"""Broken on purpose (replicas): a ring whose replicas are the next R
points clockwise, not the next R distinct nodes. Neighbouring points often
belong to one node, so a key's "three copies" sit on two nodes or one.
The fix is to skip nodes already chosen (examples/python/ring.py does).
"""
import bisect
from serve import serve, position, ring


def build(nodes, parent):
    return ring([(position(n + b"#" + str(i).encode()), n) for n, w in nodes for i in range(max(1, round(160 * w)))])


def owners(table, key, r):
    positions, nodes = table
    start = bisect.bisect_left(positions, position(key))
    return [nodes[(start + j) % len(nodes)] for j in range(r)]


serve("point-replicas-ring", "weighted=yes leave=any ordered=no replicas=8", build, owners)
