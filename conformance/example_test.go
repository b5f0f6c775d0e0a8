package conformance_test

import (
	"context"
	"fmt"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/conformance"
)

// The verdict on chbench's jump hash, property by property: order and
// weights do not apply (jump declares itself ordered and unweighted), and
// no reference was given.
func ExampleRun() {
	cfg := conformance.DefaultConfig()
	cfg.Keys, cfg.ChurnSteps = 20000, 100
	rep, err := conformance.Run(context.Background(), conformance.Open(context.Background(), "jump", catalog.DefaultConfig()), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Placement, "-", conformance.FactsText(rep.Facts))
	for _, p := range conformance.Properties() {
		fmt.Printf("%-12s %v\n", p, rep.Verdict(p))
	}
	// Output:
	// jump - unweighted, only the last node leaves, ordered, replicas 8
	// determinism  PASS
	// order        n/a
	// balance      PASS
	// join         PASS
	// leave        PASS
	// weights      n/a
	// replicas     PASS
	// churn        PASS
	// reference    n/a
}
