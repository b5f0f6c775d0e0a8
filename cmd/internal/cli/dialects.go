package cli

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/analysis"
)

// A dialect places host:port node IDs only (it hashes the server
// addresses of its system's configuration), so a run that includes one
// names the nodes it generates from counts by the default fleet's
// addresses, 127.0.0.1:11211 for node 0 and so on (analysis.AddressID),
// for every placement of the run, and says so on stderr.

// AddressSweep prepares sw for its placements: when sw.Algos include a
// dialect it sets sw.Addresses (the nodes of -nodes and -from counts and
// of the scenario ops) and, when generated is true (sw.Scenarios came
// from node counts, not from named members), renames the nodes of
// sw.Scenarios to their addresses too; it then notes the IDs on stderr.
// It returns an error when a node lies past the default fleet's ports.
func AddressSweep(sw *analysis.Sweep, generated bool, stderr io.Writer) error {
	if !analysis.HasDialect(sw.Algos) {
		return nil
	}
	sw.Addresses = true
	if generated {
		for i, sc := range sw.Scenarios {
			a, err := analysis.AddressScenario(sc)
			if err != nil {
				return err
			}
			sw.Scenarios[i] = a
		}
	}
	if generated || len(sw.Scenarios) == 0 {
		NoteAddresses(stderr)
	}
	return nil
}

// AddressMembers returns nodes, generated from a node count, renamed to
// their addresses when names include a dialect (with the note on
// stderr), else unchanged.
func AddressMembers(names []string, nodes []algorithms.Node, stderr io.Writer) ([]algorithms.Node, error) {
	if !analysis.HasDialect(names) {
		return nodes, nil
	}
	out, err := analysis.AddressNodes(nodes)
	if err == nil {
		NoteAddresses(stderr)
	}
	return out, err
}

// NoteAddresses writes the note that says which node IDs a run with a
// dialect generated.
func NoteAddresses(stderr io.Writer) {
	fmt.Fprintf(stderr, "chbench: dialects place server addresses: generated node i is %s:<%d+i> (%s, %s, ...) for every placement of this run; name your own servers with -node-ids\n",
		dialect.DefaultHost, dialect.DefaultPort, dialect.DefaultID(0), dialect.DefaultID(1))
}
