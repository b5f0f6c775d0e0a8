package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/chbench/chbench/trace"
)

// No input makes a reader panic or stop with anything but a SyntaxError
// or a read error, in any format or under detection; every record is a
// Request or a SyntaxError. The committed samples seed the corpus.
func FuzzReaders(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil && len(b) < 1<<16 {
			f.Add(b[:min(len(b), 2000)])
		}
	}
	f.Add([]byte("key=%zz exp=1 la=2 size=3\n"))
	f.Add([]byte(`1.000001 [0 ] "set" "k" "v" "ex"` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range append(trace.FormatNames(), "") {
			r, err := trace.NewReader(bytes.NewReader(b), trace.Options{Format: name, MaxLine: 512})
			if err != nil {
				continue // a refusal (detection, a Meta KV header) is an error, not a panic
			}
			for r.Scan() {
				switch rec := r.Record().(type) {
				case *trace.Request:
					if rec.Count < 1 || rec.KeySize < 0 || rec.ValueSize < 0 || rec.TTL < 0 {
						t.Fatalf("%s: request %+v", name, rec)
					}
				case *trace.SyntaxError:
				default:
					t.Fatalf("%s: record of type %T", name, rec)
				}
			}
		}
	})
}
