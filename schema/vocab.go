package schema

import (
	"regexp"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
)

// The scenario operations: the op column of movement, storm and
// replication results. A one-step fleet change is named by what it does
// instead (join, leave, reweight, join-2, reweight-5%-1-to-127, ...).
const (
	OpAdd          = "add"           // n -> n+1: one node joins
	OpAddMany      = "add-many"      // n -> m > n+1 (by default n -> 2n): m-n nodes join at once
	OpRemoveLast   = "remove-last"   // n -> m < n: the last n-m nodes leave at once (default m = n-1)
	OpRemoveRandom = "remove-random" // n -> n-1: a seeded random node leaves
	OpRestore      = "restore"       // n -> n-1 -> n: a seeded random node leaves and comes back to its old place
	OpShrinkRandom = "shrink-random" // n -> ceil(n/10), one seeded random node at a time
	OpShrinkLIFO   = "shrink-lifo"   // n -> ceil(n/10), the newest node first, one at a time
	OpChurn        = "churn"         // seeded joins and leaves
)

// Staged changes (a resize in steps, reported step by step; not -op
// values, since they need a target): their per-step rows carry the op
// with "-step" appended (grow-step), the whole change the op itself.
const (
	OpGrow   = "grow"   // n -> m > n, k nodes joining at a time
	OpShrink = "shrink" // n -> m < n, the last k nodes leaving at a time
)

// Ops returns the scenario operations, in a fixed order.
func Ops() []string {
	return []string{OpAdd, OpAddMany, OpRemoveLast, OpRemoveRandom, OpRestore, OpShrinkRandom, OpShrinkLIFO, OpChurn}
}

// The placement modes: the placement column.
//
// A ring, and anything built on one (bounded loads), is one random draw:
// its virtual nodes land where the hashes of the node IDs put them, so one
// ring has its own uneven shares, and a statistic measured on it speaks for
// that ring only. For such algorithms (catalog Info.RandomLayout) the
// per-set mode gives every key set its own independent layout, so means
// and intervals cover layouts and keys together: what a reader's own ring
// will do. The fixed mode keeps one layout (the given node IDs) for every
// key set: what this exact fleet does. Algorithms whose layout is not
// random (modulo, rendezvous, jump, slots) give the same results in both.
const (
	// PlacementPerSet: key set s is placed on the layout whose node IDs
	// are salted with "r<s>/" (set 0 on the given IDs).
	PlacementPerSet = "per-set"
	// PlacementFixed: every key set is placed on the given node IDs.
	PlacementFixed = "fixed"
)

// PlacementModes returns the placement modes.
func PlacementModes() []string { return []string{PlacementPerSet, PlacementFixed} }

// The three forms of consistent hashing with bounded loads (Mirrokni,
// Thorup, Zadimoghaddam, "Consistent Hashing with Bounded Loads", SODA
// 2018) that chbench measures, always named apart in the algo column of
// load.csv and boundedloads.csv: they bound different things.
const (
	// VariantPartition is the catalog algorithm "bounded" (package
	// algorithms/bounded): P fixed partitions are the balls, so a node's
	// partition count is bounded, not its keys or requests.
	VariantPartition = "bounded-partition"
	// VariantKey is the paper's rule on keys: the m keys, in a stated
	// order, each take the first node clockwise on the ring whose key count
	// is under ceil(c*m*w_i/W).
	VariantKey = "bounded-key"
	// VariantRequest is the rule as proxies run it on requests (HAProxy's
	// hash-balance-factor, Vimeo, Envoy): each request goes to the first
	// node clockwise whose in-flight count is under ceil(c*(T+1)*w_i/W),
	// T the requests in flight before it.
	VariantRequest = "bounded-request"
	// VariantRing is the plain ring the bounded-loads sweep starts from
	// (no bound).
	VariantRing = "ring"
)

// LoadPlacements returns the placements of request-load results: the
// catalog algorithms, then VariantKey and VariantRequest (the catalog's
// bounded is recorded as VariantPartition).
func LoadPlacements() []string { return append(catalog.Names(), VariantKey, VariantRequest) }

// BoundedVariants returns the forms of bounded-loads results, in order:
// the plain ring first (no bound), then the three forms of bounded loads.
func BoundedVariants() []string {
	return []string{VariantRing, VariantPartition, VariantKey, VariantRequest}
}

// IsOp reports whether op is an op chbench writes without being told its
// name: a scenario op ([Ops]), [OpGrow] or [OpShrink], a one-step fleet
// change named by what it does (join, leave, reweight or those joined by
// "+" in that order, as analysis.ChangeOp names them; join-<k>;
// leave-<percent>%; reweight-<percent>%-[<old weight>-]to-<new weight>),
// or any of these with "-step" appended (the per-step rows of a staged
// change). A fleet profile's changes carry the names the profile gives
// them, which only the profile knows: a reader holding the profile
// accepts those too.
func IsOp(op string) bool {
	op = strings.TrimSuffix(op, "-step")
	if slices.Contains(Ops(), op) || op == OpGrow || op == OpShrink {
		return true
	}
	if changeOp.MatchString(op) {
		return true
	}
	return generatedOp.MatchString(op)
}

// changeOp matches the ops of named one-step changes: join, leave and
// reweight, each at most once, joined by "+" in that order.
var changeOp = regexp.MustCompile(`^(join|leave|reweight|join\+leave|join\+reweight|leave\+reweight|join\+leave\+reweight)$`)

// generatedOp matches the ops of the fleet flags' generated changes; a
// number is written with strconv's 'g' format (analysis.labelNum).
var generatedOp = regexp.MustCompile(`^(join-[1-9][0-9]*|leave-` + labelNumber + `%|reweight-` + labelNumber + `%-(` + labelNumber + `-)?to-` + labelNumber + `)$`)

// labelNumber is a finite number > 0 as strconv.FormatFloat(x, 'g', 6, 64)
// writes it.
const labelNumber = `[0-9]+(\.[0-9]+)?(e[+-][0-9]+)?`

// IsPlacementMode reports whether s is one of [PlacementModes].
func IsPlacementMode(s string) bool { return slices.Contains(PlacementModes(), s) }
