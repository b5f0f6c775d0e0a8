package command

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/cmd/internal/cli"
)

// runLocate prints "KEY<TAB>NODE-ID" for each key argument. Every error
// comes from the command line: a usage error.
func runLocate(args []string, stdout, stderr io.Writer) error {
	return cli.Usage(locate(args, stdout, stderr))
}

func locate(args []string, stdout, stderr io.Writer) error {
	var pf cli.Placement
	fs := cli.NewFlagSet("locate", "-algo NAME -nodes N [flags] KEY...", stderr)
	pf.Register(fs, "algorithm")
	pf.RegisterMembership(fs)
	set, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if pf.Algo == "" {
		return fmt.Errorf("-algo is required (one of %s)", strings.Join(catalog.Names(), ", "))
	}
	if err := cli.NoExec("locate", "algo", pf.Algo, "it builds the placement in process"); err != nil {
		return err
	}
	if err := cli.RefuseUnusedConfig(set, "", []string{pf.Algo}); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("no keys given: chbench locate -algo NAME -nodes N KEY...")
	}
	if err := printableKeys(fs.Args()); err != nil {
		return err
	}
	nodes, err := pf.Membership(set)
	if err != nil {
		return err
	}
	p, err := catalog.New(pf.Algo, nodes, pf.Config())
	if err != nil {
		return err
	}
	for _, k := range fs.Args() {
		fmt.Fprintf(stdout, "%s\t%s\n", k, p.Locate(k))
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
