// Command chbench-straw is chbench's whole command line with the straw
// placement of this module registered in chbench's catalog from outside
// it: every command takes -algo straw beside chbench's own algorithms,
// without forking chbench.
//
//	go run ./cmd/chbench-straw conformance -algo straw -keys 100000
//	go run ./cmd/chbench-straw move -algo ring,rendezvous,straw -from 10 -op add,remove-random
//	go run ./cmd/chbench-straw spread -algo straw -nodes 4 -weights 1,1,2,4
package main

import (
	"fmt"
	"os"

	"example.com/goplacer"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/cmd/chbench/command"
)

func main() {
	if err := catalog.Register(goplacer.Info); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(command.Main(os.Args[1:]))
}
