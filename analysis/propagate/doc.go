// Package propagate measures membership in motion: a membership change
// reaches the clients of a fleet at different times, and while it
// propagates, old and new views route the same key to different servers.
//
// A [Model] states how one change reaches C clients over time, as data:
// [Instant] (all at once), [Linear] (a rollout over T seconds), [Push]
// (an independent delay per client from a [Delay] distribution), [Gossip]
// (SWIM-style push gossip with fan-out k and period p, simulated), and
// [Empirical] (measured delays, e.g. a real gossip spread). Each draws
// every client's learn delay from a seeded generator and states the
// expected informed fraction F(tau) as a [Curve].
//
// [Run] replays requests (a [Source] of [Stream]s: [Generated] uniform or
// Zipf keys with a seeded request stream, or a trace reader) from the C
// clients across one or more changes, through every algorithm's
// placements (via algorithms.Locator, batched), and counts per window and
// in total: requests routed by a stale view and those of them that reach
// a different server than the newest view would; for a cache-aside
// workload, misses caused by the other view, keys cached on two servers
// at once and stale reads; for a store, reads sent to a node that does not
// own the key yet or any more. Every count comes with a 95% interval over
// replays and, for routing and the store, with its analytic expectation
// (the moved fraction times the stale share of requests, integrated over
// the rollout).
//
// [Headline] is the scenario the report quotes: one join at 100 nodes,
// rolled out linearly over 30 seconds. [ExpectRedirects] models the MOVED
// and ASK redirects a Redis Cluster client sees while slots migrate, for
// comparison with a live resharding (package live).
//
// The model definitions and formulas are in docs/propagate.md.
package propagate
