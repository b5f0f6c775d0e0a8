"""Broken on purpose (determinism): a weighted rendezvous that scores
node + "/" + key with Python's built-in hash(), which Python randomizes
per process for strings and bytes (PYTHONHASHSEED). Within one process every
lookup agrees, so a test that never restarts the program passes; after a
restart about 1 - 1/n of the keys have another owner. The fix is a hash
that is the same everywhere (hashlib.md5, as examples/python/ring.py uses).
"""
import math
from serve import serve


def build(nodes, parent):
    return nodes


def owners(nodes, key, r):
    def score(node):
        u = ((hash(node[0] + b"/" + key) & (2**61 - 1)) + 1) / (2**61 + 1)  # in (0, 1)
        return -node[1] / math.log(u)
    return [n[0] for n in sorted(nodes, key=score, reverse=True)[:r]]


serve("hash-rendezvous", "weighted=yes leave=any ordered=no replicas=8", build, owners)
