package command

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/cmd/internal/cli"
)

// runSlot prints "KEY<TAB>SLOT", the Redis Cluster hash slot of each key.
func runSlot(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("slot", "KEY...", stderr)
	if _, err := cli.Parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() == 0 {
		return cli.Usage(fmt.Errorf("no keys given: chbench slot KEY..."))
	}
	if err := printableKeys(fs.Args()); err != nil {
		return cli.Usage(err)
	}
	for _, k := range fs.Args() {
		fmt.Fprintf(stdout, "%s\t%d\n", k, slots.KeySlot(k))
	}
	return nil
}
