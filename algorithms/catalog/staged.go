package catalog

// staged are algorithms registered here but not yet listed by [Names]:
// [Describe], [New], [Check], [Estimate] and [ParseNames] know them by
// name, so every analysis runs them when asked (-algo NAME), while
// "all", the README's generated table, the committed results and the
// golden outputs keep the listed set until they are regenerated with
// them. Moving an entry into infos lists it. None is staged now.
var staged []Info

// crushNodeBytes: per node the flat topology (member, domain name maps,
// indexes), a one-item host bucket, the root's item, the id maps of the
// layout and two validations (measured by TestCostBoundsAllocation).
const crushNodeBytes = 1536

// Staged returns the names of the registered algorithms that [Names]
// does not list yet, in a fixed order.
func Staged() []string {
	names := make([]string, len(staged))
	for i, in := range staged {
		names[i] = in.Name
	}
	return names
}
