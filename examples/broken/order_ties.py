"""Broken on purpose (order): a rendezvous whose scores are 12 bits wide,
with ties going to the node listed first (max() keeps the first maximum).
Scores tie often enough that reversing the node list changes the owner of
about one key in a thousand, while the placement claims ordered=no. The
fix is a wide score (64 bits) and, for the ties left, a tie-break on the
node ID rather than on its position (clohfink/RendezvousHash#1 broke ties
by insertion order).
"""
from serve import serve, position


def build(nodes, parent):
    return [n for n, _ in nodes]


def score(node, key):
    return position(node + b"/" + key, 2) >> 4


def owners(nodes, key, r):
    ranked = sorted(range(len(nodes)), key=lambda i: (-score(nodes[i], key), i))
    return [nodes[i] for i in ranked[:r]]


serve("narrow-rendezvous", "weighted=no leave=any ordered=no replicas=8", build, owners)
