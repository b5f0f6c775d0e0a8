package catalog_test

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// Every registered algorithm, in the order every table and plot uses, with
// the movement promises the catalog records for it.
func ExampleNames() {
	for _, name := range catalog.Names() {
		in, err := catalog.Describe(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-10s vnodes=%-5t join-minimal=%-5t leave-minimal=%t\n", name, in.UsesVNodes, in.JoinMinimal, in.LeaveMinimal)
	}
	// Output:
	// modulo     vnodes=false join-minimal=false leave-minimal=false
	// ring       vnodes=true  join-minimal=true  leave-minimal=true
	// rendezvous vnodes=false join-minimal=true  leave-minimal=true
	// jump       vnodes=false join-minimal=true  leave-minimal=false
	// slots      vnodes=false join-minimal=false leave-minimal=false
	// bounded    vnodes=true  join-minimal=false leave-minimal=true
	// ketama     vnodes=false join-minimal=false leave-minimal=false
	// jumpback   vnodes=false join-minimal=true  leave-minimal=false
	// fliphash   vnodes=false join-minimal=true  leave-minimal=false
	// powerch    vnodes=false join-minimal=true  leave-minimal=false
	// binomial   vnodes=false join-minimal=true  leave-minimal=false
	// maglev     vnodes=false join-minimal=false leave-minimal=false
	// multiprobe vnodes=false join-minimal=true  leave-minimal=true
	// anchor     vnodes=false join-minimal=true  leave-minimal=true
	// memento    vnodes=false join-minimal=true  leave-minimal=true
	// dx         vnodes=false join-minimal=true  leave-minimal=true
	// crush      vnodes=false join-minimal=true  leave-minimal=true
}

// Build a placer by name and locate keys. The owners are those of
// "chbench locate -algo ring -nodes 5 -vnodes 100 user:1000 session:42
// {user1000}.followers".
func ExampleNew() {
	nodes, err := algorithms.DefaultNodes(5)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := catalog.DefaultConfig()
	cfg.VNodes = 100
	p, err := catalog.New("ring", nodes, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range []string{"user:1000", "session:42", "{user1000}.followers"} {
		fmt.Printf("%s -> %s\n", k, p.Locate(k))
	}
	// A bad setting is an error that names the value, before any work.
	cfg.VNodes = 0
	_, err = catalog.New("ring", nodes, cfg)
	fmt.Println(err)
	// Output:
	// user:1000 -> node-3
	// session:42 -> node-4
	// {user1000}.followers -> node-0
	// vnodes 0: need at least 1 virtual node per node
}
