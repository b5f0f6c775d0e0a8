package algorithms

import "testing"

// ValidateNodes refuses empty memberships, empty IDs, IDs with control
// characters, duplicates and zero weights, and accepts any other printable
// ID with a positive weight.
func TestValidateNodesRejects(t *testing.T) {
	bad := map[string][]Node{
		"empty":      nil,
		"empty ID":   {{ID: "", Weight: 1}},
		"newline ID": {{ID: "a\nb", Weight: 1}},
		"tab ID":     {{ID: "a\tb", Weight: 1}},
		"duplicate":  {{ID: "a", Weight: 1}, {ID: "a", Weight: 1}},
		"zero":       {{ID: "a", Weight: 0}},
	}
	for name, nodes := range bad {
		if err := ValidateNodes(nodes); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := ValidateNodes([]Node{{ID: "node #1 ünï", Weight: 0.5}}); err != nil {
		t.Errorf("printable unicode ID rejected: %v", err)
	}
}
