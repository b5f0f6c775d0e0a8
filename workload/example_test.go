package workload_test

import (
	"fmt"
	"os"
	"time"

	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// A seeded Zipf workload written as a Twitter cache trace: input for
// another tool, the same bytes on every machine.
func Example() {
	w, err := workload.New(workload.Config{
		Keys: 1000, Zipf: 0.99, Requests: 5, Rate: 2, Seed: 42, Clients: 2,
		Values: workload.Sizes{Kind: workload.LogNormal, Median: 230, Sigma: 1, Min: 1, Max: 1 << 20},
		Ops:    []workload.OpShare{{Op: trace.OpGet, Share: 0.8}, {Op: trace.OpSet, Share: 0.2}},
		TTLs:   []workload.TTLShare{{TTL: time.Hour, Share: 1}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	tw, err := trace.NewWriter(os.Stdout, trace.Twitter)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := trace.Copy(tw, w); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 0,user:e56002fb142c56d7,21,87,1,get,0
	// 0,user:969f3692a7b1d637,21,810,0,set,3600
	// 1,user:e56002fb142c56d7,21,87,1,get,0
	// 1,user:51669c61edcd7c8f,21,135,1,set,3600
	// 2,user:6afb1ef1547ee4b4,21,1628,0,get,0
}
