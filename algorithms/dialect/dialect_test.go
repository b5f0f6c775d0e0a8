package dialect

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

// Ties: KeepAll keeps equal positions in insertion order (the first is
// found), KeepFirst drops later ones, KeepLast earlier ones.
func TestContinuumTies(t *testing.T) {
	pts := func() []Point {
		return []Point{{Pos: 100, Owner: 0}, {Pos: 50, Owner: 1}, {Pos: 100, Owner: 2}, {Pos: 100, Owner: 3}, {Pos: 200, Owner: 4}}
	}
	for _, c := range []struct {
		tie        Tie
		n, atOwner int
	}{{KeepAll, 5, 0}, {KeepFirst, 3, 0}, {KeepLast, 3, 3}} {
		cm := NewContinuum(pts(), c.tie)
		if cm.Len() != c.n {
			t.Errorf("tie %d: %d points, want %d", c.tie, cm.Len(), c.n)
		}
		if o := cm.Owner(cm.Search(100)); o != c.atOwner {
			t.Errorf("tie %d: owner at 100 is %d, want %d", c.tie, o, c.atOwner)
		}
		if o := cm.Owner(cm.Search(60)); o != c.atOwner {
			t.Errorf("tie %d: owner after 60 is %d, want %d", c.tie, o, c.atOwner)
		}
		if o := cm.Owner(cm.SearchAfter(100)); o != 4 {
			t.Errorf("tie %d: first point after 100 owned by %d, want 4", c.tie, o)
		}
		if o := cm.Owner(cm.Search(201)); o != 1 {
			t.Errorf("tie %d: past the top wraps to %d, want 1", c.tie, o)
		}
		if o := cm.Owner(cm.SearchAfter(200)); o != 1 {
			t.Errorf("tie %d: after the top point wraps to %d, want 1", c.tie, o)
		}
	}
}

// Walk lists distinct owners clockwise from a point, wrapping.
func TestWalk(t *testing.T) {
	c := NewContinuum([]Point{{10, 0}, {20, 0}, {30, 1}, {40, 2}}, KeepAll)
	got := c.Walk(c.Search(35), 3, make([]int, 3))
	if len(got) != 3 || got[0] != 2 || got[1] != 0 || got[2] != 1 {
		t.Errorf("walk from 35: %v, want [2 0 1]", got)
	}
	if s := c.Shares(3); math.Abs(s[0]+s[1]+s[2]-1) > 1e-12 || s[1] != 10.0/(1<<32) {
		t.Errorf("shares %v", s)
	}
}

func TestParseHostPort(t *testing.T) {
	for id, want := range map[string]HostPort{"127.0.0.1:11211": {"127.0.0.1", 11211}, "cache-a:1": {"cache-a", 1}, "[::1]:80": {"::1", 80}} {
		if got, err := ParseHostPort(id); err != nil || got != want {
			t.Errorf("ParseHostPort(%q) = %v, %v", id, got, err)
		}
	}
	for _, id := range []string{"node-1", ":11211", "h:0", "h:65536", "h:011", "h:+1", "h:x"} {
		if _, err := ParseHostPort(id); err == nil || !strings.Contains(err.Error(), "host:port") || !strings.Contains(err.Error(), id) {
			t.Errorf("ParseHostPort(%q) error %v", id, err)
		}
	}
}

func TestWeights(t *testing.T) {
	nodes := []algorithms.Node{{ID: "a", Weight: 2}, {ID: "b", Weight: 1.5}}
	if _, err := IntWeights("x", nodes, 10); err == nil || !strings.Contains(err.Error(), `"b": weight 1.5`) {
		t.Errorf("IntWeights error %v", err)
	}
	if _, err := IntWeights("x", nodes[:1], 1); err == nil || !strings.Contains(err.Error(), "1..1") {
		t.Errorf("IntWeights over max: %v", err)
	}
	if err := UnitWeights("x", nodes); err == nil || !strings.Contains(err.Error(), `"a": weight 2`) {
		t.Errorf("UnitWeights error %v", err)
	}
	if e := Expand([]int{2, 1}); len(e) != 3 || e[0] != 0 || e[1] != 0 || e[2] != 1 {
		t.Errorf("Expand = %v", e)
	}
}

// A table of 3 entries splits the 2^32 hashes 1431655766, 1431655765,
// 1431655765 (2^32 = 3 * 1431655765 + 1).
func TestTableShares(t *testing.T) {
	tb := &Table{Members: []algorithms.Node{{ID: "a"}, {ID: "b"}}, Slots: []int32{0, 1, 1}}
	s := tb.ExactShares()
	if s[0] != 1431655766.0/(1<<32) || s[1] != 2*1431655765.0/(1<<32) {
		t.Errorf("shares %v", s)
	}
}

// The default fleet starts at memcached's port and ends where the ports
// do; every address parses back to its host and port.
func TestDefaultNodes(t *testing.T) {
	nodes, err := DefaultNodes(3)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.1:11213"} {
		if nodes[i].ID != want || nodes[i].Weight != 1 {
			t.Errorf("node %d = %+v, want %s of weight 1", i, nodes[i], want)
		}
		if hp, err := ParseHostPort(nodes[i].ID); err != nil || hp.Port != DefaultPort+i {
			t.Errorf("ParseHostPort(%q) = %v, %v", nodes[i].ID, hp, err)
		}
	}
	last, err := DefaultNodes(MaxDefaultNodes)
	if err != nil || last[len(last)-1].ID != "127.0.0.1:65535" {
		t.Errorf("largest default fleet ends at %v (%v), want 127.0.0.1:65535", last[len(last)-1], err)
	}
	for _, n := range []int{0, MaxDefaultNodes + 1} {
		if _, err := DefaultNodes(n); err == nil || !strings.Contains(err.Error(), strconv.Itoa(n)) {
			t.Errorf("DefaultNodes(%d): error %v, want one naming %d", n, err, n)
		}
	}
}
