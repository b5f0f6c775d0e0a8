package propagate_test

import (
	"fmt"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/propagate"
)

// A model's text form, as a command-line flag would give it, and the mean
// delay of its expected informed fraction: T/2 for a linear rollout, the
// mean for an exponential push.
func ExampleParseModel() {
	for _, spec := range []string{"linear:T=30s", "push:dist=exp,mean=2s", "gossip:k=3,p=200ms,seeds=2,fresh=1"} {
		m, err := propagate.ParseModel(spec)
		if err != nil {
			fmt.Println(err)
			return
		}
		c, err := m.Curve(100)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: mean learn delay %.2f s\n", m.Spec(), c.MeanDelay())
	}
	// Output:
	// linear:T=30s: mean learn delay 15.00 s
	// push:dist=exp,mean=2s: mean learn delay 2.00 s
	// gossip:k=3,p=0.2s,seeds=2,fresh=1: mean learn delay 0.31 s
}

// The headline at a tenth of its rate: one node joins 100, the change
// rolls out over 30 s to 100 clients sending 1,000 requests/s; requests
// that go astray, simulated (mean of 5 replays) beside m * Rate * T/2.
func ExampleHeadline() {
	h := propagate.DefaultHeadline()
	h.Algorithms = []string{"modulo", "ring", "jump"}
	h.Catalog = catalog.DefaultConfig()
	h.Rate = 1000
	res, err := propagate.Headline(h)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Totals {
		fmt.Printf("%-6s moved %5.2f%%  astray %6.0f  expected %6.0f\n", r.Label, 100*r.Moved, r.Misrouted.Mean, r.MisroutedExpected)
	}
	// Output:
	// modulo moved 98.94%  astray  14824  expected  14841
	// ring   moved  0.93%  astray    141  expected    140
	// jump   moved  0.97%  astray    145  expected    146
}
