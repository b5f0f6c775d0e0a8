package fleet

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// This file reads memberships outside a profile: a membership file (one
// node a line) and the node flags of the commands (-join id,weight,
// -reweight id=weight).

// ParseNodeWeight parses "id" or "id,weight" (weight 1 when absent). It
// returns an error naming s for an empty ID or a weight that is not a
// finite number > 0.
func ParseNodeWeight(s string) (algorithms.Node, error) {
	id, ws, hasW := strings.Cut(s, ",")
	n := algorithms.Node{ID: strings.TrimSpace(id), Weight: 1}
	if n.ID == "" {
		return n, fmt.Errorf("node %q: empty node ID", s)
	}
	if hasW {
		w, err := algorithms.ParseDecimal(ws)
		if err != nil {
			return n, fmt.Errorf("node %q: weight %q is not a number: %w", s, ws, err)
		}
		if err := algorithms.ValidateWeight(w); err != nil {
			return n, fmt.Errorf("node %q: %w", s, err)
		}
		n.Weight = w
	}
	return n, nil
}

// ParseReweight parses "id=weight", a member's new weight. It returns an
// error naming s when the "=" is missing, the ID is empty or the weight is
// not a finite number > 0.
func ParseReweight(s string) (algorithms.Node, error) {
	id, ws, ok := strings.Cut(s, "=")
	if !ok {
		return algorithms.Node{}, fmt.Errorf("reweight %q: want id=weight", s)
	}
	n := algorithms.Node{ID: strings.TrimSpace(id)}
	if n.ID == "" {
		return n, fmt.Errorf("reweight %q: empty node ID", s)
	}
	w, err := algorithms.ParseDecimal(ws)
	if err != nil {
		return n, fmt.Errorf("reweight %q: weight %q is not a number: %w", s, ws, err)
	}
	if err := algorithms.ValidateWeight(w); err != nil {
		return n, fmt.Errorf("reweight %q: %w", s, err)
	}
	n.Weight = w
	return n, nil
}

// ParseMembership reads a membership file from r (named name in errors):
// one node a line, "id" or "id,weight" (weight 1 when absent); blank lines
// and lines starting with "#" are skipped; a trailing "\r" is removed. It
// returns an error naming the line for a bad entry, and the membership
// errors of [algorithms.ValidateNodes] (no nodes, duplicate IDs, ...).
func ParseMembership(r io.Reader, name string) ([]algorithms.Node, error) {
	sc := bufio.NewScanner(r)
	var nodes []algorithms.Node
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if len(nodes) == algorithms.MaxNodes {
			return nil, fmt.Errorf("%s:%d: more than %d nodes", name, line, algorithms.MaxNodes)
		}
		n, err := ParseNodeWeight(t)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		nodes = append(nodes, n)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return nodes, nil
}

// ReadMembership is ParseMembership on the file at path.
func ReadMembership(path string) ([]algorithms.Node, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseMembership(f, path)
}
