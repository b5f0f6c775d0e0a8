package live

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/keyset"
)

func placements(t *testing.T, algo string, from, to int) (algorithms.Locator, algorithms.Locator) {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(to)
	if err != nil {
		t.Fatal(err)
	}
	before, err := catalog.NewLocator(algo, nodes[:from], catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	after, err := before.Rebalance(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return before, after
}

// Bad configurations are refused before any server starts, naming the
// bad value.
func TestStormConfigValidate(t *testing.T) {
	before, after := placements(t, "modulo", 2, 3)
	good := StormConfig{Before: before, After: after, Keys: []string{"a", "b"}, Expire: 0.05, Reads: 10, Windows: 2,
		MemMB: 16, ValueBytes: 10, Rate: 1000, Timeout: time.Second}
	if err := good.Validate(); err != nil {
		t.Fatalf("good config: %v", err)
	}
	for _, c := range []struct {
		edit func(*StormConfig)
		want string
	}{
		{func(c *StormConfig) { c.After = nil }, "placements"},
		{func(c *StormConfig) { c.Keys = nil }, "working set is empty"},
		{func(c *StormConfig) { c.Keys = []string{"has space"} }, `key "has space"`},
		{func(c *StormConfig) { c.Expire = 1 }, "expiry probability 1"},
		{func(c *StormConfig) { c.Windows = 0 }, "windows 0"},
		{func(c *StormConfig) { c.Reads = 1 }, "reads 1"},
		{func(c *StormConfig) { c.MemMB = 0 }, "memory 0 MB"},
		{func(c *StormConfig) { c.ValueBytes = 0 }, "value size 0"},
		{func(c *StormConfig) { c.Rate = 0 }, "rate 0"},
		{func(c *StormConfig) { c.Timeout = 0 }, "timeout 0"},
	} {
		bad := good
		c.edit(&bad)
		if _, err := RunStorm(context.Background(), bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// A cancelled run (as on SIGINT) returns the context's error and leaves
// no server listening.
func TestStormCancelStopsServers(t *testing.T) {
	need(t, "memcached")
	before, after := placements(t, "modulo", 2, 3)
	keys, err := keyset.Keys(2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var addrs []string
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// 100,000 steady reads at 2,000 reads/s would take 50 s: the cancel
	// comes during the steady window, after both servers started.
	c := StormConfig{Before: before, After: after, Keys: keys, Expire: 0.05, Reads: 100000, Windows: 1,
		MemMB: 16, ValueBytes: 10, Rate: 2000, Timeout: deadline,
		Started: func(addr string) {
			mu.Lock()
			defer mu.Unlock()
			if addrs = append(addrs, addr); len(addrs) == 2 {
				time.AfterFunc(300*time.Millisecond, cancel)
			}
		}}
	_, err = RunStorm(ctx, c)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(addrs) != 2 {
		t.Fatalf("started %d servers (%v), want the 2 of the membership before the change", len(addrs), addrs)
	}
	for _, a := range addrs {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after RunStorm returned", a)
		}
	}
}
