package slots_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/slots"
)

// specKeyHashSlot is the specification's keyHashSlot read literally: find
// the first '{'; if there is one, find the first '}' after it; if there is
// one and at least one byte lies between them, hash only those bytes;
// otherwise hash the whole key. The slot is the CRC-16 modulo 16384.
func specKeyHashSlot(key []byte) int {
	s := -1
	for i := 0; i < len(key); i++ {
		if key[i] == '{' {
			s = i
			break
		}
	}
	if s == -1 {
		return int(slots.SpecCRC16(key)) % 16384
	}
	e := -1
	for i := s + 1; i < len(key); i++ {
		if key[i] == '}' {
			e = i
			break
		}
	}
	if e == -1 || e == s+1 {
		return int(slots.SpecCRC16(key)) % 16384
	}
	return int(slots.SpecCRC16(key[s+1:e])) % 16384
}

// The reference implementation agrees with the specification's examples
// (and chbench's REFERENCES.md vectors) before it is trusted as the oracle.
func TestSpecReferenceVectors(t *testing.T) {
	if got := slots.SpecCRC16([]byte("123456789")); got != 0x31C3 {
		t.Fatalf("SpecCRC16(123456789) = %#04x, want 0x31C3", got)
	}
	for key, want := range map[string]int{
		"123456789": 12739, "foo": 12182, "bar": 5061, "hello": 866, "user:1000": 1649, "": 0,
		"foo{bar}zap": 5061, "{bar}zap": 5061, "foo{bar}{zap}": 5061, "foo{{bar}}zap": 4015,
		"foo{}{bar}": 8363, "{user1000}.following": 3443, "{user1000}.followers": 3443,
	} {
		if got := specKeyHashSlot([]byte(key)); got != want {
			t.Errorf("specKeyHashSlot(%q) = %d, want %d", key, got, want)
		}
	}
}

// FuzzKeySlot: for any byte string, KeySlot, the CRC16 it uses and a Slots
// placement's HashKey agree with the plain reading of the specification.
func FuzzKeySlot(f *testing.F) {
	for _, k := range []string{
		"", "{", "}", "{}", "}{", "{{}}", "{{", "}}", "{a", "a}", "{a}", "a{b}c", "a{}b{c}", "foo{{bar}}zap",
		"{user1000}.following", "123456789", "\x00", "\x00{\x00}\x00", "\xff\xfe\xfd{\x80}", "日本語{キー}",
		"\xc3\x28", strings.Repeat("{", 1000), strings.Repeat("}{", 500), strings.Repeat("k", 70000),
	} {
		f.Add([]byte(k))
	}
	p, err := slots.New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 1}, {ID: "c", Weight: 1}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, key []byte) {
		want := specKeyHashSlot(key)
		if got := slots.KeySlot(string(key)); got != want {
			t.Fatalf("KeySlot(%q) = %d, the specification gives %d", key, got, want)
		}
		if got, want := slots.CRC16(string(key)), slots.SpecCRC16(key); got != want {
			t.Fatalf("CRC16(%q) = %#04x, bit-by-bit %#04x", key, got, want)
		}
		if got := p.HashKey(string(key)); got != uint64(want) {
			t.Fatalf("HashKey(%q) = %d, want slot %d", key, got, want)
		}
	})
}

// FuzzEqualWeightsRebalance: with equal weights, along any history of joins
// and leaves (the fuzzer picks the starting size, up to 16,383 nodes, and
// the steps), each join moves hash slots only to the joining node and each
// leave only the leaving node's slots, and every node holds floor or ceil
// of 16384/n slots. (With unequal weights neither holds: see the slots
// entry in package catalog.)
func FuzzEqualWeightsRebalance(f *testing.F) {
	f.Add(uint16(3), []byte{0, 1, 2})
	f.Add(uint16(127), []byte{0, 0, 3, 5})
	f.Add(uint16(200), []byte{255, 0, 77})
	f.Add(uint16(1000), []byte{1, 2, 0})
	f.Add(uint16(16382), []byte{0, 1})
	f.Fuzz(func(t *testing.T, n uint16, steps []byte) {
		size := 1 + int(n)%(slots.NumSlots-1)
		if len(steps) > 8 {
			steps = steps[:8]
		}
		nodes, err := algorithms.DefaultNodes(size)
		if err != nil {
			t.Fatal(err)
		}
		var p algorithms.Placer
		if p, err = slots.New(nodes); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, p)
		for i, s := range steps {
			before := slotOwners(p)
			join := s%2 == 0 || len(p.Nodes()) == 1
			if join && len(p.Nodes()) == slots.NumSlots {
				join = false
			}
			var changed string
			if join {
				changed = "joined-" + strconv.Itoa(i)
				p, err = algorithms.Join(p, algorithms.Node{ID: changed, Weight: 1})
			} else {
				changed = p.Nodes()[int(s/2)%len(p.Nodes())].ID
				p, err = algorithms.Leave(p, changed)
			}
			if err != nil {
				t.Fatalf("step %d (join %t, node %q): %v", i, join, changed, err)
			}
			after := slotOwners(p)
			for slot := range before {
				b, a := before[slot], after[slot]
				if b == a {
					continue
				}
				if join && a != changed {
					t.Fatalf("step %d: %q joined %d nodes, yet slot %d moved %q -> %q", i, changed, len(p.Nodes())-1, slot, b, a)
				}
				if !join && b != changed {
					t.Fatalf("step %d: %q left %d nodes, yet slot %d moved %q -> %q", i, changed, len(p.Nodes())+1, slot, b, a)
				}
			}
			checkCounts(t, p)
		}
	})
}

// slotOwners returns the owner ID of every hash slot.
func slotOwners(p algorithms.Placer) []string {
	out := make([]string, slots.NumSlots)
	for s := range out {
		out[s] = p.Nodes()[p.LocateHash(uint64(s))].ID
	}
	return out
}

// checkCounts checks that each of p's n equal nodes holds floor or ceil of
// 16384/n slots.
func checkCounts(t *testing.T, p algorithms.Placer) {
	t.Helper()
	n := len(p.Nodes())
	count := make([]int, n)
	for s := range slots.NumSlots {
		count[p.LocateHash(uint64(s))]++
	}
	lo, hi := slots.NumSlots/n, (slots.NumSlots+n-1)/n
	for i, c := range count {
		if c < lo || c > hi {
			t.Fatalf("%d equal nodes: %q holds %d slots, want %d..%d", n, p.Nodes()[i].ID, c, lo, hi)
		}
	}
}
