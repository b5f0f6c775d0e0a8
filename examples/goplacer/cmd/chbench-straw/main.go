// Command chbench-straw runs chbench's conformance suite on the straw
// placement of this module, registered in chbench's catalog from outside
// it, and prints the verdict of every property; it exits with status 1
// when one fails.
//
//	go run ./cmd/chbench-straw -keys 100000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"example.com/goplacer"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/conformance"
)

func main() {
	if err := catalog.Register(goplacer.Info); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cfg := conformance.DefaultConfig()
	flag.IntVar(&cfg.Keys, "keys", cfg.Keys, "keys per check")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the keys and random choices")
	flag.IntVar(&cfg.ChurnSteps, "churn", cfg.ChurnSteps, "random joins and leaves of the churn check")
	flag.Parse()
	rep, err := conformance.Run(context.Background(), conformance.Open(context.Background(), goplacer.Name, catalog.DefaultConfig()), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rep.WriteText(os.Stdout)
	if len(rep.Failed()) > 0 {
		os.Exit(1)
	}
}
