package analysis

import (
	"errors"
	"io"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// The measures reach the placement of o.Algo through these methods, so
// that a placement the caller opened (Options.Opened: a program speaking
// the external protocol) enters every measure where a catalog algorithm
// does.

// opened returns the Builder the caller opened for o.Algo, if any.
func (o Options) opened() (catalog.Builder, bool) {
	b, ok := o.Opened[o.Algo]
	return b, ok
}

// info returns the catalog entry of o.Algo (catalog.Describe), or of the
// placement opened under that name (catalog.InfoOf); an unknown name is
// Describe's error.
func (o Options) info() (catalog.Info, error) {
	if b, ok := o.opened(); ok {
		return catalog.InfoOf(b), nil
	}
	return catalog.Describe(o.Algo)
}

// newLocator builds the placement of o.Algo on nodes from nothing:
// catalog.NewLocator with cfg, or the opened Builder's New (which ignores
// cfg).
func (o Options) newLocator(nodes []algorithms.Node, cfg catalog.Config) (algorithms.Locator, error) {
	if b, ok := o.opened(); ok {
		return b.New(nodes)
	}
	return catalog.NewLocator(o.Algo, nodes, cfg)
}

// checkNodes returns the error newLocator would return for nodes, without
// building what is expensive to build: catalog.Check, or for an opened
// placement catalog.CheckNodes (nothing is sent to a program).
func (o Options) checkNodes(nodes []algorithms.Node, cfg catalog.Config) error {
	if b, ok := o.opened(); ok {
		return catalog.CheckNodes(b, nodes)
	}
	return catalog.Check(o.Algo, nodes, cfg)
}

// externalNodeBytes is what chbench's side of an external placement holds
// per node: the node, its escaped ID and its entry in the ID index.
const externalNodeBytes = 96

// estimate returns what building the placement of o.Algo on nodes
// allocates in this process: catalog.Estimate, or for an opened placement
// chbench's side of it (the program's own memory is not ours to budget).
func (o Options) estimate(nodes []algorithms.Node, cfg catalog.Config) (catalog.Cost, error) {
	if _, ok := o.opened(); ok {
		return catalog.Cost{Bytes: int64(len(nodes)) * externalNodeBytes, How: "chbench's side of an external placement"}, nil
	}
	return catalog.Estimate(o.Algo, nodes, cfg)
}

// checkBudget returns catalog.CheckBudget's error for a catalog algorithm
// (an opened placement's memory lives in its own process).
func (o Options) checkBudget(nodes []algorithms.Node, cfg catalog.Config) error {
	if _, ok := o.opened(); ok {
		return nil
	}
	return catalog.CheckBudget(o.Algo, nodes, cfg)
}

// release closes the Locators a measure built and no longer needs: the
// ones that hold something outside the process implement io.Closer (an
// external membership, dropped in the program; see algorithms.Locator).
// Closing one twice does nothing. It returns the errors of the closes,
// joined.
func release(ls ...algorithms.Locator) error {
	var errs []error
	for _, l := range ls {
		if c, ok := l.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}
