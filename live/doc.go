// Package live runs real servers and clients nobody on this project wrote
// (Redis Cluster, memcached, twemproxy, and the clients and proxies of
// algorithms/dialect) on the loopback interface and speaks
// their wire protocols, so chbench's placements can be checked against
// what those servers actually do. Its tests are the checks:
//
//   - Redis: every key of a word list plus generated keys with braces in
//     every position get the same slot from [slots.KeySlot] as from
//     CLUSTER KEYSLOT; a 3-master cluster made by `redis-cli --cluster
//     create` routes each key (MOVED replies) to the node chbench's slots
//     names for the same slot table; after a fourth master joins and
//     `redis-cli --cluster rebalance --cluster-use-empty-masters`, the
//     slots Redis moved are compared with chbench's minimum migration.
//   - twemproxy: nutcracker with `distribution: ketama` and `hash: md5` in
//     front of several memcached instances stores each key on the instance
//     chbench's ketama continuum names, and after one instance leaves its
//     configuration, the keys that route elsewhere are exactly those
//     chbench's ketama moves.
//   - dialects (algorithms/dialect): pylibmc on libmemcached, nutcracker,
//     python-memcached, uhashring, npm's hashring under Node.js,
//     spymemcached from a Java program compiled by the test, nginx and
//     HAProxy in front of HTTP backends that answer with their port: each
//     routes the keys of a word list and generated ones, at 10 (weighted),
//     25 and 300 servers and after one leaves, to exactly the server the
//     dialect names (a [Recorder]'s listeners tell which server a key
//     reached); each dialect's vectors are recorded from the real system
//     (TestDialectVectors).
//
// Beyond the checks, [RunStorm] measures a cache miss storm live (chbench
// storm -live): a cache-aside client replays reads against one memcached
// per node before and after a membership change, counting hits per
// window.
//
// Everything is started by the code that needs it, on 127.0.0.1 and ports
// chosen free at start, with bounded waits, and stopped again (the whole
// process group) when the caller is done, also on failure. Addresses other
// than 127.0.0.1 are refused, so nothing is ever sent elsewhere.
//
// The servers come from Debian packages (redis-server, redis-tools,
// memcached, nutcracker, nginx, haproxy, python3-pylibmc, python3-memcache,
// python3-uhashring, libspymemcached-java with a JDK, nodejs and npm) and
// npm's hashring; .ci/run installs them. Without them the tests
// skip with a message naming what is missing, or fail when the CI
// environment variable is set.
package live
