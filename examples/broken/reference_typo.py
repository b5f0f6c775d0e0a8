"""Broken on purpose (reference): jump consistent hash over FNV-1a 64 key
hashes, ported with a typo in the LCG multiplier (...757 became ...753).
The multiplier is still odd and 1 mod 4, so the generator keeps its full
period and the placement is consistent and balanced: every property holds
but agreement. It places almost every key differently from every other
jump implementation (chbench's jump with -hash fnv1a64, Guava,
examples/c/jump.c), which only a comparison with a reference shows.
"""
from serve import serve


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for c in data:
        h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def jump(key, n):
    b, j = -1, 0
    while j < n:
        b = j
        key = (key * 2862933555777941753 + 1) & 0xFFFFFFFFFFFFFFFF
        j = int((b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return b


def build(nodes, parent):
    return [n for n, _ in nodes]


def owners(nodes, key, r):
    return [nodes[jump(fnv1a64(key), len(nodes))]]


serve("typo-jump", "weighted=no leave=last ordered=yes", build, owners)
