// Command conformance is an example of the conformance library
// (github.com/chbench/chbench/conformance): it gives one placement, by
// name, a verdict per property and prints the report, exiting with status
// 1 when a check fails and 2 on a usage or start error. The placement is
// any catalog name or, for a program in another language speaking the
// external protocol (docs/protocol.md), exec: and its shell command:
//
//	go run ./examples/conformance -algo 'exec:python3 examples/python/ring.py'
//	go run ./examples/conformance -algo exec:./jump -reference jump -reference-hash fnv1a64
//	go run ./examples/conformance -algo ring -vnodes 40
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/conformance"
)

func main() {
	cfg := conformance.DefaultConfig()
	ccfg := catalog.DefaultConfig()
	algo := flag.String("algo", "", "the placement: a catalog name, or exec:COMMAND for a program speaking the protocol")
	flag.StringVar(&ccfg.Hash, "hash", ccfg.Hash, "key hash of a catalog placement")
	flag.IntVar(&ccfg.VNodes, "vnodes", ccfg.VNodes, "virtual nodes per node of ring and bounded")
	var exec external.Config
	flag.DurationVar(&exec.Timeout, "timeout", external.DefaultTimeout, "deadline of each reply of an exec: placement")
	flag.IntVar(&cfg.Nodes, "nodes", cfg.Nodes, "nodes of the membership")
	flag.IntVar(&cfg.Keys, "keys", cfg.Keys, "keys per check")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the keys and of every random choice")
	flag.Float64Var(&cfg.Alpha, "alpha", cfg.Alpha, "false-alarm rate of each statistical check")
	flag.Float64Var(&cfg.CV, "cv", cfg.CV, "balance tolerance: the largest cv of the shares that passes")
	flag.IntVar(&cfg.ChurnSteps, "churn", cfg.ChurnSteps, "random joins and leaves of the churn check")
	ref := flag.String("reference", "", "a placement to agree with (catalog name or exec:COMMAND)")
	refHash := flag.String("reference-hash", ccfg.Hash, "key hash of the reference placement")
	vectors := flag.String("vectors", "", "a file of KEY<TAB>OWNER lines to agree with, for the membership node-0 ... node-{nodes-1}")
	flag.Parse()
	if *algo == "" || flag.NArg() > 0 || (*ref != "" && *vectors != "") {
		fmt.Fprintln(os.Stderr, "usage: conformance -algo NAME|exec:COMMAND [-reference NAME | -vectors FILE] [flags]")
		flag.PrintDefaults()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case *ref != "":
		rcfg := ccfg
		rcfg.Hash = *refHash
		cfg.Reference = &conformance.Ref{Name: *ref + " (" + *refHash + ")", Open: opener(ctx, *ref, rcfg, exec)}
	case *vectors != "":
		cfg.Reference = &conformance.Ref{Vectors: *vectors}
	}
	rep, err := conformance.Run(ctx, opener(ctx, *algo, ccfg, exec), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rep.WriteText(os.Stdout)
	if len(rep.Failed()) > 0 {
		os.Exit(1)
	}
}

// opener opens name with the program settings of exec (for exec: names).
func opener(ctx context.Context, name string, cfg catalog.Config, exec external.Config) conformance.Opener {
	return func() (catalog.Builder, error) { return catalog.Open(ctx, name, cfg, exec) }
}
