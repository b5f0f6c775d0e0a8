package command

import (
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// runWorkload writes a generated workload (package workload) as a trace
// in one of the supported formats, plain or zstd-compressed: test input
// for chbench's readers and for other tools.
func runWorkload(args []string, stdout, stderr io.Writer) error {
	var wl cli.Workload
	fs := cli.NewFlagSet("workload", "[workload flags] [-trace-format NAME] [-zstd] [-o FILE]", stderr)
	wl.Register(fs)
	format := fs.String("trace-format", trace.Twitter, "format to write: "+strings.Join(trace.FormatNames(), ", "))
	compress := fs.Bool("zstd", false, "compress the trace with zstd (as the published Twitter and libCacheSim traces are)")
	out := fs.String("o", "", "write the trace to FILE (through a temporary file renamed once complete) instead of standard output")
	_, err := cli.Parse(fs, args)
	if err == nil && fs.NArg() != 0 {
		err = cli.Args(fs, 0, "")
	}
	var cfg workload.Config
	if err == nil {
		cfg, err = wl.Config()
	}
	if err == nil {
		_, err = trace.LookupFormat(*format)
	}
	if err == nil && *out != "" {
		err = cli.CheckFile(*out)
	}
	if err != nil {
		return cli.Usage(err)
	}
	write := func(w io.Writer) error {
		g, err := workload.New(cfg)
		if err != nil {
			return err
		}
		var zw *zstd.Encoder
		if *compress {
			if zw, err = zstd.NewWriter(w, zstd.WithEncoderConcurrency(1)); err != nil {
				return err
			}
			w = zw
		}
		tw, err := trace.NewWriter(w, *format)
		if err != nil {
			return err
		}
		if err := trace.Copy(tw, g); err != nil {
			return err
		}
		if zw != nil {
			if err := zw.Close(); err != nil {
				return err
			}
		}
		fmt.Fprintf(stderr, "workload: %s\n", g.Stats())
		return nil
	}
	if *out == "" {
		return write(stdout)
	}
	if err := schema.WriteFile(*out, write); err != nil {
		return err
	}
	fmt.Fprintln(stdout, *out)
	return nil
}
