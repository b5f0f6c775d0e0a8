// Asks the npm package hashring which server each key goes to
// (HashRing#get) and its first R distinct servers (HashRing#range). One
// JSON request per line: {"servers": {"host:port": weight, ...}, "keys":
// [...], "r": R}; reply {"nodes": [...], "ranges": [[...], ...]} (ranges of
// every tenth key). Run with NODE_PATH naming the node_modules holding
// hashring.
'use strict';
const HashRing = require('hashring');
const readline = require('readline');

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  const ring = new HashRing(req.servers);
  const nodes = req.keys.map((k) => ring.get(k));
  const ranges = [];
  for (let i = 0; i < req.keys.length; i += 10) ranges.push(ring.range(req.keys[i], req.r, true));
  process.stdout.write(JSON.stringify({ nodes, ranges }) + '\n');
});
