package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/slots"
)

// runLocate prints "KEY<TAB>NODE-ID" for each key argument. Every error
// comes from the command line: a usage error.
func runLocate(args []string, stdout, stderr io.Writer) error {
	return badUsage(locate(args, stdout, stderr))
}

func locate(args []string, stdout, stderr io.Writer) error {
	var pf placementFlags
	fs := newFlagSet("locate", "-algo NAME -nodes N [flags] KEY...", stderr)
	pf.register(fs, "algorithm")
	pf.registerMembership(fs)
	set, err := parse(fs, args)
	if err != nil {
		return err
	}
	if pf.algo == "" {
		return fmt.Errorf("-algo is required (one of %s)", strings.Join(catalog.Names(), ", "))
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("no keys given: chbench locate -algo NAME -nodes N KEY...")
	}
	if err := printableKeys(fs.Args()); err != nil {
		return err
	}
	nodes, err := pf.membership(set)
	if err != nil {
		return err
	}
	p, err := catalog.New(pf.algo, nodes, pf.config())
	if err != nil {
		return err
	}
	for _, k := range fs.Args() {
		fmt.Fprintf(stdout, "%s\t%s\n", k, p.Locate(k))
	}
	return nil
}

// runSlot prints "KEY<TAB>SLOT", the Redis Cluster hash slot of each key.
func runSlot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("slot", "KEY...", stderr)
	if _, err := parse(fs, args); err != nil {
		return badUsage(err)
	}
	if fs.NArg() == 0 {
		return badUsage(fmt.Errorf("no keys given: chbench slot KEY..."))
	}
	if err := printableKeys(fs.Args()); err != nil {
		return badUsage(err)
	}
	for _, k := range fs.Args() {
		fmt.Fprintf(stdout, "%s\t%d\n", k, slots.KeySlot(k))
	}
	return nil
}

// printableKeys returns an error naming the first key that holds a control
// character (a newline or tab would break the one KEY<TAB>VALUE line per
// key that locate and slot print).
func printableKeys(keys []string) error {
	for i, k := range keys {
		if strings.ContainsFunc(k, unicode.IsControl) {
			return fmt.Errorf("key %q (key %d): contains a control character; the output is one KEY<TAB>VALUE line per key", k, i+1)
		}
	}
	return nil
}
