package catalog

import (
	"slices"
	"strings"
	"testing"
)

// "all,-NAME,..." is every listed algorithm but those, in catalog order;
// a bad entry is an error naming it.
func TestAllExcept(t *testing.T) {
	got, err := ParseNames("all,-crush,-modulo")
	if err != nil {
		t.Fatal(err)
	}
	want := slices.DeleteFunc(slices.Clone(Names()), func(n string) bool { return n == "crush" || n == "modulo" })
	if !slices.Equal(got, want) || len(got) != len(Names())-2 {
		t.Errorf("ParseNames(all,-crush,-modulo) = %v, want %v", got, want)
	}
	for in, msg := range map[string]string{
		"all,ring":          `entry "ring"`,
		"all,-nope":         `"nope" is not a listed algorithm`,
		"all,-ring,-ring":   `"ring" is left out twice`,
		"all,-":             `"" is not a listed algorithm`,
		"all," + allMinus(): "leaves no algorithm",
	} {
		if _, err := ParseNames(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseNames(%q) = %v, want an error containing %q", in, err, msg)
		}
	}
}

// allMinus returns "-a,-b,..." for every listed algorithm.
func allMinus() string {
	var parts []string
	for _, n := range Names() {
		parts = append(parts, "-"+n)
	}
	return strings.Join(parts, ",")
}
