package command

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/cmd/internal/cli"
)

// runBounded measures the three forms of bounded loads (and the plain
// ring) against eps.
func runBounded(args []string, stdout, stderr io.Writer) error {
	var t cli.Traffic
	fs := cli.NewFlagSet("bounded", "[-nodes N (default 100)] [-eps e[,e...]] [-zipf s[,s...]] [flags]", stderr)
	t.Register(fs, "0")
	epsL := fs.String("eps", "0.05,0.1,0.25,0.5,1", "load factor(s) c = 1 + eps, eps > 0, comma-separated")
	o, nodes, eps, err := func() (analysis.LoadOptions, []algorithms.Node, []float64, error) {
		set, err := cli.Parse(fs, args)
		if err != nil {
			return analysis.LoadOptions{}, nil, nil, err
		}
		if fs.NArg() != 0 {
			return analysis.LoadOptions{}, nil, nil, cli.Args(fs, 0, "")
		}
		eps, err := cli.Floats("eps", *epsL, 0, true)
		if err != nil {
			return analysis.LoadOptions{}, nil, nil, err
		}
		for _, e := range eps {
			c := catalog.DefaultConfig()
			c.Eps = e
			if err := c.Validate(); err != nil {
				return analysis.LoadOptions{}, nil, nil, err
			}
		}
		if set["keyfile"] {
			return analysis.LoadOptions{}, nil, nil, fmt.Errorf("-keyfile: bounded sweeps eps on generated keys only; chbench load -keyfile measures the bounded forms on your keys at one eps")
		}
		t.Placement.Eps = eps[0]
		o, nodes, err := t.Options(set)
		if err != nil {
			return o, nodes, eps, err
		}
		// Every eps, the rings and the memory of the run, before the
		// first request.
		return o, nodes, eps, analysis.CheckBoundedLoads(o, eps, nodes)
	}()
	if err != nil {
		return cli.Usage(err)
	}
	rs, err := analysis.SweepBoundedLoads(o, eps, nodes)
	if err != nil {
		return err
	}
	return cli.WriteRows(stdout, t.Out, t.Formats, rs, analysis.WriteBoundedTable)
}
