// Package keyset is chbench's one source of keys: the analyses stream key
// sets from it ([Generator], or a [File] of real keys), and the lookup
// benchmarks and the algorithm tests take their in-memory keys from
// [Keys], so every part of the suite places the same kind of key
// ("user:" and 16 hexadecimal digits) drawn the same way. Generated keys
// can take other shapes ([KeyKind]: sequential, UUIDv4, URL paths,
// numeric IDs) through [Generator.WithKind].
//
// A [Source] streams S key sets chunk by chunk ([ChunkKeys] keys at a
// time) to a pool of workers without storing them; key i of set s depends
// only on the seed, s and i, never on the number of workers.
package keyset

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/lines"
	"github.com/chbench/chbench/internal/tempfile"
	"github.com/chbench/chbench/memory"
)

// ChunkKeys is the number of keys handed to a worker at a time. The
// generator derives each chunk's keys from (seed, set, chunk index), so the
// key stream does not depend on the number of workers.
const ChunkKeys = 4096

// MaxSets bounds the number of key sets a source may have.
const MaxSets = 1 << 20

// A Source streams S key sets in chunks, without storing them.
type Source interface {
	// Sets returns S, the number of key sets (>= 1).
	Sets() int
	// Each calls fn for every chunk of keys of every set, from up to workers
	// goroutines at once (workers < 1 means runtime.GOMAXPROCS(0)). worker is
	// the calling goroutine's number, 0 <= worker < workers, and no two calls
	// with the same worker run at once, so fn may update per-worker counters
	// without locks. The keys slice and its strings are valid only during the
	// call: fn must not retain them. Each returns the first error met while
	// producing keys (for a key file, a read error).
	Each(workers int, fn func(worker, set int, keys []string)) error
}

// Workers returns the number of workers Each uses for the request w: w
// itself when w >= 1, else runtime.GOMAXPROCS(0).
func Workers(w int) int {
	if w >= 1 {
		return w
	}
	return runtime.GOMAXPROCS(0)
}

// Generator is a seeded [Source] of S independent sets of K keys each.
// Keys look like real cache keys: "user:" followed by the 16 lower-case hex
// digits of a pseudo-random uint64 (hex rather than decimal because it
// formats in half the time, and generation is a large part of a
// movement's cost per key). Chunk c (ChunkKeys keys) of set s is drawn from
// math/rand/v2's PCG seeded with (Mix64(Seed), Mix64(s<<40 | c)) (the
// splitmix64 finalizer [algorithms.Mix64] spreads nearby seeds over the
// PCG state so that streams are unrelated), so key i of set s is a
// pure function of (Seed, s, i): the same seed gives the same keys on every
// machine and with any number of workers, and different sets are
// independent streams.
type Generator struct {
	keys, sets int
	seed       uint64
	kind       KeyKind // "" or KindRandom: the keys above; others: see WithKind
}

// NewGenerator returns a generator of sets sets of keys keys each from seed.
// It returns an error naming the bad value when keys < 1, sets < 1 or
// sets > MaxSets, or when a set would need more than 2^40 chunks.
func NewGenerator(keys, sets int, seed uint64) (*Generator, error) {
	if keys < 1 {
		return nil, fmt.Errorf("keys %d: need at least 1 key per set", keys)
	}
	if sets < 1 {
		return nil, fmt.Errorf("sets %d: need at least 1 key set", sets)
	}
	if sets > MaxSets {
		return nil, fmt.Errorf("sets %d: at most %d key sets", sets, MaxSets)
	}
	if uint64(keys) > uint64(ChunkKeys)<<40 {
		return nil, fmt.Errorf("keys %d: at most %d keys per set", keys, uint64(ChunkKeys)<<40)
	}
	return &Generator{keys: keys, sets: sets, seed: seed}, nil
}

// Keys returns K, the number of keys in each set.
func (g *Generator) Keys() int { return g.keys }

// WithKeys returns the generator of the same sets, seed and kind with keys
// keys per set (the first min(keys, K) of each set are those of g). It
// returns NewGenerator's error naming keys.
func (g *Generator) WithKeys(keys int) (*Generator, error) {
	n, err := NewGenerator(keys, g.sets, g.seed)
	if err != nil {
		return nil, err
	}
	n.kind = g.kind
	return n, nil
}

// Sets returns S.
func (g *Generator) Sets() int { return g.sets }

// Seed returns the seed.
func (g *Generator) Seed() uint64 { return g.seed }

// Chunk appends to dst the keys of chunk c of set s (at most ChunkKeys keys;
// fewer for the last chunk of a set, none past the end) and returns the
// extended slice. The strings share one new allocation.
func (g *Generator) Chunk(dst []string, s, c int) []string {
	var arena []byte
	var ends []int
	arena, ends = g.fill(arena, ends, s, c)
	all := string(arena)
	start := 0
	for _, e := range ends {
		dst = append(dst, all[start:e])
		start = e
	}
	return dst
}

// KeyLen is the length in bytes of every generated key: "user:" and 16
// hexadecimal digits.
const KeyLen = len("user:") + 16

// Keys returns, in order, the n keys of the single set of
// NewGenerator(n, 1, seed): the keys an analysis with one key set and that
// seed streams, held in memory for benchmarks and tests. The same n and
// seed always give the same keys (key i does not depend on n), and 64-bit
// draws collide with probability about n^2/2^65. It returns NewGenerator's
// error naming n when n < 1.
func Keys(n int, seed uint64) ([]string, error) {
	g, err := NewGenerator(n, 1, seed)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, n)
	for c := range g.chunksPerSet() {
		keys = g.Chunk(keys, 0, c)
	}
	return keys, nil
}

func (g *Generator) chunksPerSet() int { return (g.keys + ChunkKeys - 1) / ChunkKeys }

// fill writes the keys of chunk c of set s into arena, one after another,
// recording where each ends.
func (g *Generator) fill(arena []byte, ends []int, s, c int) ([]byte, []int) {
	arena, ends = arena[:0], ends[:0]
	n := g.keys - c*ChunkKeys
	if n > ChunkKeys {
		n = ChunkKeys
	}
	if n <= 0 {
		return arena, ends
	}
	r := rand.NewPCG(algorithms.Mix64(g.seed), algorithms.Mix64(uint64(s)<<40|uint64(c)))
	if g.kind != "" && g.kind != KindRandom {
		for j := range n {
			arena = g.appendKindKey(arena, g.kind, s, c*ChunkKeys+j, r)
			ends = append(ends, len(arena))
		}
		return arena, ends
	}
	var x [8]byte
	for range n {
		binary.BigEndian.PutUint64(x[:], r.Uint64())
		arena = append(arena, "user:"...)
		arena = hex.AppendEncode(arena, x[:])
		ends = append(ends, len(arena))
	}
	return arena, ends
}

// Each implements [Source]: workers take (set, chunk) jobs in turn and
// generate the keys themselves, so generation runs on every core.
func (g *Generator) Each(workers int, fn func(worker, set int, keys []string)) error {
	workers = Workers(workers)
	per := g.chunksPerSet()
	total := int64(per) * int64(g.sets)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var arena []byte
			var ends []int
			keys := make([]string, 0, ChunkKeys)
			for {
				j := next.Add(1) - 1
				if j >= total {
					return
				}
				s, c := int(j/int64(per)), int(j%int64(per))
				arena, ends = g.fill(arena, ends, s, c)
				keys = keys[:0]
				start := 0
				for _, e := range ends {
					// The arena is reused for the next chunk; fn must
					// not keep the keys (see Source.Each).
					keys = append(keys, unsafe.String(unsafe.SliceData(arena[start:]), e-start))
					start = e
				}
				fn(w, s, keys)
			}
		}()
	}
	wg.Wait()
	return nil
}

// MaxKeyBytes is the longest line a key file may hold (a line of exactly
// MaxKeyBytes bytes is read).
const MaxKeyBytes = 1 << 20

// MaxStreamBytes bounds the copy of a streamed key file (standard input,
// a pipe, a FIFO, process substitution) kept so that it can be read more
// than once: 16 GiB, and never more than the temporary directory's file
// system has free; where that file system keeps its files in memory
// (tmpfs), the copy is also reserved from the run's memory budget as it
// grows. A longer stream is an error naming the limit (save it to a
// regular file, which is read in place).
const MaxStreamBytes = 16 << 30

// PendingBytes bounds the keys a File holds while it deals them out to
// the sets (a part-filled chunk per set): a set's chunk is handed on when
// it reaches ChunkKeys keys or PendingBytes/S bytes (at least one key), so
// that many sets or long lines cannot hold gigabytes. Results do not
// depend on chunk sizes.
const PendingBytes = 64 << 20

// spoolReserve is the step in which a copy on a memory file system
// reserves its bytes from the budget.
const spoolReserve = 4 << 20

// open returns the regular file at path (registered as an input), or nil
// and the stream to copy (standard input for "-", registered too; any
// other file that is not regular). A directory is an error naming path.
func open(path string) (regular *os.File, stream io.ReadCloser, err error) {
	if path == "-" {
		inputs.AddFile(os.Stdin, "standard input")
		return nil, io.NopCloser(os.Stdin), nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("key file: %w", err)
	}
	if fi.IsDir() {
		return nil, nil, fmt.Errorf("key file %q is a directory", path)
	}
	fh, err := inputs.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("key file: %w", err)
	}
	if fi.Mode().IsRegular() {
		return fh, nil, nil
	}
	return nil, fh, nil
}

// spool copies the stream in (the key file path) into a file with no
// name in the temporary directory (tempfile.Anonymous: nothing is left
// behind however the process ends), line by line with the checks of the
// key file rule, so that a stream that is no key file (/dev/zero: NUL
// bytes, an endless line) fails at once. It returns the copy and its
// size, and holds what a copy in memory reserves from mem until release.
func spool(in io.Reader, path string, mem *memory.Budget, maxCopy int64) (copy *os.File, size int64, release func(), err error) {
	out, err := tempfile.Anonymous("")
	if err != nil {
		return nil, 0, nil, fmt.Errorf("key file %q: copying the stream: %w", path, err)
	}
	limit := maxCopy
	free, inMemory, _ := tempfile.Space("")
	if free >= 0 {
		limit = min(limit, free)
	}
	var reserved int64
	release = func() { mem.Release(reserved) }
	w := bufio.NewWriter(out)
	var n int64
	err = scanLines(in, path, func(line []byte, _ int) error {
		if n += int64(len(line)) + 1; n > limit {
			return fmt.Errorf("key file %q: the copy of the stream would exceed %s (at most %s for this file, %s free in the temporary directory %s); save the keys to a regular file, which is read in place",
				path, memory.Human(limit), memory.Human(maxCopy), memory.Human(max(free, 0)), os.TempDir())
		}
		if inMemory && n > reserved {
			if err := mem.Reserve(fmt.Sprintf("the copy of the streamed key file %q in %s (a file system in memory)", path, os.TempDir()), spoolReserve); err != nil {
				return fmt.Errorf("key file %q: %w; or save the keys to a regular file, which is read in place", path, err)
			}
			reserved += spoolReserve
		}
		w.Write(line)
		return w.WriteByte('\n')
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		out.Close()
		release()
		if !strings.HasPrefix(err.Error(), "key file") {
			err = fmt.Errorf("key file %q: copying the stream: %w", path, err)
		}
		return nil, 0, nil, err
	}
	return out, n, release, nil
}

// File is a [Source] reading one key per line from a file, by the key
// file rule: a line is as package internal/lines reads it (a "\r\n" end
// and a UTF-8 byte-order mark at the start of the file are not part of a
// key; at most MaxKeyBytes bytes); blank lines (empty or only white
// space) are skipped; every other line, inner and edge spaces included,
// is a key, its bytes as they are (a key need not be UTF-8, and "#"
// starts no comment); a NUL byte makes the file an error (a binary file,
// not keys). The L keys are split into S disjoint sets by position: the
// i-th key (0-based, blank lines not counted) belongs to set i mod S, so
// each set holds floor(L/S) or ceil(L/S) keys and with S = 1 the whole
// file is one set. The file is read again on every Each, in chunks, so
// memory does not grow with L. A File is one value, built once where the
// key file enters (a flag) and passed down: it counts the keys once, and
// a stream is copied once, into a copy the File owns and [File.Close]
// drops.
type File struct {
	path       string   // as given ("-" for standard input)
	copy       *os.File // the copy of a stream (no name), or nil: path is read
	size       int64    // bytes of the copy
	release    func()   // returns the copy's reservation
	sets, keys int
}

// NewFile is [OpenFile] with the default memory budget.
func NewFile(path string, sets int) (*File, error) { return OpenFile(path, sets, nil) }

// OpenFile opens path, counts its keys and returns the source splitting
// them into sets sets; it registers the file as an input of the command
// (internal/inputs), so that no output replaces it. Path "-" is standard
// input; standard input and any other file that cannot be read twice (a
// pipe, a FIFO, /dev/stdin, process substitution) is read once into a
// copy (see MaxStreamBytes; a copy on a memory file system is reserved
// from mem, nil for the default budget), which the File owns until
// [File.Close], so its keys are counted and streamed like a regular
// file's. It returns an error naming the path when the file cannot be
// read, holds no keys, holds fewer keys than sets, a NUL byte or a line
// longer than MaxKeyBytes, and an error naming sets when sets < 1 or >
// MaxSets; a failed OpenFile leaves no copy.
func OpenFile(path string, sets int, mem *memory.Budget) (*File, error) {
	return openFile(path, sets, mem, MaxStreamBytes)
}

// OpenHeld is [OpenFile] for a file whose whole content the run then
// holds in memory (a request log): the copy of a stream is also bounded
// by mem's limit, since a stream longer than the budget could never be
// held, so an endless stream (yes > fifo) ends at the budget with an
// error naming it, not at the temporary directory's free space.
func OpenHeld(path string, sets int, mem *memory.Budget) (*File, error) {
	return openFile(path, sets, mem, min(MaxStreamBytes, memory.OrDefault(mem).Limit()))
}

func openFile(path string, sets int, mem *memory.Budget, maxCopy int64) (*File, error) {
	if sets < 1 {
		return nil, fmt.Errorf("sets %d: need at least 1 key set", sets)
	}
	if sets > MaxSets {
		return nil, fmt.Errorf("sets %d: at most %d key sets", sets, MaxSets)
	}
	regular, stream, err := open(path)
	if err != nil {
		return nil, err
	}
	f := &File{path: path, sets: sets, release: func() {}}
	if regular != nil {
		regular.Close() // read again by every scan
	} else {
		f.copy, f.size, f.release, err = spool(stream, path, memory.OrDefault(mem), maxCopy)
		stream.Close()
		if err != nil {
			return nil, err
		}
	}
	n := 0
	if err := f.scan(func(string) error { n++; return nil }); err != nil {
		f.Close()
		return nil, err
	}
	if n == 0 {
		f.Close()
		return nil, fmt.Errorf("key file %q: no keys (empty or only blank lines)", path)
	}
	if n < sets {
		f.Close()
		return nil, fmt.Errorf("key file %q: %d keys cannot fill %d sets", path, n, sets)
	}
	f.keys = n
	return f, nil
}

// Close drops the copy of a streamed key file (nothing for a regular
// file). The File cannot be read after it. It is safe to call more than
// once, and on a nil File.
func (f *File) Close() error {
	if f != nil && f.copy != nil {
		f.copy.Close()
		f.copy = nil
		f.release()
	}
	return nil
}

// Path returns the file's path.
func (f *File) Path() string { return f.path }

// Bytes returns the size in bytes of the file read (for a stream, of its
// copy), or 0 if it cannot be told.
func (f *File) Bytes() int64 {
	if f.copy != nil {
		return f.size
	}
	fi, err := os.Stat(f.path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// Keys returns L, the number of keys in the file (all sets together).
func (f *File) Keys() int { return f.keys }

// Sets returns S.
func (f *File) Sets() int { return f.sets }

// scan calls fn with every key of the file in order.
func (f *File) scan(fn func(key string) error) error {
	var r io.Reader
	if f.copy != nil {
		r = io.NewSectionReader(f.copy, 0, f.size)
	} else {
		fh, err := os.Open(f.path)
		if err != nil {
			return fmt.Errorf("key file: %w", err)
		}
		defer fh.Close()
		r = fh
	}
	return scanLines(r, f.path, func(line []byte, _ int) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		return fn(unsafe.String(unsafe.SliceData(line), len(line)))
	})
}

// scanLines calls fn with every line of r (internal/lines) and its
// 1-based number. It returns an error naming path and the line for a NUL
// byte (a binary file, not keys), a line longer than MaxKeyBytes, a read
// error, or fn's error.
func scanLines(r io.Reader, path string, fn func(line []byte, lineNo int) error) error {
	err := lines.Scan(r, path, "a key file", MaxKeyBytes, func(line []byte, lineNo int) error {
		if bytes.IndexByte(line, 0) >= 0 {
			return fmt.Errorf("key file %q: line %d holds a NUL byte: not a text file of keys", path, lineNo)
		}
		return fn(line, lineNo)
	})
	var tl *lines.TooLongError
	if errors.As(err, &tl) {
		return fmt.Errorf("key file %q: line %d is longer than %d bytes, the most a key may have", path, tl.Line, MaxKeyBytes)
	}
	if err != nil && !strings.HasPrefix(err.Error(), "key file") {
		return fmt.Errorf("key file %q: %w", path, err)
	}
	return err
}

type fileChunk struct {
	set   int
	arena []byte
	ends  []int
	keys  []string
}

// Each implements [Source]: one goroutine reads the file and fills a
// chunk per set; full chunks go to the workers. At most one part-filled
// chunk per set (about PendingBytes together) and 2*workers+64 spare
// chunks exist at once.
func (f *File) Each(workers int, fn func(worker, set int, keys []string)) error {
	workers = Workers(workers)
	work := make(chan *fileChunk, workers)
	free := make(chan *fileChunk, 2*workers+min(f.sets, 64))
	// A chunk is handed on at ChunkKeys keys or chunkBytes bytes, so the
	// part-filled chunks of all sets hold about PendingBytes at most.
	chunkBytes := max(1, PendingBytes/f.sets)
	get := func(set int) *fileChunk {
		select {
		case c := <-free:
			c.set, c.arena, c.ends = set, c.arena[:0], c.ends[:0]
			return c
		default:
			return &fileChunk{set: set}
		}
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				// The chunk is complete, so its arena no longer moves.
				c.keys = SplitArena(c.keys, c.arena, c.ends)
				fn(w, c.set, c.keys)
				select {
				case free <- c:
				default:
				}
			}
		}()
	}
	pending := make([]*fileChunk, f.sets)
	i := 0
	err := f.scan(func(key string) error {
		s := i % f.sets
		i++
		c := pending[s]
		if c == nil {
			c = get(s)
			pending[s] = c
		}
		c.arena = append(c.arena, key...)
		c.ends = append(c.ends, len(c.arena))
		if len(c.ends) == ChunkKeys || len(c.arena) >= chunkBytes {
			work <- c
			pending[s] = nil
		}
		return nil
	})
	for _, c := range pending {
		if c != nil && len(c.ends) > 0 {
			work <- c
		}
	}
	close(work)
	wg.Wait()
	return err
}

// SetKeys appends all keys of set s (0 <= s < Sets()), in generation
// order, to dst and returns it: the same keys, in the same order, as Chunk
// for c = 0, 1, ... It is for callers that need a whole set in memory,
// such as a request stream whose Zipf rank i is key i.
func (g *Generator) SetKeys(dst []string, s int) []string {
	for c := range g.chunksPerSet() {
		dst = g.Chunk(dst, s, c)
	}
	return dst
}

// Scan calls fn with every key of the file in line order (blank lines
// skipped), stopping at the first error fn returns. The key string is only
// valid during the call; copy it to keep it. It returns the file errors
// that NewFile describes, naming the path.
func (f *File) Scan(fn func(key string) error) error { return f.scan(fn) }

// SplitArena returns keys[:0] extended with the keys of arena cut at ends
// (each end the offset just past one key, in increasing order), as
// strings sharing arena's bytes without a copy: arena must not change
// while the keys are in use. It allocates only when keys lacks capacity.
func SplitArena(keys []string, arena []byte, ends []int) []string {
	keys = keys[:0]
	start := 0
	for _, e := range ends {
		keys = append(keys, unsafe.String(unsafe.SliceData(arena[start:]), e-start))
		start = e
	}
	return keys
}
