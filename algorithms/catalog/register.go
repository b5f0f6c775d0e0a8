package catalog

import (
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/chbench/chbench/algorithms"
)

// registered holds the placements added by Register, after the built-in
// ones in every listing, in the order they were registered.
var registered struct {
	sync.RWMutex
	infos []Info
}

// validName is the form of a registered name: it appears in flags, comma
// lists, benchmark names and file names.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)

// Register adds a placement built outside chbench (in the user's own Go
// module) to the catalog, so that [Names], [Describe], [New], [Check] and
// [Open] (and with them every command, analysis and the conformance
// suite) take it by name like a built-in algorithm. Call it from an init
// function or at the start of main, before the catalog is used.
//
// in.Build must be set: it builds the placement of a membership that
// [algorithms.ValidateNodes] accepted, with cfg validated; it should
// return an error naming what it cannot place (unequal weights, too many
// nodes). in.Name must be 1 to 64 letters, digits and "._+-", starting
// with a letter or digit, and not a built-in or registered name, nor
// "all". The promises in in (Weighted, Ordered, Stateful, JoinMinimal,
// LeaveMinimal, LeavePolicy) are what reports print and the conformance
// suite checks; Family defaults to "registered". A registered placement
// has no memory estimate: the budget check (Config.MemoryBudget) does not
// apply to it. Register returns an error naming the bad field.
func Register(in Info) error {
	if !validName.MatchString(in.Name) || in.Name == "all" {
		return fmt.Errorf("register %q: a name is 1 to 64 letters, digits and ._+- starting with a letter or digit, and not \"all\"", in.Name)
	}
	if in.Build == nil {
		return fmt.Errorf("register %q: Build is nil: a registered placement needs its constructor", in.Name)
	}
	if in.Family == "" {
		in.Family = "registered"
	}
	build := in.Build
	in.build = func(nodes []algorithms.Node, cfg Config, _ algorithms.Hash) (algorithms.Placer, error) {
		p, err := build(nodes, cfg)
		if err == nil && p == nil {
			err = errors.New("Build returned no placement and no error")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		return p, nil
	}
	in.cost, in.check = nil, nil
	registered.Lock()
	defer registered.Unlock()
	if _, ok := describe(in.Name); ok {
		return fmt.Errorf("register %q: the name is taken", in.Name)
	}
	registered.infos = append(registered.infos, in)
	return nil
}

// describe is Describe with registered held (for reading or writing).
func describe(name string) (Info, bool) {
	for _, list := range [][]Info{infos, staged, dialectInfos} {
		for _, in := range list {
			if in.Name == name {
				return in, true
			}
		}
	}
	for _, in := range registered.infos {
		if in.Name == name {
			return in, true
		}
	}
	return Info{}, false
}
