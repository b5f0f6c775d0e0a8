package catalog

import (
	"context"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/external"
)

// A Builder builds the placements of one named algorithm from nothing, one
// membership at a time, whatever runs it: chbench's own code, a placement
// added by [Register], or a program speaking the external protocol. Its
// Locators are what measures and the conformance suite take.
type Builder interface {
	// Name returns the placement's name: the catalog name, or the name an
	// external program gave in its handshake.
	Name() string
	// Facts returns the placement's promises.
	Facts() algorithms.Facts
	// New returns the placement of nodes, built from nothing (not derived
	// from an earlier membership), with the errors of [New] or of
	// external.Process.New.
	New(nodes []algorithms.Node) (algorithms.Locator, error)
	// Close releases what the Builder holds: it stops an external
	// program (nothing for the others). Locators of a closed Builder fail.
	Close() error
}

// Open returns the Builder of name: a catalog algorithm (built in or
// registered) configured by cfg, or, for a name external.Prefix + command,
// that command started as a program under ctx, which kills it when done.
// exec is the template of such a program: its Timeout, Batch, Dir and Env
// apply (the zero value takes the external package's defaults) and its
// command comes from the name; it is ignored for catalog names. Open
// returns an error for an unknown name, an invalid cfg, or a program that
// does not start or fails its handshake. The caller must Close the
// Builder.
func Open(ctx context.Context, name string, cfg Config, exec external.Config) (Builder, error) {
	if ec, ok := external.Parse(name); ok {
		exec.Command, exec.Args = ec.Command, nil
		p, err := external.Start(ctx, exec)
		if err != nil {
			return nil, err
		}
		return processBuilder{p}, nil
	}
	in, err := Describe(name)
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return placerBuilder{in: in, cfg: cfg, bits: algorithms.MustHash(cfg.Hash).Bits()}, nil
}

type placerBuilder struct {
	in   Info
	cfg  Config
	bits int
}

func (b placerBuilder) Name() string            { return b.in.Name }
func (b placerBuilder) Facts() algorithms.Facts { return b.in.Facts() }
func (b placerBuilder) Close() error            { return nil }

func (b placerBuilder) New(nodes []algorithms.Node) (algorithms.Locator, error) {
	p, err := New(b.in.Name, nodes, b.cfg)
	if err != nil {
		return nil, err
	}
	return algorithms.AsLocator(p, b.bits), nil
}

type processBuilder struct{ p *external.Process }

func (b processBuilder) Name() string            { return b.p.Name() }
func (b processBuilder) Facts() algorithms.Facts { return b.p.Facts() }
func (b processBuilder) Close() error            { return b.p.Close() }

func (b processBuilder) New(nodes []algorithms.Node) (algorithms.Locator, error) {
	l, err := b.p.New(nodes)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Process returns the external program behind a Builder that Open started,
// and false for any other Builder.
func Process(b Builder) (*external.Process, bool) {
	pb, ok := b.(processBuilder)
	return pb.p, ok
}

// ExternalFamily is the [Info.Family] of a program speaking the external
// protocol (see [InfoOf]).
const ExternalFamily = "external"

// InfoOf returns the catalog entry of the placement b builds: the
// algorithm's own [Info] for a catalog algorithm, and for an external
// program an entry named by its handshake, of [ExternalFamily], whose
// Source is the command and whose promises are those of its handshake
// (Weighted, Ordered, Stateful; Removal says which nodes may leave, and a
// program that declared leave=last has the LeavePolicy "leave=last", so
// that rows where another node leaves say so in their label). An
// external entry has no Build and no memory estimate: it is built only
// through b, and its memory is the program's.
func InfoOf(b Builder) Info {
	switch b := b.(type) {
	case placerBuilder:
		return b.in
	case processBuilder:
		f := b.p.Facts()
		in := Info{Name: b.p.Name(), Family: ExternalFamily, Lookup: "(its own)", Memory: "(in its process)",
			Removal: "any (declared)", Weights: "no", Source: external.Prefix + b.p.Command(),
			Weighted: f.Weighted, Ordered: f.Ordered, Stateful: f.Stateful}
		if f.OnlyLastLeaves {
			in.Removal, in.LeavePolicy = "last only (declared)", "leave=last"
		}
		if f.Weighted {
			in.Weights = "yes (declared)"
		}
		return in
	}
	f := b.Facts()
	return Info{Name: b.Name(), Family: ExternalFamily, Weighted: f.Weighted, Ordered: f.Ordered, Stateful: f.Stateful}
}

// CheckNodes returns the error b.New(nodes) returns before anything is
// built or sent: [Check] of the algorithm with b's configuration for a
// catalog algorithm, external.Process.Check for a program (a membership
// algorithms.ValidateNodes refuses, or unequal weights for one that
// declared weighted=no). A program may still refuse a membership when it
// is sent.
func CheckNodes(b Builder, nodes []algorithms.Node) error {
	switch b := b.(type) {
	case placerBuilder:
		return Check(b.in.Name, nodes, b.cfg)
	case processBuilder:
		return b.p.Check(nodes)
	}
	return algorithms.ValidateNodes(nodes)
}
