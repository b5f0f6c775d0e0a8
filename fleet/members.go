package fleet

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/lines"
	"github.com/chbench/chbench/memory"
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

// MaxMemberLineBytes is the longest line a members file may hold (a
// line of exactly this many bytes is read).
const MaxMemberLineBytes = 64 << 10

// memberBytes is what a node of a members file holds beside its ID's
// bytes: the algorithms.Node and its entries in the maps that validate
// and index a membership.
const memberBytes = 24 + 96

// ParseMembership reads a membership file from r (named name in errors)
// with the default memory budget: see [ReadMembership].
func ParseMembership(r io.Reader, name string) ([]algorithms.Node, error) {
	return parseMembership(r, name, nil)
}

// ReadMembership reads the members file at path (registered as an input
// of the command, internal/inputs) by the members file rule: a line is as
// package internal/lines reads it (a "\r\n" end and a UTF-8 byte-order
// mark at the start of the file are not part of it; at most
// MaxMemberLineBytes bytes); "#" at the start of a line or after a space
// or tab begins a comment that runs to the end of the line ("a # c" is
// the node a; "a#1" is the node a#1); what is left, trimmed of white
// space, is a node, "id" or "id,weight" (weight 1 when absent), or
// nothing (a blank line). Each node's ID obeys
// [algorithms.ValidateNodes]' rule (plain text: valid UTF-8 without
// control or invisible format characters). The nodes' bytes are reserved
// from mem (nil: the default budget). It returns an error naming the
// file and line for a bad entry or a line too long, the membership errors
// of ValidateNodes (no nodes, duplicate IDs, ...), and the budget's error.
func ReadMembership(path string, mem *memory.Budget) ([]algorithms.Node, error) {
	f, err := inputs.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMembership(f, path, mem)
}

func parseMembership(r io.Reader, name string, mem *memory.Budget) ([]algorithms.Node, error) {
	mem = memory.OrDefault(mem)
	var nodes []algorithms.Node
	var held int64
	err := lines.Scan(r, name, "a members file", MaxMemberLineBytes, func(b []byte, line int) error {
		tb := bytes.TrimSpace(stripComment(b))
		if len(tb) == 0 {
			return nil
		}
		if len(nodes) == algorithms.MaxNodes {
			return fmt.Errorf("%s:%d: more than %d nodes", name, line, algorithms.MaxNodes)
		}
		if err := mem.Reserve(fmt.Sprintf("members file %s: %d nodes so far", name, len(nodes)+1), int64(len(tb))+memberBytes); err != nil {
			return err
		}
		held += int64(len(tb)) + memberBytes
		n, err := ParseNodeWeight(string(tb)) // the one copy of the line: the node's ID is part of it
		if err == nil {
			err = algorithms.ValidateID(n.ID)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		nodes = append(nodes, n)
		return nil
	})
	if err == nil {
		err = algorithms.ValidateNodes(nodes)
		if err != nil {
			err = fmt.Errorf("%s: %w", name, err)
		}
	}
	if err != nil {
		mem.Release(held)
		return nil, err
	}
	return nodes, nil
}

// stripComment returns line without its comment: from a "#" at the start
// or after a space or tab to the end.
func stripComment(line []byte) []byte {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}
