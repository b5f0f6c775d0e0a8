// Command chbench places keys with the algorithms of the chbench suite and
// measures how they move and spread keys.
//
//	chbench locate -algo NAME -nodes N [flags] KEY...   owner of each key
//	chbench slot KEY...                                 Redis Cluster hash slot of each key
//	chbench move -algo A[,B...] -from N -to M [flags]   moved fraction on a resize
//	chbench spread -algo A[,B...] -nodes N [flags]      per-node share spread
//	chbench load [-nodes N] [-zipf s,...] [flags]       per-node request load under Zipf popularity
//	chbench bounded [-nodes N] [-eps e,...] [flags]     bounded loads: partition, key and request forms
//	chbench plot -dir results                           draw results/*.csv and lookup.txt
//
// Run "chbench CMD -h" for the flags of each command.
//
// Results go to standard output and diagnostics to standard error; a bad
// flag or input is an error naming the value and exit status 1, before any
// work. With "chbench ... > file" it is the shell that truncates file,
// before chbench starts, so a failed or interrupted run leaves it empty or
// partial: write to a temporary name and rename on success (chbench ... >
// file.tmp && mv file.tmp file), as the Makefile does. chbench plot writes
// its own files through a temporary name and a rename.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chbench:", err)
		os.Exit(1)
	}
}

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"locate": {"print the owner node ID of each key", runLocate},
	"slot":   {"print the Redis Cluster hash slot of each key", runSlot},
	"move":   {"measure the fraction of keys that move on a resize", runMove},
	"spread": {"measure how evenly keys spread over nodes", runSpread},
	"plot":   {"draw the plots from a results directory", runPlot},

	"load":    {"measure per-node request load under Zipf popularity or a request log", runLoad},
	"bounded": {"measure the three forms of bounded loads (partition, key, request) against eps", runBounded},

	"reference": {"reproduce the published reference values (PASS/FAIL per value)", runReference},
}

// run executes the chbench command line args (without the program name),
// writing results to stdout and diagnostics to stderr. It returns
// flag.ErrHelp after printing help, or the error that ended the command.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return errors.New("no command given")
		}
		return flag.ErrHelp
	}
	c, ok := commands[args[0]]
	if !ok {
		usage(stderr)
		return fmt.Errorf("unknown command %q", args[0])
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: chbench COMMAND [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'chbench COMMAND -h' for the flags of a command.")
}
