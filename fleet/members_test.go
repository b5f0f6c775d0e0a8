package fleet

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

// A membership file reads one id or id,weight a line (comments, blank
// lines, CRLF and spaces allowed), and a bad line is an error naming the
// file, line and value.
func TestParseMembership(t *testing.T) {
	nodes, err := ParseMembership(strings.NewReader("# fleet\r\n10.0.1.7:11211,2\r\n\n10.0.1.8:11211\n  cache-c , 0.5 \n"), "fleet.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []algorithms.Node{{ID: "10.0.1.7:11211", Weight: 2}, {ID: "10.0.1.8:11211", Weight: 1}, {ID: "cache-c", Weight: 0.5}}
	if len(nodes) != len(want) {
		t.Fatalf("nodes %v, want %v", nodes, want)
	}
	for i := range want {
		if nodes[i] != want[i] {
			t.Errorf("node %d = %v, want %v", i, nodes[i], want[i])
		}
	}
	for body, msg := range map[string]string{
		"a\nb,NaN\n":   "fleet.txt:2",
		"a\na\n":       "duplicate node ID",
		"a,0\n":        "fleet.txt:1",
		"# only\n\n":   "empty",
		",2\n":         "empty node ID",
		"a,1,2\n":      "not a number",
		"a\nb,-1\nc\n": "fleet.txt:2",
	} {
		if _, err := ParseMembership(strings.NewReader(body), "fleet.txt"); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: err = %v, want %q", body, err, msg)
		}
	}
}
