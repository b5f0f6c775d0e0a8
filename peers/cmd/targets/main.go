// Command targets checks chbench's lookup-speed targets against the output
// of BenchmarkPeerLookup (package peers): it reads benchfmt files with
// golang.org/x/perf, takes medians per cell, and prints one PASS/FAIL line
// per target of peers.DefaultTargets with the measured ratio.
//
// Usage:
//
//	targets [-out results/targets.txt] peers.txt ...
//
// With no file (or "-") it reads standard input. The report goes to
// standard output and, with -out, to that file (replaced atomically).
// Syntax errors in the input are warnings on standard error. The exit
// status is 1 when a target fails or a cell is missing, 2 on bad usage.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/chbench/chbench/internal/tempfile"
	"github.com/chbench/chbench/peers"
	"github.com/chbench/chbench/schema"
)

func main() {
	tempfile.RemoveOnSignal() // an interrupted -out leaves no temporary file
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "targets:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage: targets [-out file] [benchfmt file ...]")

// errFailed is returned (wrapped) when at least one target is not met.
var errFailed = errors.New("targets not met")

// run is the command: args without the program name.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("targets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "also write the report to this `file`")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	// The inputs are held in memory, so together they may hold at most
	// schema.MaxInputBytes, like any results file read back.
	var all bytes.Buffer
	for _, name := range files {
		left := int64(schema.MaxInputBytes) - int64(all.Len())
		if name == "-" {
			n, err := io.Copy(&all, io.LimitReader(stdin, left+1))
			if err != nil {
				return fmt.Errorf("reading standard input: %w", err)
			}
			if n > left {
				return fmt.Errorf("standard input: more than the %d bytes the inputs may hold together", int64(schema.MaxInputBytes))
			}
			continue
		}
		f, err := schema.OpenInput(name)
		if err != nil {
			return err
		}
		n, err := io.Copy(&all, io.LimitReader(f, left+1))
		f.Close()
		if err != nil {
			return err
		}
		if n > left {
			return fmt.Errorf("%s: more than the %d bytes the inputs may hold together", name, int64(schema.MaxInputBytes))
		}
		all.WriteByte('\n')
	}
	res, warnings, err := peers.ReadResults(&all, files[0])
	for _, w := range warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if err != nil {
		return err
	}
	var report bytes.Buffer
	failed, err := peers.WriteReport(&report, peers.Check(res, peers.DefaultTargets()))
	if err != nil {
		return err
	}
	if _, err := stdout.Write(report.Bytes()); err != nil {
		return err
	}
	if *out != "" {
		if err := schema.WriteFile(*out, func(w io.Writer) error { _, err := w.Write(report.Bytes()); return err }); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d failed", errFailed, failed)
	}
	return nil
}
