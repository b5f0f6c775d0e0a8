package report_test

import (
	"fmt"
	"strings"

	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/report"
)

func ExampleFromFleet() {
	fp, err := fleet.Parse(strings.NewReader(`
name = "session cache"
nodes = 10
replicas = 2

[traffic]
zipf = 1.2

[[change]]
name = "growth"
grow_to = 1000
`), "myfleet.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	p := report.FromFleet(fp)
	fmt.Printf("%s: %d..%d nodes, R = %d, s = %g\n", p.Name, p.Nodes, p.MaxNodes, p.Replicas, p.Zipf)

	_, err = fleet.Parse(strings.NewReader("replicas = 7\n"), "bad.toml")
	fmt.Println(err)
	// Output:
	// session cache: 10..1000 nodes, R = 2, s = 1.2
	// bad.toml:1: replicas = 7: want a replication factor 1..5
}
