package topology

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/chbench/chbench/algorithms"
)

// MaxFileBytes bounds a topology file (64 MiB: about a million nodes).
const MaxFileBytes = 64 << 20

// File is the TOML form of a topology (docs/topology.md), for
// github.com/BurntSushi/toml. A fleet profile embeds it as a table; [Read]
// decodes a file that holds only a topology.
//
//	levels = ["zone", "rack", "host"]   # outermost first; may be empty
//
//	[[node]]
//	id = "cache-a"
//	weight = 2                          # optional, default 1
//	domains = { zone = "eu-1a", rack = "r1", host = "h1" }
type File struct {
	Levels []string   `toml:"levels"`
	Nodes  []FileNode `toml:"node"`
}

// FileNode is one [[node]] table of a [File]. Weight nil means 1.
type FileNode struct {
	ID      string            `toml:"id"`
	Weight  *float64          `toml:"weight"`
	Domains map[string]string `toml:"domains"`
}

// Topology validates f and returns its topology. Errors name the node (by
// position, 0-based, and ID) and the bad value: a domain level missing
// from a node or not among the levels, and every error of [New].
func (f File) Topology() (*Topology, error) {
	if len(f.Nodes) == 0 {
		return nil, fmt.Errorf("topology: no [[node]] tables: %w", algorithms.ErrNoNodes)
	}
	if err := checkLevels(f.Levels); err != nil {
		return nil, err
	}
	members := make([]Member, len(f.Nodes))
	for i, n := range f.Nodes {
		w := 1.0
		if n.Weight != nil {
			w = *n.Weight
		}
		ds := make([]string, len(f.Levels))
		for l, level := range f.Levels {
			d, ok := n.Domains[level]
			if !ok {
				return nil, fmt.Errorf("topology: node %d (%q): no %s in its domains (levels: %s)", i, n.ID, level, strings.Join(f.Levels, ", "))
			}
			ds[l] = d
		}
		for _, k := range sortedKeys(n.Domains) {
			if !slices.Contains(f.Levels, k) {
				return nil, fmt.Errorf("topology: node %d (%q): domain level %q is not among the levels [%s]", i, n.ID, k, strings.Join(f.Levels, ", "))
			}
		}
		members[i] = Member{Node: algorithms.Node{ID: n.ID, Weight: w}, Domains: ds}
	}
	return New(f.Levels, members)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Read decodes a topology file (TOML, docs/topology.md) from r and
// validates it. name labels errors (the file name). It returns an error
// for a TOML syntax error (with its line), a key the format does not
// have, a value of the wrong type, a file over MaxFileBytes, and every
// error of [File.Topology].
func Read(r io.Reader, name string) (*Topology, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("topology %s: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("topology %s: larger than %d bytes", name, MaxFileBytes)
	}
	var f File
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("topology %s: line %d: %s", name, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("topology %s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("topology %s: unknown key %s (a topology has levels and [[node]] tables of id, weight, domains)", name, strings.Join(keys, ", "))
	}
	t, err := f.Topology()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// ReadFile is [Read] of the named file.
func ReadFile(path string) (*Topology, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("topology: %w", err)
	}
	defer fh.Close()
	return Read(fh, path)
}

// Encode writes t as a topology file that [Read] returns unchanged.
func (t *Topology) Encode(w io.Writer) error {
	f := File{Levels: t.levels}
	if f.Levels == nil {
		f.Levels = []string{}
	}
	for _, m := range t.Members() {
		wt := m.Node.Weight
		dm := make(map[string]string, len(m.Domains))
		for l, d := range m.Domains {
			dm[t.levels[l]] = d
		}
		f.Nodes = append(f.Nodes, FileNode{ID: m.Node.ID, Weight: &wt, Domains: dm})
	}
	return toml.NewEncoder(w).Encode(f)
}
