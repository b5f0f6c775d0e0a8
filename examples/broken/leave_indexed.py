"""Broken on purpose (leave): a ring that names each node's points by the
node's position in the list ("3#17") instead of its ID. It honestly
declares ordered=yes, and a node appended at the end disturbs nobody; but
when a node other than the last leaves, every node after it moves down one
position and takes over another node's points, so keys move between nodes
that stay. The fix is points named by node ID.
"""
from serve import serve, position, ring, walk


def build(nodes, parent):
    return ring([(position(b"%d#%d" % (j, i)), n) for j, (n, w) in enumerate(nodes) for i in range(max(1, round(160 * w)))])


def owners(table, key, r):
    return walk(table, position(key), r)


serve("position-ring", "weighted=yes leave=any ordered=yes replicas=8", build, owners)
