package workload_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// The operation mix, TTLs, clients and clock come out as configured: each
// share within 4.5 binomial standard deviations over 100,000 requests,
// request i at i/Rate, and every key of one rank with one size.
func TestMix(t *testing.T) {
	cfg := workload.Config{Keys: 500, Zipf: 0.7, Requests: 100000, Rate: 50, Start: time.Hour, Clients: 4, Seed: 2,
		Values: workload.Sizes{Kind: workload.Uniform, Min: 10, Max: 20},
		Ops:    []workload.OpShare{{Op: trace.OpGet, Share: 0.7}, {Op: trace.OpSet, Share: 0.2}, {Op: trace.OpDelete, Share: 0.1}},
		TTLs:   []workload.TTLShare{{TTL: 0, Share: 0.25}, {TTL: time.Minute, Share: 0.75}}}
	w, err := workload.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[trace.Op]int{}
	ttls, writes := 0, 0
	clients := map[string]int{}
	sizes := map[string]int{}
	var i int64
	for w.Scan() {
		q := w.Record().(*trace.Request)
		if want := time.Hour + time.Duration(float64(i)/cfg.Rate*float64(time.Second)); q.Time != want {
			t.Fatalf("request %d at %v, want %v", i, q.Time, want)
		}
		i++
		ops[q.Op]++
		clients[string(q.Client)]++
		if q.Op == trace.OpSet {
			writes++
			if q.TTL == time.Minute {
				ttls++
			}
		}
		if q.Op != trace.OpDelete {
			if s, ok := sizes[string(q.Key)]; ok && s != q.ValueSize || q.ValueSize < 10 || q.ValueSize > 20 {
				t.Fatalf("key %s: size %d (before %d), want one size in 10..20", q.Key, q.ValueSize, s)
			}
			sizes[string(q.Key)] = q.ValueSize
		}
	}
	within := func(what string, got, n int, p float64) {
		sd := math.Sqrt(float64(n) * p * (1 - p))
		if math.Abs(float64(got)-float64(n)*p) > 4.5*sd {
			t.Errorf("%s: %d of %d, want %.0f +- %.0f", what, got, n, float64(n)*p, 4.5*sd)
		}
	}
	within("gets", ops[trace.OpGet], 100000, 0.7)
	within("sets", ops[trace.OpSet], 100000, 0.2)
	within("TTL 1m", ttls, writes, 0.75)
	for c, n := range clients {
		within("client "+c, n, 100000, 0.25)
	}
	if len(clients) != 4 || len(sizes) > 500 {
		t.Errorf("%d clients, %d keys", len(clients), len(sizes))
	}
}

// Log-normal sizes have the configured median: the median of 20,000 keys'
// sizes lies within the binomial 4.5-sigma band of order statistics
// around the law's median.
func TestLogNormalSizes(t *testing.T) {
	w, err := workload.New(workload.Config{Keys: 20000, Requests: 1, Rate: 1, Seed: 1,
		Values: workload.Sizes{Kind: workload.LogNormal, Median: 230, Sigma: 1, Min: 1, Max: 1 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	below := 0
	for i := range 20000 {
		if w.ValueSize(i) < 230 {
			below++
		}
	}
	// P(size < 230) = P(round(X) < 230) for X log-normal with median 230,
	// a little under 1/2 because of rounding.
	p := distuv.LogNormal{Mu: math.Log(230), Sigma: 1}.CDF(229.5)
	if sd := math.Sqrt(20000 * p * (1 - p)); math.Abs(float64(below)-20000*p) > 4.5*sd {
		t.Errorf("%d of 20000 sizes below 230, want %.0f +- %.0f", below, 20000*p, 4.5*sd)
	}
}

// Bad configurations are errors naming the bad value.
func TestValidate(t *testing.T) {
	good := workload.Config{Keys: 10, Requests: 10, Rate: 1}
	for _, c := range []struct {
		edit func(*workload.Config)
		want string
	}{
		{func(c *workload.Config) { c.Keys = 0 }, "keys 0"},
		{func(c *workload.Config) { c.Zipf = -1 }, "exponent -1"},
		{func(c *workload.Config) { c.Rate = 0 }, "rate 0"},
		{func(c *workload.Config) { c.Requests = 0 }, "requests 0"},
		{func(c *workload.Config) { c.Ops = []workload.OpShare{{Op: trace.OpGet, Share: 0.5}} }, "shares sum to 0.5"},
		{func(c *workload.Config) { c.Values = workload.Sizes{Kind: workload.Uniform, Min: 5, Max: 1} }, "sizes 5..1"},
		{func(c *workload.Config) { c.Values = workload.Sizes{Kind: workload.LogNormal, Max: 10} }, "median 0"},
		{func(c *workload.Config) { c.Clients = -1 }, "clients -1"},
	} {
		bad := good
		c.edit(&bad)
		if _, err := workload.New(bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}
