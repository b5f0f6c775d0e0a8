// Command dumpkeys writes the key dump of the example fleet profile
// (examples/fleet/cache-40-60.toml): the distinct keys of a seeded
// synthetic cache workload (package workload), one a line, as a memcached
// key dump lists them. The same flags give the same file, byte for byte,
// on every machine, so the 300,000 keys are made when `make bench
// PROFILE=examples/fleet/cache-40-60.toml` needs them instead of being
// committed:
//
//	go run ./examples/fleet/dumpkeys -keys 300000 -seed 20 -o examples/fleet/cache-keys.txt
//
// Keys are listed in a seeded shuffled order (a dump lists keys as the
// cache's slabs hold them, not by popularity), so the rank a Zipf law
// gives the i-th line is unrelated to where the key is placed.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/chbench/chbench/workload"
)

func main() {
	keys := flag.Int("keys", 300000, "distinct keys to write, >= 1")
	seed := flag.Uint64("seed", 20, "seed of the key names and their order")
	out := flag.String("o", "", "output file (required); written through a temporary file and a rename")
	flag.Parse()
	if err := run(*keys, *seed, *out); err != nil {
		fmt.Fprintln(os.Stderr, "dumpkeys:", err)
		os.Exit(1)
	}
}

func run(keys int, seed uint64, out string) error {
	if out == "" {
		return fmt.Errorf("-o FILE is required")
	}
	w, err := workload.New(workload.Config{Keys: keys, Requests: 1, Rate: 1, Seed: seed})
	if err != nil {
		return err
	}
	order := rand.New(rand.NewPCG(seed, 0x64756d70)).Perm(keys) // "dump"
	tmp := out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	var buf []byte
	for _, i := range order {
		buf = append(w.Key(buf[:0], i), '\n')
		if _, err := bw.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
