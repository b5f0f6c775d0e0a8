package algorithms

// Facts are the promises a placement makes about itself: the conformance
// suite checks each of them, and reports print them beside the placement's
// name. The catalog states them for chbench's own algorithms
// (catalog.Info.Facts); a placement in another process declares them in
// its handshake (docs/protocol.md); a registered Go placement states them
// in its catalog entry.
type Facts struct {
	// Weighted: the placement accepts weights other than 1 and gives node
	// i the share w_i/W of the keys (W the total weight). Without it,
	// memberships with unequal weights are refused.
	Weighted bool
	// Ordered: owners depend on the order the nodes are listed in (jump's
	// buckets are list positions). Without it, every order of the same
	// membership must give every key the same owner.
	Ordered bool
	// OnlyLastLeaves: only the last node of the list can leave without
	// moving keys between the nodes that stay (jump and the range hashes).
	// Without it, any node can leave, and only its keys move.
	OnlyLastLeaves bool
	// Replicas is the largest replication factor R the placement serves
	// (Locator.ReplicateKeys), 1 to MaxReplicas; 1 means owners only.
	Replicas int
	// Stateful: owners depend on the history of Rebalance calls, not only
	// on the membership (slots, bounded, anchor, memento, dx).
	Stateful bool
}
