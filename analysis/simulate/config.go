package simulate

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/schema"
)

// Capacity gives every node its memory in bytes: PerNode[id] when the
// map names the node, else PerWeight times its weight (rounded down).
// Both are the memory for keys, values and Config.ItemOverhead; a node
// whose capacity comes out below 1 byte is an error.
type Capacity struct {
	PerWeight float64          // bytes per unit of weight, >= 0
	PerNode   map[string]int64 // bytes by node ID, each >= 1
}

// of returns node n's capacity.
func (c Capacity) of(n algorithms.Node) int64 {
	if b, ok := c.PerNode[n.ID]; ok {
		return b
	}
	return int64(c.PerWeight * n.Weight)
}

// EventKind is a membership change.
type EventKind uint8

// The membership changes.
const (
	// Join adds Event.Node (ID and weight) with an empty cache of
	// Event.Capacity bytes (0: from Config.Capacity), after the current
	// members.
	Join EventKind = iota + 1
	// Leave removes the node: clients stop routing to it at once and its
	// cache is gone (a planned removal).
	Leave
	// Fail loses the node's cache at once; clients keep routing to it for
	// Event.Detect (every request it gets is a database read and fills
	// nothing), then drop it from the membership (a crash, noticed after a
	// failure detector's delay).
	Fail
	// Reweight gives the node weight Event.Node.Weight; its capacity
	// follows the weight when it comes from Capacity.PerWeight (a larger
	// machine), evicting least recently used items if it shrinks.
	Reweight
)

var kindNames = map[EventKind]string{Join: "join", Leave: "leave", Fail: "fail", Reweight: "reweight"}

func (k EventKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// Event is one membership change at time At after the first request.
type Event struct {
	At       time.Duration
	Kind     EventKind
	Node     algorithms.Node // the node (Weight: Join's weight, Reweight's new weight)
	Capacity int64           // Join: bytes, 0 = from Config.Capacity
	Detect   time.Duration   // Fail: how long clients keep routing to the dead node, >= 0
}

// Config is a fleet simulation (see [Run]).
type Config struct {
	Nodes    []algorithms.Node // the membership at the first request
	Capacity Capacity
	// Policy is the eviction policy of every cache: "lru" (the only one;
	// "" means lru).
	Policy string
	// Window is the length of the time series' windows, > 0.
	Window time.Duration
	Events []Event
	// Rate, if > 0, is the request rate in requests per second that sets
	// the clock: record i (0-based) arrives at i/Rate, whatever the
	// trace's times. It is required for traces without a clock.
	Rate float64
	// ItemOverhead is the bytes every cached item costs beyond its key
	// and value (memcached's item header and CAS: about 56), >= 0.
	ItemOverhead int64
	// NoFill leaves caches unfilled by misses: a get that misses reads
	// the database, and only the trace's own writes store values (for
	// traces that record the client's set after each miss). By default a
	// miss fills the cache, as a look-aside client does.
	NoFill bool
	// DefaultValueSize is the value size (bytes, >= 0) a miss fills with
	// when its request carries size 0 and no request with a size has been
	// seen yet; afterwards such fills take the mean value size of the
	// requests seen so far (a miss in Twitter's traces records size 0).
	DefaultValueSize int
	// Baseline is how many windows before an event its baseline miss
	// ratio is taken from (0 means 5).
	Baseline int
	// Workers bounds how many replays compute at once (< 1: GOMAXPROCS).
	// Results do not depend on it.
	Workers int
	// MaxItems, if > 0, bounds the items one replay's caches hold at
	// once: a replay that holds more after a chunk of requests fails with
	// an error naming the bound (memory is what the caches hold, about
	// ItemBytes per item, so a budget B allows B/ItemBytes/placements).
	// The check depends only on the replay, so it fails at the same
	// request for any number of workers.
	MaxItems int64
	// Memory is the run's budget (nil: memory.DefaultLimit), from which
	// every replay reserves its rows as it emits them (RowBytes per window
	// row, NodeRowBytes per node row), so that a window far too short for
	// the trace is an error naming the window, never more rows than the
	// budget holds.
	Memory *memory.Budget
}

// MaxRebuiltNodes bounds the work of a run's membership changes: every
// event rebuilds each placement on the members after it (Rebalance), and
// the members summed over the events may be at most 2^19 (524,288: 512
// events on 1,024 nodes; a ring of 160 virtual nodes rebuilds about
// 2 x 10^4 nodes a second, so such a run takes about 25 seconds per
// placement). More is refused before any work, instead of a run that does
// not end (a million joins rebuilt a million rings).
const MaxRebuiltNodes = 1 << 19

// checkRebuilds returns an error when the events of c rebuild more than
// MaxRebuiltNodes nodes in all, or make the membership pass
// algorithms.MaxNodes; it runs in O(events).
func (c Config) checkRebuilds() error {
	m, sum := int64(len(c.Nodes)), int64(0)
	for i, e := range c.Events {
		switch e.Kind {
		case Join:
			m++
		case Leave, Fail:
			m--
		}
		if m > algorithms.MaxNodes {
			return fmt.Errorf("simulate: event %d (%s %s): %d members, more than %d", i, e.Kind, e.Node.ID, m, algorithms.MaxNodes)
		}
		if sum += max(m, 0); sum > MaxRebuiltNodes {
			return fmt.Errorf("simulate: %d membership events from %d nodes rebuild every placement on more than %d nodes in all (the members after each event, summed; %d by event %d): give fewer events or nodes",
				len(c.Events), len(c.Nodes), MaxRebuiltNodes, sum, i)
		}
	}
	return nil
}

// RowBytes and NodeRowBytes are what a window row and a node row cost a
// run: the row as Run keeps it and as Outcome.Rows writes it.
const (
	RowBytes     = int64(unsafe.Sizeof(Window{}) + unsafe.Sizeof(schema.SimWindow{}))
	NodeRowBytes = int64(unsafe.Sizeof(NodeWindow{}) + unsafe.Sizeof(schema.SimNode{}))
)

// RowsNeed returns the bytes of the rows a run of span (the time from the
// first request to the last) holds with placements placements: per
// placement one row per window of the grid and per time an event cuts
// one (events at one time cut once; a failure's detection cuts again),
// each with a node row for every node that is a member then (at most the
// nodes ever members), or -1 when that overflows. It needs a valid c.
func (c Config) RowsNeed(span time.Duration, placements int) int64 {
	cuts := map[time.Duration]bool{}
	nodes := int64(len(c.Nodes))
	for _, e := range c.Events {
		cuts[e.At] = true
		if e.Kind == Fail {
			cuts[e.At+e.Detect] = true
		}
		if e.Kind == Join {
			nodes++
		}
	}
	windows := int64(span/c.Window) + 2 + int64(len(cuts))
	perWindow := memory.Mul(nodes, NodeRowBytes)
	if perWindow < 0 {
		return -1
	}
	return memory.Mul(memory.Mul(windows, perWindow+RowBytes), int64(placements))
}

// CheckRows returns the budget's error (c.Memory) when the rows of a run
// of span with placements placements ([Config.RowsNeed]) do not fit, naming
// the window: the check before the work of a run whose span is known.
func (c Config) CheckRows(span time.Duration, placements int) error {
	n := c.RowsNeed(span, placements)
	what := fmt.Sprintf("the time series of %d placement(s) over %v in windows of %v", placements, span, c.Window)
	if err := memory.OrDefault(c.Memory).Fits(what, n); err != nil {
		return fmt.Errorf("simulate: %w; or make the window longer", err)
	}
	return nil
}

// MaxItemOverhead bounds Config.ItemOverhead and SpreadOptions.ItemOverhead:
// 1 TiB per item. With the traces' key and value sizes (each at most 2^40
// bytes) an item's bytes stay below 2^42, so no sum of them a run forms
// (a cache's bytes, a node's bytes and request bytes) wraps around.
const MaxItemOverhead = 1 << 40

// CheckItemOverhead returns an error naming n unless 0 <= n <=
// MaxItemOverhead: the check of every per-item overhead (simulate,
// spread and load by bytes).
func CheckItemOverhead(n int64) error {
	if n < 0 || n > MaxItemOverhead {
		return fmt.Errorf("item overhead %d bytes: need 0 to %d (1 TiB)", n, int64(MaxItemOverhead))
	}
	return nil
}

// ItemBytes is about what one cached item costs a replay: its entry (32
// bytes) and at least two slots of the table, which is at most half full
// (16 bytes each).
const ItemBytes = 64

// MaxRows bounds the node rows of one run (windows x nodes x placements),
// so that a window far too short for a long trace is an error, not
// gigabytes of rows.
const MaxRows = 1 << 24

// Validate returns an error naming the first bad field or event: an
// invalid membership, a capacity below 1 byte or for a node that is never
// a member, an unknown policy, a
// window <= 0, a negative rate, overhead or default size, events out of
// time order, a join of a member, a leave, fail or reweight of a node not
// in the membership at that time, a membership left empty, or a bad
// weight.
func (c Config) Validate() error {
	if err := algorithms.ValidateNodes(c.Nodes); err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	if c.Policy != "" && c.Policy != "lru" {
		return fmt.Errorf("simulate: policy %q: known policies: lru", c.Policy)
	}
	if c.Window <= 0 {
		return fmt.Errorf("simulate: window %v: need > 0", c.Window)
	}
	if math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0) || c.Rate < 0 {
		return fmt.Errorf("simulate: rate %v: need a finite number of requests per second >= 0", c.Rate)
	}
	if err := CheckItemOverhead(c.ItemOverhead); err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	if c.DefaultValueSize < 0 || c.Baseline < 0 || c.MaxItems < 0 {
		return fmt.Errorf("simulate: default value size %d, baseline %d, item bound %d: need >= 0", c.DefaultValueSize, c.Baseline, c.MaxItems)
	}
	if math.IsNaN(c.Capacity.PerWeight) || math.IsInf(c.Capacity.PerWeight, 0) || c.Capacity.PerWeight < 0 {
		return fmt.Errorf("simulate: capacity per weight %v: need a finite number of bytes >= 0", c.Capacity.PerWeight)
	}
	if err := c.checkRebuilds(); err != nil {
		return err
	}
	members := slices.Clone(c.Nodes)
	known := map[string]bool{}
	for _, n := range c.Nodes {
		known[n.ID] = true
	}
	for _, e := range c.Events {
		known[e.Node.ID] = true
	}
	for id, b := range c.Capacity.PerNode {
		if !known[id] {
			return fmt.Errorf("simulate: capacity given for node %q, which is no member and joins in no event", id)
		}
		if b < 1 {
			return fmt.Errorf("simulate: node %q: capacity %d bytes: need at least 1", id, b)
		}
	}
	for _, n := range members {
		if b := c.Capacity.of(n); b < 1 {
			return fmt.Errorf("simulate: node %q: capacity %d bytes: need at least 1", n.ID, b)
		}
	}
	for i, e := range c.Events {
		if i > 0 && e.At < c.Events[i-1].At {
			return fmt.Errorf("simulate: event %d (%s %s at %v) comes before event %d at %v: list events in time order", i, e.Kind, e.Node.ID, e.At, i-1, c.Events[i-1].At)
		}
		if e.At < 0 || e.Detect < 0 {
			return fmt.Errorf("simulate: event %d: time %v and detection delay %v must be >= 0", i, e.At, e.Detect)
		}
		at := algorithms.IndexOf(members, e.Node.ID)
		switch e.Kind {
		case Join:
			if at >= 0 {
				return fmt.Errorf("simulate: event %d: join of %q, already a member at %v", i, e.Node.ID, e.At)
			}
			if e.Capacity < 0 || e.Capacity == 0 && c.Capacity.of(e.Node) < 1 {
				return fmt.Errorf("simulate: event %d: joining node %q has no capacity (give Event.Capacity or Capacity.PerWeight)", i, e.Node.ID)
			}
			members = append(members, e.Node)
		case Leave, Fail:
			if at < 0 {
				return fmt.Errorf("simulate: event %d: %s of %q, not a member at %v", i, e.Kind, e.Node.ID, e.At)
			}
			members = slices.Delete(members, at, at+1)
			if len(members) == 0 {
				return fmt.Errorf("simulate: event %d: %s of %q leaves no node", i, e.Kind, e.Node.ID)
			}
		case Reweight:
			if at < 0 {
				return fmt.Errorf("simulate: event %d: reweight of %q, not a member at %v", i, e.Node.ID, e.At)
			}
			members[at].Weight = e.Node.Weight
			if c.Capacity.of(members[at]) < 1 {
				return fmt.Errorf("simulate: event %d: node %q at weight %v has capacity below 1 byte", i, e.Node.ID, e.Node.Weight)
			}
		default:
			return fmt.Errorf("simulate: event %d: unknown kind %d", i, e.Kind)
		}
		if err := algorithms.ValidateNodes(members); err != nil {
			return fmt.Errorf("simulate: event %d (%s %s): %w", i, e.Kind, e.Node.ID, err)
		}
	}
	return nil
}

// ParseEvents reads a membership script: one event per line,
//
//	<time> join <id> [weight=W] [capacity=BYTES]
//	<time> leave <id>
//	<time> fail <id> [detect=DURATION]
//	<time> reweight <id> weight=W
//
// with times and durations in Go's notation (90s, 1m30s, 250ms) after the
// first request, weights in plain decimal (a join's defaults to 1) and
// capacities in bytes with an optional unit (B, KiB, MiB, GiB, TiB).
// Blank lines and lines starting with # are skipped. Errors name the line
// and the bad value; the events' consistency is Config.Validate's.
func ParseEvents(script string) ([]Event, error) {
	var out []Event
	sc := bufio.NewScanner(strings.NewReader(script))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("events line %d %q: want <time> <join|leave|fail|reweight> <node> [name=value ...]", n, line)
		}
		at, err := time.ParseDuration(f[0])
		if err != nil || at < 0 {
			return nil, fmt.Errorf("events line %d: time %q: want a duration >= 0 such as 90s or 1m30s", n, f[0])
		}
		e := Event{At: at, Node: algorithms.Node{ID: f[2], Weight: 1}}
		for k, name := range kindNames {
			if name == f[1] {
				e.Kind = k
			}
		}
		if e.Kind == 0 {
			return nil, fmt.Errorf("events line %d: action %q: want join, leave, fail or reweight", n, f[1])
		}
		weighted := false
		for _, opt := range f[3:] {
			name, val, ok := strings.Cut(opt, "=")
			switch {
			case ok && name == "weight" && (e.Kind == Join || e.Kind == Reweight):
				w, err := algorithms.ParseDecimal(val)
				if err == nil {
					err = algorithms.ValidateWeight(w)
				}
				if err != nil {
					return nil, fmt.Errorf("events line %d: weight %q: %v", n, val, err)
				}
				e.Node.Weight, weighted = w, true
			case ok && name == "capacity" && e.Kind == Join:
				b, err := ParseBytes(val)
				if err != nil || b < 1 {
					return nil, fmt.Errorf("events line %d: capacity %q: want bytes >= 1 with an optional unit (64MiB)", n, val)
				}
				e.Capacity = b
			case ok && name == "detect" && e.Kind == Fail:
				d, err := time.ParseDuration(val)
				if err != nil || d < 0 {
					return nil, fmt.Errorf("events line %d: detect %q: want a duration >= 0", n, val)
				}
				e.Detect = d
			default:
				return nil, fmt.Errorf("events line %d: option %q does not apply to %s", n, opt, e.Kind)
			}
		}
		if e.Kind == Reweight && !weighted {
			return nil, fmt.Errorf("events line %d: reweight of %s needs weight=W", n, e.Node.ID)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// ParseBytes parses a byte count in plain decimal with an optional binary
// unit (B, KiB, MiB, GiB, TiB): "64MiB", "1.5GiB", "500000". The result
// must fit an int64.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		sfx string
		m   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}} {
		if strings.HasSuffix(t, u.sfx) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.sfx)), u.m
			break
		}
	}
	v, err := algorithms.ParseDecimal(t)
	if err != nil || v < 0 || v*mult >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a size: give bytes in decimal with an optional unit B, KiB, MiB, GiB or TiB", s)
	}
	return int64(v * mult), nil
}

// String formats e as a line of ParseEvents' script.
func (e Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %s %s", e.At, e.Kind, e.Node.ID)
	switch e.Kind {
	case Join:
		b.WriteString(" weight=" + strconv.FormatFloat(e.Node.Weight, 'g', -1, 64))
		if e.Capacity > 0 {
			fmt.Fprintf(&b, " capacity=%d", e.Capacity)
		}
	case Reweight:
		b.WriteString(" weight=" + strconv.FormatFloat(e.Node.Weight, 'g', -1, 64))
	case Fail:
		if e.Detect > 0 {
			fmt.Fprintf(&b, " detect=%v", e.Detect)
		}
	}
	return b.String()
}
