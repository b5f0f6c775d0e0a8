package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// AllExcept returns [Names] without the algorithms of excluded, a
// comma-separated list of entries "-NAME" (the tail of "all,-crush"): a
// sweep over every algorithm but those whose cost grows too fast for it
// (crush's O(n) lookup on a grid to 10,000 nodes). It returns an error
// naming an entry without the leading "-", a name [Names] does not list,
// a name given twice, or a list that leaves no algorithm.
func AllExcept(excluded string) ([]string, error) {
	var drop []string
	for _, e := range strings.Split(excluded, ",") {
		e = strings.TrimSpace(e)
		name, ok := strings.CutPrefix(e, "-")
		if !ok {
			return nil, fmt.Errorf("algorithm list \"all,%s\": entry %q: after all, give only algorithms to leave out, as -NAME", excluded, e)
		}
		if !slices.Contains(Names(), name) {
			return nil, fmt.Errorf("algorithm list \"all,%s\": %q is not a listed algorithm (listed: %s)", excluded, name, strings.Join(Names(), ", "))
		}
		if slices.Contains(drop, name) {
			return nil, fmt.Errorf("algorithm list \"all,%s\": %q is left out twice", excluded, name)
		}
		drop = append(drop, name)
	}
	var out []string
	for _, n := range Names() {
		if !slices.Contains(drop, n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("algorithm list \"all,%s\" leaves no algorithm", excluded)
	}
	return out, nil
}
