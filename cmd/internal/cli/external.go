package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/schema"
)

// registerExec adds -exec-timeout and -exec-batch, the settings of the
// programs an -algo list names as exec:COMMAND, to fs.
func registerExec(fs *flag.FlagSet, c *external.Config) {
	fs.DurationVar(&c.Timeout, "exec-timeout", external.DefaultTimeout, "exec: placements: the deadline of each reply of the program (a membership, or a batch of -exec-batch keys); it is killed when one is late")
	fs.IntVar(&c.Batch, "exec-batch", external.DefaultBatch, fmt.Sprintf("exec: placements: keys per locate request, 1 to %d", external.MaxBatch))
}

// RegisterExec adds -exec-timeout and -exec-batch to fs, for a command
// whose placement list takes exec:COMMAND entries.
func (p *Placement) RegisterExec(fs *flag.FlagSet) { registerExec(fs, &p.Exec) }

// CheckExec returns an error naming -exec-timeout or -exec-batch when out
// of range.
func (p *Placement) CheckExec() error { return checkExec(p.Exec) }

// checkExec returns an error naming -exec-timeout or -exec-batch when
// out of range.
func checkExec(c external.Config) error {
	if c.Timeout <= 0 {
		return fmt.Errorf("-exec-timeout %v: need a deadline > 0", c.Timeout)
	}
	if c.Batch < 1 || c.Batch > external.MaxBatch {
		return fmt.Errorf("-exec-batch %d: need 1 to %d keys per request", c.Batch, external.MaxBatch)
	}
	return nil
}

// AlgoHelp is the help of an -algo flag that takes placements in other
// processes too.
const AlgoHelp = "; exec:COMMAND runs COMMAND (sh -c) as a placement speaking chbench's protocol (docs/protocol.md), labelled by the name it gives: it takes the rest of the list up to the next \",exec:\", so put it last"

// ParseAlgos splits an -algo list into its entries, in order: catalog
// names and groups ("all", "dialects"; catalog.ParseNames), then programs
// speaking the external protocol, each external.Prefix + a shell command
// (see [SplitExec]). The error names an unknown name, an empty command,
// or an entry listed twice.
func ParseAlgos(s string) ([]string, error) {
	head, execs, err := SplitExec(s)
	if err != nil {
		return nil, err
	}
	var out []string
	if head != "" {
		if out, err = catalog.ParseNames(head); err != nil {
			return nil, err
		}
	}
	out = append(out, execs...)
	return out, NoDuplicates("algo", out)
}

// SplitExec splits an -algo list into its head, the comma-separated names
// before the first exec: entry ("" when there are none), and its programs,
// each external.Prefix + a shell command that takes the rest of the list
// up to the next ",exec:" (a command may hold commas), so names come
// first. The error names an empty command.
func SplitExec(s string) (head string, execs []string, err error) {
	parts := strings.Split(s, ",")
	first := slices.IndexFunc(parts, isExec)
	if first < 0 {
		return s, nil, nil
	}
	for _, p := range parts[first:] {
		if isExec(p) {
			execs = append(execs, strings.TrimSpace(p))
		} else {
			execs[len(execs)-1] += "," + p
		}
	}
	for _, a := range execs {
		if cmd, _ := external.Parse(a); strings.TrimSpace(cmd.Command) == "" {
			return "", nil, fmt.Errorf("algo %q: %s needs a command, e.g. 'exec:python3 examples/python/ring.py'", s, external.Prefix)
		}
	}
	return strings.Join(parts[:first], ","), execs, nil
}

// ExecCommands are the commands whose -algo takes exec: placements, as
// NoExec names them.
const ExecCommands = "move, spread, replication, domains, storm, load, simulate, conformance and dump-diff"

// NoExec returns an error when the list value of -flag holds an exec:
// entry, which command does not take: it says so, why (one clause), and
// which commands do take them, instead of catalog.ParseNames' unknown
// name and its list of every catalog name. It returns nil for a list of
// names. A command calls it before it reads the list as catalog names.
func NoExec(command, flag, value, why string) error {
	if !slices.ContainsFunc(strings.Split(value, ","), isExec) {
		return nil
	}
	return fmt.Errorf("%s does not take exec: placements (-%s %q): %s; %s take them", command, flag, value, why, ExecCommands)
}

// isExec reports whether an entry of an -algo list begins a program.
func isExec(entry string) bool { return strings.HasPrefix(strings.TrimSpace(entry), external.Prefix) }

// Programs is the running programs of an -algo list: their Builders by the
// name each gave in its handshake (analysis.Options.Opened).
type Programs struct {
	Opened map[string]catalog.Builder
	order  []catalog.Builder
}

// Close stops every program (external.Process.Close: standard input
// closed, then the process group killed) and returns their errors,
// joined. It is safe to call more than once.
func (p *Programs) Close() error {
	if p == nil {
		return nil
	}
	var errs []error
	for _, b := range p.order {
		errs = append(errs, b.Close())
	}
	p.order = nil
	return errors.Join(errs...)
}

// OpenPrograms starts, under ctx (whose end kills them: the command
// line's interrupt), the program of every exec: entry of algos
// (ParseAlgos) with the settings of cfg, and returns algos with each such
// entry replaced by the name the program gave in its handshake, and the
// running programs. A name must be a label (schema.IsLabel: it names
// benchmark results and plot files), not a catalog name and not another
// program's: rows are told apart by name. On an error, which names the
// command, every program started is stopped; the programs are the caller's
// to Close otherwise.
func OpenPrograms(ctx context.Context, algos []string, cfg external.Config) ([]string, *Programs, error) {
	ps := &Programs{Opened: map[string]catalog.Builder{}}
	out := make([]string, len(algos))
	for i, a := range algos {
		if _, ok := external.Parse(a); !ok {
			out[i] = a
			continue
		}
		b, err := catalog.Open(ctx, a, catalog.Config{}, cfg)
		if err != nil {
			ps.Close()
			return nil, nil, fmt.Errorf("-algo %s: %w", a, err)
		}
		ps.order = append(ps.order, b)
		name := b.Name()
		switch _, known := catalog.Describe(name); {
		case !schema.IsLabel(name):
			err = fmt.Errorf("its handshake names it %q, which cannot label results (%s): rename it in its hello reply", name, schema.LabelRule)
		case known == nil:
			err = fmt.Errorf("its handshake names it %q, a catalog name: its rows would be mixed with chbench's %s; give it a name of its own (e.g. my-%s)", name, name, name)
		case ps.Opened[name] != nil:
			err = fmt.Errorf("its handshake names it %q, as another program of -algo does: give each its own name", name)
		}
		if err != nil {
			ps.Close()
			return nil, nil, fmt.Errorf("-algo %s: %w", a, err)
		}
		ps.Opened[name] = b
		out[i] = name
	}
	return out, ps, nil
}

// CloseInto closes the programs (Close) and stores the error in *err
// unless it holds one already: deferred by a command with a named error
// result, so that a program that would not stop is reported too.
func (p *Programs) CloseInto(err *error) {
	if cerr := p.Close(); *err == nil && cerr != nil {
		*err = fmt.Errorf("stopping the exec: placements: %w", cerr)
	}
}
