package report_test

import (
	"fmt"
	"strings"

	"github.com/chbench/chbench/report"
)

func ExampleParseProfile() {
	p, err := report.ParseProfile(strings.NewReader(`
name     = session cache
nodes    = 10..1000   # working size .. largest
replicas = 2
zipf     = 1.2
`), "myfleet.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d..%d nodes, R = %d, s = %g\n", p.Name, p.Nodes, p.MaxNodes, p.Replicas, p.Zipf)

	_, err = report.ParseProfile(strings.NewReader("replicas = 7\n"), "bad.txt")
	fmt.Println(err)
	// Output:
	// session cache: 10..1000 nodes, R = 2, s = 1.2
	// bad.txt:1: replicas = "7": want a replication factor 1..5
}
