// Package command is chbench's command line, for the chbench program
// (cmd/chbench) and for a user's own program: [Main] runs it as a
// process's main, [Run] in-process. A Go module that adds placements with
// catalog.Register (its own, in its own module) calls Main from its main
// after registering them, and every command below takes them by name like
// chbench's own algorithms, without forking chbench
// (examples/goplacer/cmd/chbench-straw):
//
//	func main() {
//		if err := catalog.Register(mypkg.Info); err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			os.Exit(2)
//		}
//		os.Exit(command.Main(os.Args[1:]))
//	}
//
// The commands:
//
//	chbench locate -algo NAME -nodes N [flags] KEY...   owner of each key
//	chbench slot KEY...                                 Redis Cluster hash slot of each key
//	chbench move -algo A[,B...] -from N -to M [flags]   moved fraction on a resize
//	chbench spread -algo A[,B...] -nodes N [flags]      per-node share spread
//	chbench replication -replicas R -from N -op OP [flags] replica sets on a change
//	chbench domains -nodes N -racks K [-zones K] [-ranks|-changes] replicas against racks and zones
//	chbench storm -from N -to M [-reads Q] [-hit H]      cache miss storm of a resize
//	chbench storm -live -from N -to M                    the same against real memcached on 127.0.0.1
//	chbench fleet -profile FILE                          the storm of every planned change of a fleet profile
//	chbench load [-nodes N] [-zipf s,...] [flags]       per-node request load under Zipf popularity
//	chbench bounded [-nodes N] [-eps e,...] [flags]     bounded loads: partition, key and request forms
//	chbench propagate [-from N] [-model SPEC] [flags]   requests astray while a change reaches the clients
//	chbench propagate -live                             MOVED/ASK redirects of a live Redis Cluster resharding
//	chbench plot -dir results                           draw results/*.csv and lookup.txt
//	chbench report -dir results [-profile FILE]         write results/REPORT.md for a design review
//	chbench reference [-full]                           the field's published values, PASS/FAIL
//	chbench algorithms [-format markdown]               the catalog's facts per algorithm
//	chbench simulate -nodes N [-trace FILE] [-join-n K]  a cache fleet replaying traffic across membership changes
//	chbench trace -trace FILE                           what a trace holds, and its warnings
//	chbench workload [-trace-format F] [-o FILE]         a generated workload written as a trace
//	chbench switch -from A -to B [-nodes N | -members F] keys routed differently and the miss storm of a switch
//	chbench dialects [-common] [-format markdown]       the catalog's facts per dialect
//
// Run "chbench CMD -h" for the flags of each command; docs/commands.md is
// the full reference (flags, formats and -o, exit status, key files), and
// docs/promises.md what chbench promises about bad input, memory and
// interrupts. Each command is one file here: its flags (the groups of
// cmd/internal/cli), one call into the library, and the writing of its
// rows.
package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"syscall"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/supervise"
	"github.com/chbench/chbench/internal/tempfile"
)

// Main runs the chbench command line args (without the program name) as
// the main of a process, and returns its exit status: 0, 1 for an error
// while running, 2 for a usage error, 3 for a crash (a Go panic or fatal
// runtime error: the work runs in a supervised worker process,
// internal/supervise); errors go to standard error. It hands the memory
// budget (-mem) to the Go runtime, removes the temporary
// files of -o on SIGINT and SIGTERM, and ends the programs of -algo
// exec:COMMAND when one arrives. Call it once per process, from main.
func Main(args []string) int {
	// The work runs in a worker process, so that a crash (a panic in any
	// goroutine, running out of memory) ends with its own exit status,
	// never with the usage error's 2 (internal/supervise).
	if !supervise.Worker() {
		if status, ok := supervise.Main(args, os.Stderr); ok {
			return status
		}
	}
	cli.LimitHeap = true
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tempfile.RemoveOnSignal() // temporary files of -o and chbench plot go on SIGINT and SIGTERM
	return cli.ExitCode(Run(ctx, args, os.Stdout, os.Stderr), os.Stderr)
}

// Run executes the chbench command line args (without the program name)
// in-process, writing results to stdout and diagnostics to stderr; the
// end of ctx stops the programs of -algo exec:COMMAND, which ends the
// command with an error. It returns flag.ErrHelp after printing help, or
// the error that ended the command (a usage error or one while running:
// Main tells them apart for its exit status); a panic of the command's
// own goroutine is returned as an internal error ([cli.Internal]: exit
// status 3), never passed on.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = cli.Internal(fmt.Errorf("panic: %v\n%s", r, debug.Stack()))
		}
	}()
	inputs.Reset() // the files this command reads: none yet
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return cli.Usage(errors.New("no command given"))
		}
		return flag.ErrHelp
	}
	c, ok := commands[args[0]]
	if !ok {
		usage(stderr)
		return cli.Usage(fmt.Errorf("unknown command %q", args[0]))
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// plain is the entry point of a command that starts no program, so needs
// no context.
func plain(run func(args []string, stdout, stderr io.Writer) error) func(context.Context, []string, io.Writer, io.Writer) error {
	return func(_ context.Context, args []string, stdout, stderr io.Writer) error {
		return run(args, stdout, stderr)
	}
}

var commands = map[string]command{
	"locate": {"print the owner node ID of each key", plain(runLocate)},
	"slot":   {"print the Redis Cluster hash slot of each key", plain(runSlot)},
	"move":   {"measure the fraction of keys that move on a resize", runMove},
	"spread": {"measure how evenly keys spread over nodes", runSpread},
	"plot":   {"draw the plots from a results directory", plain(runPlot)},
	"report": {"write the design-review report (REPORT.md) of a results directory", plain(runReport)},
	"storm":  {"derive a cache fleet's miss storm on a resize from the moved fraction", runStorm},

	"fleet": {"the miss storm of every planned change of a fleet profile", runFleet},

	"replication": {"measure replica-set movement and replica load at replication factor R", runReplication},
	"domains":     {"measure replicas against racks and zones: domain sharing, load per replica rank, what a rack or zone loss moves", runDomains},

	"load":       {"measure per-node request load under Zipf popularity or a request log", runLoad},
	"bounded":    {"measure the three forms of bounded loads (partition, key, request) against eps", plain(runBounded)},
	"algorithms": {"list the algorithms and the catalog's facts about each", plain(runAlgorithms)},

	"reference": {"reproduce the published reference values (PASS/FAIL per value)", plain(runReference)},

	"simulate":    {"replay a trace or a generated workload through a simulated cache fleet across membership changes", runSimulate},
	"trace":       {"read a trace and say what it holds: requests, keys, bytes, time span, operations, warnings", plain(runTrace)},
	"workload":    {"write a generated workload as a trace in any supported format", plain(runWorkload)},
	"conformance": {"give a placement (built-in, registered or exec:COMMAND) a verdict per property, PASS/FAIL", runConformance},
	"dump-diff":   {"compare a KEY<TAB>SERVER dump with a placement or another dump, or guess the placement closest to it", runDumpDiff},
	"switch":      {"measure what switching a fleet between two clients, proxies or algorithms costs its cache", plain(runSwitch)},
	"dialects":    {"list the dialects of real clients and proxies and the catalog's facts about each", plain(runDialects)},
	"propagate":   {"count requests routed by stale views while a membership change propagates to clients; -live: Redis redirects during a resharding", runPropagate},
}

// run is Run without a context, for tests: nothing interrupts it.
func run(args []string, stdout, stderr io.Writer) error {
	return Run(context.Background(), args, stdout, stderr)
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
