# Routes keys through pylibmc (libmemcached) to the servers of each
# request, so that the recorder listening on them sees where each key went.
# One JSON request per line on stdin: {"servers": ["127.0.0.1:PORT", ...],
# "behaviors": {...}, "keys": [...]}; one JSON reply per line on stdout:
# {"behaviors": the client's behaviors as pylibmc reports them}.
import json
import sys

import pylibmc

for line in sys.stdin:
    req = json.loads(line)
    client = pylibmc.Client(req["servers"], behaviors=req["behaviors"])
    keys = [k.encode("utf-8") for k in req["keys"]]
    for i in range(0, len(keys), 100):
        client.get_multi(keys[i:i + 100])
    got = client.behaviors
    reply = {"behaviors": {k: got[k] for k in ("hash", "distribution", "ketama", "ketama_weighted")}}
    client.disconnect_all()
    print(json.dumps(reply), flush=True)
