"""Broken on purpose (join): a ring that caps its size at 1,600 points,
giving each node min(160, 1600 // n) points per unit of weight. Past 10
nodes a join takes points away from every node, so keys move between nodes
that were there before (about as many as move to the new node). Leaves
below the cap are clean. The fix is a point count per node that does not
depend on n.
"""
from serve import serve, position, ring, walk


def build(nodes, parent):
    per = min(160, 1600 // len(nodes))
    return ring([(position(n + b"#" + str(i).encode()), n) for n, w in nodes for i in range(max(1, round(per * w)))])


def owners(table, key, r):
    return walk(table, position(key), r)


serve("capped-ring", "weighted=yes leave=any ordered=no replicas=8", build, owners)
