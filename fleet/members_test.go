package fleet

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/memory"
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

// The members file rule: a byte-order mark at the start is no part of
// the first ID, "#" after white space or at a line's start begins a
// comment (but "a#1" is an ID), and an ID that is not plain text (invalid
// UTF-8, an invisible format character) is refused naming the line.
func TestMembersFileRule(t *testing.T) {
	nodes, err := ParseMembership(strings.NewReader("\ufeffa\nb # the second\nc#1,2\t# weight 2\n  # only a comment\n"), "m.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 1}, {ID: "c#1", Weight: 2}}
	if !slices.Equal(nodes, want) {
		t.Errorf("nodes %v, want %v", nodes, want)
	}
	for body, msg := range map[string]string{
		"a\nb\xff\n":      "m.txt:2: node ID \"b\\xff\": byte 1 (0xff) is not valid UTF-8 (an ID is written as text into every output)",
		"a\nb\u200bc\n":   "m.txt:2: node ID \"b\\u200bc\": byte 1 holds the invisible format character U+200B (an ID is written as text into every output)",
		"\ufeff\ufeffa\n": "m.txt:1: node ID \"\\ufeffa\": byte 0 holds the invisible format character U+FEFF (an ID is written as text into every output)",
		"a\n" + strings.Repeat("x", MaxMemberLineBytes+1): "m.txt:2: line longer than 65536 bytes, the limit of a line of a members file",
	} {
		if _, err := ParseMembership(strings.NewReader(body), "m.txt"); err == nil || err.Error() != msg {
			t.Errorf("%.40q: err = %v, want %q", body, err, msg)
		}
	}
	long := strings.Repeat("x", MaxMemberLineBytes)
	if nodes, err := ParseMembership(strings.NewReader("a\n"+long+"\n"), "m.txt"); err != nil || len(nodes) != 2 || nodes[1].ID != long {
		t.Errorf("a line of exactly %d bytes: %v", MaxMemberLineBytes, err)
	}
}

// A members file that is an endless stream without a newline (/dev/zero)
// is an error naming the file, the line and the limit, read no further
// than the limit; one whose IDs outgrow the memory budget is the
// budget's error, before the IDs are held.
func TestMembersFileBounds(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := ReadMembership("/dev/zero", nil)
		if err == nil || err.Error() != "/dev/zero:1: line longer than 65536 bytes, the limit of a line of a members file" {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "node-%d-%s\n", i, strings.Repeat("x", 1000))
	}
	_, err := parseMembership(strings.NewReader(b.String()), "big.txt", memory.New(1<<20))
	var ee *memory.ExceededError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "members file big.txt") {
		t.Errorf("2,000 IDs of 1 KB with a 1 MiB budget: %v", err)
	}
}
