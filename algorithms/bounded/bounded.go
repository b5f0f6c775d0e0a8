// Package bounded: STUB, to be replaced.
package bounded

import "github.com/chbench/chbench/algorithms"

const (
	Name              = "bounded"
	DefaultEps        = 0.25
	DefaultPartitions = 16384
)

func New(nodes []algorithms.Node, vnodes int, eps float64, partitions int, h algorithms.Hash) (algorithms.Placer, error) {
	panic("todo")
}
