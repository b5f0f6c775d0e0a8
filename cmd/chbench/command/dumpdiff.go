package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/chbench/chbench/internal/inputs"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/dump"
	"github.com/chbench/chbench/internal/escape"
	"github.com/chbench/chbench/schema"
)

// The row sets of dump-diff -rows (the table shows them all).
const (
	rowsSummary    = "summary"
	rowsMatrix     = "matrix"
	rowsMismatches = "mismatches"
)

// dumpFlags are the flags of chbench dump-diff.
type dumpFlags struct {
	p          cli.Placement
	out        cli.Output
	nodeIDs    string
	weights    string
	labels     string
	against    string
	guess      bool
	guessKeys  int
	top        int
	mismatches int
	rows       string
	commit     string
	path       string
	ccfg       catalog.Config
}

func (d *dumpFlags) register(fs *flag.FlagSet) {
	d.p.Register(fs, "the placement to compare the dump with: a catalog or registered name"+cli.AlgoHelp)
	d.p.RegisterExec(fs)
	fs.StringVar(&d.nodeIDs, "node-ids", "", "-algo: the placement's membership, comma-separated node IDs in order (default: the dump's servers in order of first appearance, in the form of -labels)")
	fs.StringVar(&d.weights, "weights", "", "-algo with -node-ids: comma-separated node weights > 0 (default all 1)")
	fs.StringVar(&d.labels, "labels", "as given", "-algo: the form in which the dump's server names are compared with the placement's node IDs: "+strings.Join(dump.LabelForms, ", ")+" (host:11211 makes the dump's 10.0.0.1 the node 10.0.0.1:11211)")
	fs.StringVar(&d.against, "against", "", "compare with this second dump instead of a placement (both list the same keys in the same order, or both are sorted: LC_ALL=C sort)")
	fs.BoolVar(&d.guess, "guess", false, "rank chbench's placements (every catalog algorithm, key hash, label form and membership order) by how well they reproduce the dump")
	fs.IntVar(&d.guessKeys, "guess-keys", 20000, "-guess: the dump's first records tried, 1 to 1,000,000")
	fs.IntVar(&d.top, "top", 10, "-guess: the candidates shown, best first")
	fs.IntVar(&d.mismatches, "mismatches", dump.DefaultMismatches, "the first mismatches shown with their key hashes (0: none)")
	fs.StringVar(&d.rows, "rows", rowsSummary, "with -format csv or json: which rows: summary (the agreement), matrix (from -> to cells) or mismatches")
	fs.StringVar(&d.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
	d.out.Register(fs, schema.FormatTable, schema.FormatCSV, schema.FormatJSON)
}

// parse checks every flag before the dump is read; every error is a usage
// error.
func (d *dumpFlags) parse(fs *flag.FlagSet, args []string) error {
	set, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.Args(fs, 1, "one dump file (KEY<TAB>SERVER lines)"); err != nil {
		return err
	}
	d.path = fs.Arg(0)
	inputs.Add(d.path) // the dump is an input: no -o file may replace it
	modes := 0
	for _, on := range []bool{d.p.Algo != "", d.against != "", d.guess} {
		if on {
			modes++
		}
	}
	switch {
	case modes != 1:
		return errors.New("give one of -algo NAME (compare with a placement), -against DUMP (with another dump) and -guess (find the closest placement)")
	case (d.nodeIDs != "" || d.weights != "" || set["labels"]) && d.p.Algo == "":
		return errors.New("-node-ids, -weights and -labels describe the placement of -algo")
	case d.weights != "" && d.nodeIDs == "":
		return errors.New("-weights needs -node-ids")
	case !slices.Contains(dump.LabelForms, d.labels):
		return fmt.Errorf("-labels %q: want one of %s", d.labels, strings.Join(dump.LabelForms, ", "))
	case !slices.Contains([]string{rowsSummary, rowsMatrix, rowsMismatches}, d.rows):
		return fmt.Errorf("-rows %q: want summary, matrix or mismatches", d.rows)
	case d.mismatches < 0:
		return fmt.Errorf("-mismatches %d: give 0 or more", d.mismatches)
	case d.guessKeys < 1 || d.guessKeys > 1000000:
		return fmt.Errorf("-guess-keys %d: need 1 to 1000000", d.guessKeys)
	case d.top < 1:
		return fmt.Errorf("-top %d: need at least 1", d.top)
	}
	if d.p.Algo != "" {
		algos, err := cli.ParseAlgos(d.p.Algo)
		if err != nil {
			return err
		}
		if len(algos) != 1 {
			return fmt.Errorf("-algo %q: dump-diff compares with one placement", d.p.Algo)
		}
	}
	if err := d.p.CheckExec(); err != nil {
		return err
	}
	if err := d.out.Check(schema.FormatTable, schema.FormatCSV, schema.FormatJSON); err != nil {
		return err
	}
	d.ccfg = d.p.Config()
	if d.commit == "" {
		d.commit = cli.Revision()
	}
	return d.ccfg.Validate()
}

// runDumpDiff compares a key dump with a placement or a second dump, or
// ranks the placements closest to it (package dump), and writes the
// result as text or as rows of schema.DumpDiff, DumpCell, DumpMismatch or
// DumpGuess.
func runDumpDiff(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var d dumpFlags
	fs := cli.NewFlagSet("dump-diff", "(-algo NAME|exec:COMMAND [-node-ids IDS] [-labels FORM] | -against DUMP2 | -guess) [flags] DUMP", stderr)
	d.register(fs)
	if err := d.parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	run := schema.Config{GoVersion: runtime.Version(), Commit: d.commit, Sets: 1}
	switch {
	case d.guess:
		return d.runGuess(stdout, run)
	case d.against != "":
		c, err := withDumps(d.path, d.against, func(a, b *dump.Reader) (*dump.Comparison, error) {
			return dump.CompareDumps(a, b, dump.Options{Mismatches: d.keep()})
		})
		if err != nil {
			return err
		}
		return d.write(stdout, c, run)
	}
	return d.runPlacement(ctx, stdout, run)
}

// keep returns dump.Options.Mismatches for -mismatches.
func (d *dumpFlags) keep() int {
	if d.mismatches == 0 {
		return -1
	}
	return d.mismatches
}

// runPlacement compares the dump with the placement of -algo on the
// membership of -node-ids or of the dump's servers.
func (d *dumpFlags) runPlacement(ctx context.Context, stdout io.Writer, run schema.Config) (err error) {
	nodes, err := d.membership()
	if err != nil {
		return err
	}
	b, err := catalog.Open(ctx, d.p.Algo, d.ccfg, d.p.Exec)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := b.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	loc, err := b.New(nodes)
	if err != nil {
		return err
	}
	if c, ok := loc.(io.Closer); ok {
		defer c.Close()
	}
	c, err := withDumps(d.path, "", func(a, _ *dump.Reader) (*dump.Comparison, error) {
		return dump.Compare(a, loc, dump.Options{Mismatches: d.keep(), Labels: d.labels})
	})
	if err != nil {
		return err
	}
	run.Algo = b.Name()
	if catalog.UsesHash(d.p.Algo) {
		run.Hash = algorithms.MustHash(d.ccfg.Hash).Name()
	}
	return d.write(stdout, c, run)
}

// membership returns the nodes of -node-ids and -weights, or else the
// dump's distinct servers in the form of -labels, in order of first
// appearance, each of weight 1 (a first pass over the dump).
func (d *dumpFlags) membership() ([]algorithms.Node, error) {
	var nodes []algorithms.Node
	if d.nodeIDs != "" {
		for _, id := range strings.Split(d.nodeIDs, ",") {
			nodes = append(nodes, algorithms.Node{ID: strings.TrimSpace(id), Weight: 1})
		}
		if d.weights != "" {
			ws, err := algorithms.ParseWeights(d.weights)
			if err != nil {
				return nil, cli.Usage(err)
			}
			if len(ws) != len(nodes) {
				return nil, cli.Usage(fmt.Errorf("-weights has %d entries for %d nodes", len(ws), len(nodes)))
			}
			for i := range nodes {
				nodes[i].Weight = ws[i]
			}
		}
		return nodes, cli.Usage(algorithms.ValidateNodes(nodes))
	}
	_, err := withDumps(d.path, "", func(a, _ *dump.Reader) (*dump.Comparison, error) {
		seen := map[string]bool{}
		for a.Scan() {
			s := dump.Label(a.Record().Server, d.labels)
			if !seen[s] {
				if len(nodes) == algorithms.MaxNodes {
					return nil, fmt.Errorf("%s: more than %d distinct servers", d.path, algorithms.MaxNodes)
				}
				seen[s] = true
				nodes = append(nodes, algorithms.Node{ID: s, Weight: 1})
			}
		}
		return nil, a.Err()
	})
	if err != nil {
		return nil, err
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("%s: the servers of the dump as a membership: %w", d.path, err)
	}
	return nodes, nil
}

// withDumps opens the dump files a and (unless "") b and calls f with
// their readers.
func withDumps(a, b string, f func(a, b *dump.Reader) (*dump.Comparison, error)) (*dump.Comparison, error) {
	fa, err := openDump(a)
	if err != nil {
		return nil, err
	}
	defer fa.Close()
	var rb *dump.Reader
	if b != "" {
		fb, err := openDump(b)
		if err != nil {
			return nil, err
		}
		defer fb.Close()
		rb = dump.NewReader(fb, b)
	}
	return f(dump.NewReader(fa, a), rb)
}

// openDump opens a dump: a regular file (it may be read twice).
func openDump(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%v): a dump is read from disk", path, fi.Mode().Type())
	}
	return os.Open(path)
}

// write writes comparison c as text, or as the rows of -rows.
func (d *dumpFlags) write(stdout io.Writer, c *dump.Comparison, run schema.Config) error {
	run.Keys = c.Keys
	labels := d.labels
	if d.against != "" {
		labels = ""
	}
	return cli.WriteEach(stdout, d.out.Out, d.out.Formats, func(format string, w io.Writer) error {
		switch {
		case format == schema.FormatTable:
			return c.WriteText(w)
		case d.rows == rowsMatrix:
			var rows []schema.DumpCell
			for _, cell := range c.Matrix {
				rows = append(rows, schema.DumpCell{Dump: c.A, Against: c.B, From: token(cell.From), To: token(cell.To), Count: cell.Keys, Config: run})
			}
			return schema.Write(w, format, rows, nil)
		case d.rows == rowsMismatches:
			var rows []schema.DumpMismatch
			for _, m := range c.Mismatches {
				var hs []string
				for _, h := range m.Hashes {
					hs = append(hs, fmt.Sprintf("%s=%#x", h.Name, h.Value))
				}
				rows = append(rows, schema.DumpMismatch{Dump: c.A, Against: c.B, Line: m.Line, Key: token(m.Key), A: token(m.A), B: token(m.B),
					Hashes: strings.Join(hs, " "), Config: run})
			}
			return schema.Write(w, format, rows, nil)
		}
		row := schema.DumpDiff{Dump: c.A, Against: c.B, Agree: c.Agree, Agreement: c.Agreement, AgreementLo: c.Lo, AgreementHi: c.Hi,
			OnlyA: c.OnlyA, OnlyB: c.OnlyB, Labels: labels, Config: run}
		return schema.Write(w, format, []schema.DumpDiff{row}, nil)
	})
}

// runGuess ranks chbench's placements by their agreement with the dump.
func (d *dumpFlags) runGuess(stdout io.Writer, run schema.Config) error {
	f, err := openDump(d.path)
	if err != nil {
		return err
	}
	defer f.Close()
	cfg := d.ccfg
	g, err := dump.Guess(dump.NewReader(f, d.path), dump.GuessOptions{Keys: d.guessKeys, Top: d.top, Config: &cfg})
	if err != nil {
		return err
	}
	return cli.WriteEach(stdout, d.out.Out, d.out.Formats, func(format string, w io.Writer) error {
		if format == schema.FormatTable {
			return g.WriteText(w)
		}
		rows := make([]schema.DumpGuess, len(g.Best))
		for i, c := range g.Best {
			r := run
			r.Algo, r.Hash, r.Keys = c.Algorithm, c.Hash, g.Keys
			rows[i] = schema.DumpGuess{Dump: g.Name, Rank: i + 1, Labels: c.Labels, Order: c.Order, Servers: len(g.Servers),
				Agree: c.Agree, Agreement: c.Agreement, AgreementLo: c.Lo, AgreementHi: c.Hi, Config: r}
		}
		return schema.Write(w, format, rows, nil)
	})
}

// token returns s in the dump's escaping, for a printable cell.
func token(s string) string { return string(escape.Append(nil, s)) }
