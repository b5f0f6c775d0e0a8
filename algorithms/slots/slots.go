// Package slots: STUB, to be replaced.
package slots

import "github.com/chbench/chbench/algorithms"

const Name = "slots"

func New(nodes []algorithms.Node) (algorithms.Placer, error) { panic("todo") }
