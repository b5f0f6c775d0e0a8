package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// libmemcached's weighted ketama and twemproxy's ketama with md5 build the
// same continuum (libketama's, both labelling a port-11211 server by its
// host; each is checked against the real system in live/), so switching
// between them moves nothing, and the storm of the switch is the steady
// state; a switch to twemproxy's default hash (fnv1a_64) sends each key
// to an unrelated server, 1 - 1/n of them elsewhere, and its storm is the
// model's at that fraction: db multiple (1 - h (1 - f)) / (1 - h).
func TestSwitchingLibmemcachedToTwemproxy(t *testing.T) {
	nodes, err := dialect.DefaultNodes(10)
	if err != nil {
		t.Fatal(err)
	}
	g, err := keyset.NewGenerator(20000, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Config: catalog.DefaultConfig(), Keys: g, Seed: 1, Commit: "test"}
	m := DefaultStormModel()
	rows, err := Switching(o, nodes, []SwitchPair{
		{"libmemcached-ketama-weighted", "twemproxy-ketama-md5"},
		{"libmemcached-ketama-weighted", "twemproxy-ketama-fnv1a-64"},
	}, m, 3)
	if err != nil {
		t.Fatal(err)
	}
	same, other := rows[0], rows[1]
	if same.DifferFrac != 0 || *same.DifferFracHi != 0 || same.DBMultiple != 1 || same.RecoveryS != 0 || len(same.First) != 0 {
		t.Errorf("same continuum: differ %v [%v, %v], db multiple %v, recovery %v s, first %v",
			same.DifferFrac, same.DifferFracLo, same.DifferFracHi, same.DBMultiple, same.RecoveryS, same.First)
	}
	// 100,000 keys, each elsewhere with probability 0.9: the binomial
	// standard error is sqrt(0.9 * 0.1 / 1e5) = 0.00095, so 5 of them is
	// 0.0047; the interval over 5 sets must contain the mean.
	if f := other.DifferFrac; math.Abs(f-0.9) > 0.005 || *other.DifferFracLo > f || f > *other.DifferFracHi {
		t.Errorf("unrelated placements: differ %v [%v, %v], want 0.9 within 0.005", f, other.DifferFracLo, other.DifferFracHi)
	}
	h := m.HitRatio
	if want := (1 - h*(1-other.DifferFrac)) / (1 - h); math.Abs(other.DBMultiple-want) > 1e-9 || *other.DBMultipleLo > other.DBMultiple || other.DBMultiple > *other.DBMultipleHi {
		t.Errorf("db multiple %v [%v, %v], want %v", other.DBMultiple, other.DBMultipleLo, other.DBMultipleHi, want)
	}
	if want := m.RecoveryTime(other.DifferFrac, StormRecoveryFactor); other.RecoveryS != want || other.TauS != 20 {
		t.Errorf("recovery %v s, tau %v s; want %v and 20", other.RecoveryS, other.TauS, want)
	}
	if len(other.First) != 3 || len(other.Flows) == 0 || other.Nodes != 10 || other.FirstNode != "127.0.0.1:11211" || other.LastNode != "127.0.0.1:11220" || other.Weights != "1" {
		t.Errorf("row detail: first %v, %d flows, fleet %d %s..%s weights %s", other.First, len(other.Flows), other.Nodes, other.FirstNode, other.LastNode, other.Weights)
	}
	for _, r := range rows {
		if err := schema.Check(r); err != nil {
			t.Errorf("%s -> %s: %v", r.Algo, r.ToAlgo, err)
		}
	}
}

// Bad input names the bad value.
func TestSwitchingErrors(t *testing.T) {
	nodes, _ := dialect.DefaultNodes(4)
	g, _ := keyset.NewGenerator(100, 2, 1)
	o := Options{Config: catalog.DefaultConfig(), Keys: g, Seed: 1}
	pair := []SwitchPair{{"gomemcache", "nginx-hash"}}
	for _, c := range []struct {
		pairs []SwitchPair
		m     StormModel
		first int
		want  string
	}{
		{nil, DefaultStormModel(), 0, "no switch"},
		{pair, StormModel{Reads: 1, HitRatio: 1, WorkingSet: 1}, 0, "hit ratio 1"},
		{pair, DefaultStormModel(), -1, "first mismatches -1"},
		{[]SwitchPair{{"gomemcache", "nutcracker"}}, DefaultStormModel(), 0, `"nutcracker"`},
	} {
		if _, err := Switching(o, nodes, c.pairs, c.m, c.first); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.pairs, err, c.want)
		}
	}
}
