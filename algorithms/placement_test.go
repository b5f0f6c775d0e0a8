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

// An algorithm that takes equal weights only names the first node and the
// first node of another weight, not the last node (which may weigh as
// much as the first: "node-0 has weight 1, node-9 1").
func TestCheckUniformNamesTheUnequalNode(t *testing.T) {
	nodes := []Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}, {ID: "c", Weight: 1}}
	err := CheckUniform("jump", nodes)
	if want := `jump: weights are not supported (node "a" has weight 1, node "b" 2)`; err == nil || err.Error() != want {
		t.Errorf("CheckUniform: %v, want %q", err, want)
	}
	if err := CheckUniform("jump", []Node{{ID: "a", Weight: 3}, {ID: "b", Weight: 3}}); err != nil {
		t.Errorf("CheckUniform of equal weights 3: %v, want nil", err)
	}
}
