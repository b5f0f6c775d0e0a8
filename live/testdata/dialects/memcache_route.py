# Asks python-memcached (memcache.py) which server each key goes to,
# without sending anything: Client._get_server picks the server and calls
# its connect(), which is replaced here by a check against a set of "down"
# servers. One JSON request per line: {"servers": [["127.0.0.1:PORT",
# weight], ...], "keys": [...], "chain": R}; reply {"servers": [[first R
# servers of each key's fallback order: each the server _get_server picks
# when the earlier ones are down; fewer when it gives up]]}.
import json
import sys

import memcache

down = set()
memcache._Host.connect = lambda self: 0 if (self.ip, self.port) in down else 1

for line in sys.stdin:
    req = json.loads(line)
    client = memcache.Client([tuple(s) for s in req["servers"]])
    out = []
    for key in req["keys"]:
        chain = []
        down.clear()
        for _ in range(req["chain"]):
            server, _ = client._get_server(client._encode_key(key))
            if server is None:
                break
            chain.append("%s:%d" % (server.ip, server.port))
            down.add((server.ip, server.port))
        out.append(chain)
    down.clear()
    print(json.dumps({"servers": out}), flush=True)
