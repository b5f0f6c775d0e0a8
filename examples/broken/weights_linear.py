"""Broken on purpose (weights): a weighted rendezvous that multiplies the
score by the weight (w * u) instead of the logarithmic method -w / ln(u).
With equal weights it is plain rendezvous and passes everything else; with
weights 1 to 4 the shares are far from w_i / W (a node of weight 4 takes
much more than four times a node of weight 1).
"""
from serve import serve, position


def build(nodes, parent):
    return nodes


def owners(nodes, key, r):
    ranked = sorted(nodes, key=lambda n: (-(n[1] * (position(n[0] + b"/" + key) + 1) / 2.0**64), n[0]))
    return [n for n, _ in ranked[:r]]


serve("linear-rendezvous", "weighted=yes leave=any ordered=no replicas=8", build, owners)
