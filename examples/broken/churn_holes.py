"""Broken on purpose (churn): a stateful jump hash in the manner of
MementoHash. Buckets are list positions; a node that leaves leaves a hole,
keys of a hole rehash until they find a live bucket, and a joining node
fills the latest hole. The bookkeeping has a bug: when the node of the last
bucket leaves, the bucket is removed but also recorded as a hole, so a
later join fills a bucket past the end and the program crashes
(IndexError). One join or one leave from a fresh membership is fine; random
joins and leaves find it, as fuzzing found a crash in MementoHash's
reference code (SUPSI java-consistent-hashing-algorithms#1).
"""
from serve import serve, position


def jump(key, n):
    b, j = -1, 0
    while j < n:
        b = j
        key = (key * 2862933555777941757 + 1) & 0xFFFFFFFFFFFFFFFF
        j = int((b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return b


def build(nodes, parent):
    ids = [n for n, _ in nodes]
    if parent is None:
        return ids, []
    slots, holes = list(parent[0]), list(parent[1])
    for gone in [s for s in slots if s is not None and s not in ids]:
        b = slots.index(gone)
        if b == len(slots) - 1:
            slots.pop()
        else:
            slots[b] = None
        holes.append(b)  # the bug: a popped last bucket is no hole
    for new in [i for i in ids if i not in slots]:
        if holes:
            slots[holes.pop()] = new
        else:
            slots.append(new)
    return slots, holes


def owners(table, key, r):
    slots = table[0]
    h = position(key)
    b = jump(h, len(slots))
    while slots[b] is None:
        h = (h * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF
        b = jump(h, len(slots))
    return [slots[b]]


serve("holey-jump", "weighted=no leave=any ordered=yes stateful=yes", build, owners)
