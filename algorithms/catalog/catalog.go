// Package catalog is the registry of placement algorithms by name, with the
// configuration they share. The CLI, benchmarks, analyses and plots iterate
// [Names] and build placers with [New], so adding an algorithm is one
// package plus one entry here.
package catalog

import (
	"fmt"
	"math"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/jump"
	"github.com/chbench/chbench/algorithms/modulo"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/algorithms/slots"
)

// Config holds the parameters of every algorithm; each uses the fields it
// needs and ignores the rest.
type Config struct {
	Hash       string  // key hash name (algorithms.HashNames); "" = xxhash. Slots always use CRC-16 (Redis Cluster).
	VNodes     int     // ring and bounded: virtual nodes per unit of weight (>= 1)
	Eps        float64 // bounded: load factor c = 1 + Eps (> 0)
	Partitions int     // bounded: fixed partitions placed with bounded loads (>= 1)
}

// DefaultConfig returns the defaults: xxhash, 160 virtual nodes, eps 0.25,
// 16,384 partitions.
func DefaultConfig() Config {
	return Config{Hash: algorithms.DefaultHash, VNodes: ring.DefaultVNodes, Eps: bounded.DefaultEps, Partitions: bounded.DefaultPartitions}
}

// Validate checks every field, whichever algorithm will use it, and names
// the first bad value.
func (c Config) Validate() error {
	if _, err := algorithms.LookupHash(c.Hash); err != nil {
		return err
	}
	if c.VNodes < 1 {
		return fmt.Errorf("vnodes %d: need at least 1 virtual node per node", c.VNodes)
	}
	if math.IsNaN(c.Eps) || math.IsInf(c.Eps, 0) || c.Eps <= 0 {
		return fmt.Errorf("eps %v: the load factor c = 1 + eps needs a finite eps > 0", c.Eps)
	}
	if c.Partitions < 1 {
		return fmt.Errorf("partitions %d: need at least 1 partition", c.Partitions)
	}
	return nil
}

// Info describes an algorithm for documentation and reports.
type Info struct {
	Name    string
	Lookup  string // lookup cost
	Memory  string // memory per placement
	Removal string // which nodes may leave
	Weights string // weight support
	Ordered bool   // true if owners depend on the order nodes are listed in
	Source  string // paper or spec
}

var infos = []Info{
	{modulo.Name, "O(1)", "O(n)", "any (moves ~all keys)", "no", true, "hash mod n"},
	{ring.Name, "O(1) expected (top-bits index)", "~16 B per virtual node", "any", "vnode count = round(V*w)", false, "Karger et al. 1997"},
	{rendezvous.Name, "O(n)", "O(n)", "any", "logarithmic method -w/ln(u)", false, "Thaler & Ravishankar 1998"},
	{jump.Name, "O(ln n)", "O(n)", "last only; others by swap-last", "no", true, "Lamping & Veach 2014"},
	{slots.Name, "O(1)", "16,384-entry slot table", "any (slots migrate)", "floor/ceil of weighted share", true, "Redis Cluster spec"},
	{bounded.Name, "O(1) (partition table)", "partition table + ring", "any", "capacity ceil(c*m*w/W)", false, "Mirrokni, Thorup, Zadimoghaddam 2018"},
}

// Names returns the registered algorithm names in a fixed order.
func Names() []string {
	names := make([]string, len(infos))
	for i, in := range infos {
		names[i] = in.Name
	}
	return names
}

// Describe returns the Info of the named algorithm, or an error naming an
// unknown one.
func Describe(name string) (Info, error) {
	for _, in := range infos {
		if in.Name == name {
			return in, nil
		}
	}
	return Info{}, unknown(name)
}

func unknown(name string) error {
	return fmt.Errorf("unknown algorithm %q (known: %s)", name, strings.Join(Names(), ", "))
}

// ParseNames splits a comma-separated list of algorithm names, checking
// each; "all" selects every algorithm.
func ParseNames(s string) ([]string, error) {
	if s == "all" {
		return Names(), nil
	}
	var out []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if _, err := Describe(n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// New builds the named algorithm's placement of nodes with cfg. It returns
// an error for an unknown name, an invalid cfg or membership, or one the
// algorithm cannot place (weights where unsupported, more nodes than slots
// or partitions).
func New(name string, nodes []algorithms.Node, cfg Config) (algorithms.Placer, error) {
	if _, err := Describe(name); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	h := algorithms.MustHash(cfg.Hash)
	switch name {
	case modulo.Name:
		return placer(modulo.New(nodes, h))
	case ring.Name:
		return placer(ring.New(nodes, cfg.VNodes, h))
	case rendezvous.Name:
		return placer(rendezvous.New(nodes, h))
	case jump.Name:
		return placer(jump.New(nodes, h))
	case slots.Name:
		return placer(slots.New(nodes))
	default:
		return placer(bounded.New(nodes, cfg.VNodes, cfg.Eps, cfg.Partitions, h))
	}
}

// placer converts a constructor's concrete result to the interface, keeping
// a failed construction a true nil rather than an interface holding a nil
// pointer.
func placer[T algorithms.Placer](p T, err error) (algorithms.Placer, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}
