package analysis

import (
	"fmt"

	"github.com/chbench/chbench/algorithms/catalog"
)

// EachConfig calls fn with the options of every algorithm, hash and vnodes
// configuration of s (ignoring s.Nodes and s.Ops), in the order SweepSpread
// and SweepMove use: algos outermost, then hashes, then vnodes (varied only
// for algorithms that use them; others run once with o.Config.VNodes). A
// placement opened by the caller (Options.Opened) runs once, with the
// first hash and vnodes: it reads neither. Callers use it to run one explicit membership or resize for every
// configuration. It stops at the first error, naming the configuration.
func (s Sweep) EachConfig(o Options, fn func(o Options) error) error {
	for _, a := range orOne(s.Algos, o.Algo) {
		hs := orOne(s.Hashes, o.Config.Hash)
		if _, ok := o.Opened[a]; ok {
			hs = hs[:1]
		}
		for _, h := range hs {
			vs := orOne(s.VNodes, o.Config.VNodes)
			if !catalog.UsesVNodes(a) {
				vs = []int{o.Config.VNodes}
			}
			for _, v := range vs {
				c := o
				c.Algo, c.Config.Hash, c.Config.VNodes = a, h, v
				if err := fn(c); err != nil {
					return fmt.Errorf("%s hash=%s vnodes=%d: %w", a, h, v, err)
				}
			}
		}
	}
	return nil
}
