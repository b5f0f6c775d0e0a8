# Asks uhashring which node each key goes to (HashRing.get_node) and its
# first R distinct nodes (HashRing.range). One JSON request per line:
# {"nodes": {"name": weight, ...} (insertion order kept), "ketama": bool,
# "keys": [...], "r": R}; reply {"nodes": [...], "ranges": [[...], ...]}.
import json
import sys

from uhashring import HashRing

for line in sys.stdin:
    req = json.loads(line)
    kwargs = {"hash_fn": "ketama"} if req["ketama"] else {}
    ring = HashRing(nodes=req["nodes"], **kwargs)
    nodes = [ring.get_node(k) for k in req["keys"]]
    ranges = [[n["nodename"] for n in ring.range(k, req["r"])] for k in req["keys"][::10]]
    print(json.dumps({"nodes": nodes, "ranges": ranges}), flush=True)
