package live

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"github.com/chbench/chbench/internal/procgroup"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms/crush"
	"github.com/chbench/chbench/topology"
)

// libcephCommon is the library of Ceph's C code (the CRUSH mapper,
// builder and hashes among it), from Debian's librados2, a dependency of
// ceph-base.
const libcephCommon = "/usr/lib/x86_64-linux-gnu/ceph/libceph-common.so.2"

var updateCrush = flag.Bool("update-crush", false, "rewrite algorithms/crush/testdata/ceph.txt from the installed Ceph")

// hashProgram reads lines "k a b c d e" and prints Ceph's
// crush_hash32_k(rjenkins1, a, ...) of the first k arguments.
const hashProgram = `#include <stdio.h>
#include <stdint.h>
uint32_t crush_hash32(int, uint32_t);
uint32_t crush_hash32_2(int, uint32_t, uint32_t);
uint32_t crush_hash32_3(int, uint32_t, uint32_t, uint32_t);
uint32_t crush_hash32_4(int, uint32_t, uint32_t, uint32_t, uint32_t);
uint32_t crush_hash32_5(int, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);
int main(void) {
	int k;
	unsigned a, b, c, d, e;
	while (scanf("%d %u %u %u %u %u", &k, &a, &b, &c, &d, &e) == 6) {
		uint32_t h = 0;
		switch (k) {
		case 1: h = crush_hash32(0, a); break;
		case 2: h = crush_hash32_2(0, a, b); break;
		case 3: h = crush_hash32_3(0, a, b, c); break;
		case 4: h = crush_hash32_4(0, a, b, c, d); break;
		case 5: h = crush_hash32_5(0, a, b, c, d, e); break;
		}
		printf("%u\n", h);
	}
	return 0;
}
`

// needLibceph skips (or fails under CI) without gcc or the library.
func needLibceph(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(libcephCommon); err != nil {
		unavailable(t, libcephCommon+" missing (Debian package librados2, installed with "+CrushtoolPackage+")")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		unavailable(t, "gcc not found in PATH (Debian package gcc)")
	}
}

// run runs a command bounded by timeout, killing its process group.
func run(t *testing.T, dir string, stdin []byte, timeout time.Duration, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	procgroup.Set(cmd)
	cmd.Cancel = func() error { procgroup.Kill(cmd); return nil }
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, errb.String())
	}
	return out.Bytes()
}

// hashInputs are the (k, a, b, c, d, e) tuples the vector file holds: the
// edge values 0, 1 and 2^32-1 (bucket id -1), and a fixed LCG sequence.
func hashInputs() [][6]uint32 {
	var in [][6]uint32
	for k := uint32(1); k <= 5; k++ {
		in = append(in, [6]uint32{k, 0, 0, 0, 0, 0}, [6]uint32{k, 1, 2, 3, 4, 5}, [6]uint32{k, 0xffffffff, 0xfffffffe, 7, 0, 1})
	}
	s := uint32(12345)
	next := func() uint32 { s = s*1664525 + 1013904223; return s }
	for i := range 40 {
		in = append(in, [6]uint32{uint32(i%5) + 1, next(), next(), next(), next(), next()})
	}
	return in
}

func goHash(v [6]uint32) uint32 {
	switch v[0] {
	case 1:
		return crush.Hash1(v[1])
	case 2:
		return crush.Hash2(v[1], v[2])
	case 3:
		return crush.Hash3(v[1], v[2], v[3])
	case 4:
		return crush.Hash4(v[1], v[2], v[3], v[4])
	}
	return crush.Hash5(v[1], v[2], v[3], v[4], v[5])
}

// cephHashes compiles hashProgram against libceph-common and returns
// Ceph's hash of each input.
func cephHashes(t *testing.T, in [][6]uint32) []uint32 {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(hashProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, nil, time.Minute, "gcc", "-O1", "-o", "h", "h.c", libcephCommon, "-Wl,-rpath,"+filepath.Dir(libcephCommon))
	var stdin bytes.Buffer
	for _, v := range in {
		fmt.Fprintf(&stdin, "%d %d %d %d %d %d\n", v[0], v[1], v[2], v[3], v[4], v[5])
	}
	out := strings.Fields(string(run(t, dir, stdin.Bytes(), 30*time.Second, filepath.Join(dir, "h"))))
	if len(out) != len(in) {
		t.Fatalf("the hash program printed %d values for %d inputs", len(out), len(in))
	}
	hs := make([]uint32, len(in))
	for i, f := range out {
		v, err := strconv.ParseUint(f, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		hs[i] = uint32(v)
	}
	return hs
}

// TestCrushHashMatchesLibceph compares chbench's rjenkins1 hashes, all
// five variants, with Ceph's own crush_hash32_* called from a C program
// linked against the installed libceph-common, on edge values and 40
// pseudo-random tuples; and 100,000 more tuples of Hash3 (straw2's draw)
// and Hash2 (is_out).
func TestCrushHashMatchesLibceph(t *testing.T) {
	needLibceph(t)
	in := hashInputs()
	s := uint32(99)
	for range 100000 {
		s = s*1664525 + 1013904223
		a := s
		s = s*1664525 + 1013904223
		in = append(in, [6]uint32{3 - (a & 1), a >> 3, s, a ^ s, 0, 0})
	}
	want := cephHashes(t, in)
	for i, v := range in {
		if got := goHash(v); got != want[i] {
			t.Fatalf("rjenkins1 hash%d%v = %d, Ceph %d", v[0], v[1:1+v[0]], got, want[i])
		}
	}
}

// findTable returns the int64 table of n little-endian entries in lib
// that starts with the given entries, or an error.
func findTable(lib []byte, n int, first ...uint64) ([]uint64, error) {
	pat := make([]byte, 8*len(first))
	for i, v := range first {
		binary.LittleEndian.PutUint64(pat[8*i:], v)
	}
	i := bytes.Index(lib, pat)
	if i < 0 || i+8*n > len(lib) {
		return nil, fmt.Errorf("no table starting %#x in %s", first, libcephCommon)
	}
	if bytes.Contains(lib[i+1:], pat) {
		return nil, fmt.Errorf("two tables starting %#x in %s", first, libcephCommon)
	}
	out := make([]uint64, n)
	for k := range out {
		out[k] = binary.LittleEndian.Uint64(lib[i+8*k:])
	}
	return out, nil
}

// TestLnTablesMatchLibceph reads the fixed-point log tables compiled into
// the installed libceph-common (crush_ln_table.h's __RH_LH_tbl, 258
// interleaved entries, and __LL_tbl, 256) and requires chbench's tables
// to equal them entry for entry, including the entries where Ceph's
// values are not their formulas'. The tables are located by their first
// entries, which are the formulas' exact values (2^48, 0, 2^48/(1+1/128)
// rounded up; 0 and 2^48 log2(1+2^-15) + Ceph's offset).
func TestLnTablesMatchLibceph(t *testing.T) {
	needLibceph(t)
	lib, err := os.ReadFile(libcephCommon)
	if err != nil {
		t.Fatal(err)
	}
	rhlh, err := findTable(lib, 258, 1<<48, 0, 0xfe03f80fe040)
	if err != nil {
		t.Fatal(err)
	}
	ll, err := findTable(lib, 256, 0, 0x2e2a60a00)
	if err != nil {
		t.Fatal(err)
	}
	rh, lh, goLL := crush.LnTables()
	for k := range rh {
		if rh[k] != rhlh[2*k] || lh[k] != rhlh[2*k+1] {
			t.Errorf("k=%d: chbench RH %#x LH %#x, Ceph %#x %#x", k, rh[k], lh[k], rhlh[2*k], rhlh[2*k+1])
		}
	}
	for j := range goLL {
		if goLL[j] != ll[j] {
			t.Errorf("LL[%d]: chbench %#x, Ceph %#x", j, goLL[j], ll[j])
		}
	}
}

// vectorFile is the committed file of exact vectors that the crush unit
// tests check without Ceph installed; TestCrushVectorsFromCeph re-derives
// it from the installed Ceph.
var vectorFile = filepath.Join("..", "algorithms", "crush", "testdata", "ceph.txt")

// vectorMaps are the maps of the vector file: a name, the crushtool
// --build layers, and the topology chbench builds the same map from.
var vectorMaps = []struct {
	name   string
	layers []string
	osds   int
	groups []topology.Grouping
}{
	{"flat10", []string{"host", "straw2", "1", "root", "straw2", "0"}, 10, nil},
	{"racks12", []string{"host", "straw2", "2", "rack", "straw2", "3", "root", "straw2", "0"}, 12,
		[]topology.Grouping{{Level: "host", Spec: "6"}, {Level: "rack", Spec: "2"}}},
}

// TestCrushVectorsFromCeph re-derives algorithms/crush/testdata/ceph.txt:
// the hash lines from libceph-common, the mapping lines (x = 0..199, R =
// 3) from crushtool --test on crushtool --build maps, and requires the
// committed file to be exactly that (go test ./live -run
// TestCrushVectorsFromCeph -args -update-crush rewrites it).
func TestCrushVectorsFromCeph(t *testing.T) {
	needLibceph(t)
	if _, err := LookBinary("crushtool"); err != nil {
		unavailable(t, (&MissingBinary{Binary: "crushtool", Package: CrushtoolPackage}).Error())
	}
	var b bytes.Buffer
	b.WriteString("# Exact CRUSH vectors from Ceph 16.2 (Debian 12 ceph-base, librados2), re-derived by\n")
	b.WriteString("# live.TestCrushVectorsFromCeph: do not edit; regenerate with\n")
	b.WriteString("#   go test ./live -run TestCrushVectorsFromCeph -args -update-crush\n")
	b.WriteString("# hashK a ... = rjenkins1 crush_hash32_K of libceph-common.\n")
	in := hashInputs()
	for i, h := range cephHashes(t, in) {
		v := in[i]
		fmt.Fprintf(&b, "hash%d", v[0])
		for _, a := range v[1 : 1+v[0]] {
			fmt.Fprintf(&b, " %d", a)
		}
		fmt.Fprintf(&b, " %d\n", h)
	}
	b.WriteString("# map NAME R X DEVICES = crushtool --test --show-mappings --rule 0 --num-rep R of the map\n")
	for _, vm := range vectorMaps {
		dir := t.TempDir()
		args := append([]string{"-o", "map", "--build", "--num_osds", strconv.Itoa(vm.osds)}, vm.layers...)
		if _, err := Crushtool(dir, CrushtoolTimeout, args...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "# %s: crushtool --build --num_osds %d %s\n", vm.name, vm.osds, strings.Join(vm.layers, " "))
		out, err := Crushtool(dir, CrushtoolTimeout, "-i", "map", "--test", "--show-mappings", "--rule", "0", "--num-rep", "3", "--min-x", "0", "--max-x", "199")
		if err != nil {
			t.Fatal(err)
		}
		ms, err := ParseMappings(out, 0, 199)
		if err != nil {
			t.Fatal(err)
		}
		for x, devs := range ms {
			ds := make([]string, len(devs))
			for i, d := range devs {
				ds[i] = strconv.Itoa(d)
			}
			fmt.Fprintf(&b, "map %s 3 %d %s\n", vm.name, x, strings.Join(ds, ","))
		}
	}
	if *updateCrush {
		if err := os.WriteFile(vectorFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := os.ReadFile(vectorFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, b.Bytes()) {
		sc1, sc2 := bufio.NewScanner(bytes.NewReader(committed)), bufio.NewScanner(&b)
		for line := 1; ; line++ {
			ok1, ok2 := sc1.Scan(), sc2.Scan()
			if !ok1 || !ok2 || sc1.Text() != sc2.Text() {
				t.Fatalf("%s line %d: committed %q, Ceph gives %q (rerun with -update-crush if Ceph itself changed)", vectorFile, line, sc1.Text(), sc2.Text())
			}
		}
	}
}
