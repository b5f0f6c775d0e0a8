package trace_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

var update = flag.Bool("update", false, "rewrite the samples in testdata/ from the generator")

// req is a Request that owns its bytes.
type req struct {
	Time           time.Duration
	Key, Client    string
	KeySize, Value int
	Op             trace.Op
	TTL            time.Duration
	Count          int64
}

func own(q *trace.Request) req {
	return req{q.Time, string(q.Key), string(q.Client), q.KeySize, q.ValueSize, q.Op, q.TTL, q.Count}
}

// readAll reads every record of r, failing the test on a SyntaxError or a
// read error.
func readAll(t *testing.T, r trace.Reader) []req {
	t.Helper()
	var out []req
	for r.Scan() {
		switch rec := r.Record().(type) {
		case *trace.Request:
			out = append(out, own(rec))
		case *trace.SyntaxError:
			t.Fatalf("%v", rec)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sampleConfig is the workload the committed samples are written from: a
// small mix of every kind of request (gets, sets, adds, deletes, TTLs,
// three clients, log-normal value sizes).
func sampleConfig(numeric bool, start time.Duration) workload.Config {
	return workload.Config{
		Keys: 50, Zipf: 0.9, Requests: 200, Rate: 10, Start: start, Numeric: numeric,
		Values: workload.Sizes{Kind: workload.LogNormal, Median: 230, Sigma: 1, Min: 1, Max: 100000},
		Ops: []workload.OpShare{{Op: trace.OpGet, Share: 0.75}, {Op: trace.OpSet, Share: 0.15},
			{Op: trace.OpAdd, Share: 0.05}, {Op: trace.OpDelete, Share: 0.05}},
		TTLs:    []workload.TTLShare{{TTL: 0, Share: 0.5}, {TTL: time.Hour, Share: 0.3}, {TTL: time.Minute, Share: 0.2}},
		Clients: 3, Seed: 7,
	}
}

// sample is one committed sample file: its name, the format it is in,
// and how it is made.
type sample struct {
	file, format string
	numeric      bool
	start        time.Duration
	metaColumns  []string
	zstd         bool
}

// unixStart puts the clock of the dump and MONITOR samples in 2023, as a
// real capture's Unix times are.
const unixStart = 1700000000 * time.Second

var samples = []sample{
	{file: "twitter.csv", format: trace.Twitter},
	{file: "twitter.csv.zst", format: trace.Twitter, zstd: true},
	{file: "meta-kv-202206.csv", format: trace.MetaKV, numeric: true, metaColumns: []string{"key", "op", "size", "op_count", "key_size"}},
	{file: "meta-kv-202401.csv", format: trace.MetaKV, numeric: true, metaColumns: trace.MetaKVColumns},
	{file: "oracle-general.bin", format: trace.OracleGeneral, numeric: true},
	{file: "oracle-general.bin.zst", format: trace.OracleGeneral, numeric: true, zstd: true},
	{file: "metadump.txt", format: trace.Metadump, start: unixStart},
	{file: "redis-scan.txt", format: trace.RedisScan},
	{file: "redis-monitor.txt", format: trace.RedisMonitor, start: unixStart},
	{file: "keys.txt", format: trace.Keys},
	{file: "key-count.txt", format: trace.KeyCount},
}

// generate writes sample s from the generator.
func generate(t testing.TB, s sample) []byte {
	t.Helper()
	w, err := workload.New(sampleConfig(s.numeric, s.start))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	var tw trace.Writer
	if s.metaColumns != nil {
		tw, err = trace.NewMetaKVWriter(&buf, s.metaColumns)
	} else {
		tw, err = trace.NewWriter(&buf, s.format)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Copy(tw, w); err != nil {
		t.Fatal(err)
	}
	if !s.zstd {
		return buf.Bytes()
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		t.Fatal(err)
	}
	return enc.EncodeAll(buf.Bytes(), nil)
}

// The committed samples are what the generator writes from sampleConfig
// today: the same seed gives the same bytes (zstd samples are compared
// after decompression, since an encoder upgrade may change the
// compressed bytes but not what they hold). go test -update rewrites them.
func TestSamplesReproduce(t *testing.T) {
	for _, s := range samples {
		path := filepath.Join("testdata", s.file)
		got := generate(t, s)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./trace -run TestSamplesReproduce -update)", err)
		}
		if s.zstd {
			got, want = unzstd(t, got), unzstd(t, want)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the generator writes %d bytes that differ from the committed %d", s.file, len(got), len(want))
		}
	}
}

func unzstd(t *testing.T, b []byte) []byte {
	t.Helper()
	d, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out, err := d.DecodeAll(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every sample reads back, with its format named and detected, as the
// requests the generator wrote, as far as its format carries them: the
// fields a format lacks are zero (or, for oracle-general, its one
// operation).
func TestSamplesRead(t *testing.T) {
	for _, s := range samples {
		t.Run(s.file, func(t *testing.T) {
			want := expected(t, s)
			for _, name := range []string{s.format, ""} {
				f, err := trace.Open(filepath.Join("testdata", s.file), trace.Options{Format: name})
				if err != nil {
					t.Fatal(err)
				}
				got := readAll(t, f)
				st := f.Stats()
				f.Close()
				wantFormat := s.format
				if name == "" && s.format == trace.RedisScan {
					// A raw --scan capture is a key list: detection calls it
					// keys, which reads the same requests.
					wantFormat = trace.Keys
				}
				if st.Format != wantFormat {
					t.Errorf("format %q: read as %s, want %s", name, st.Format, wantFormat)
				}
				if st.Compressed != s.zstd {
					t.Errorf("compressed = %v, want %v", st.Compressed, s.zstd)
				}
				if len(got) != len(want) {
					t.Fatalf("format %q: %d requests, want %d", name, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("format %q: request %d = %+v, want %+v", name, i, got[i], want[i])
					}
				}
			}
		})
	}
}

// expected returns the requests of sample s as its format carries them.
func expected(t *testing.T, s sample) []req {
	t.Helper()
	w, err := workload.New(sampleConfig(s.numeric, s.start))
	if err != nil {
		t.Fatal(err)
	}
	var out []req
	f, err := trace.LookupFormat(s.format)
	if err != nil {
		t.Fatal(err)
	}
	for w.Scan() {
		q := own(w.Record().(*trace.Request))
		q.Time = q.Time.Truncate(time.Second)
		switch s.format {
		case trace.Twitter:
		case trace.MetaKV:
			if q.Op.IsWrite() {
				q.Op = trace.OpSet
			}
			if !slicesContains(s.metaColumns, "op_time") {
				q.Time = 0
			}
			if !slicesContains(s.metaColumns, "ttl") {
				q.TTL = 0
			}
			if !slicesContains(s.metaColumns, "usecase") {
				q.Client = ""
			}
		case trace.OracleGeneral:
			q.Op, q.TTL, q.Client = trace.OpGet, 0, ""
		case trace.Metadump:
			q.Op, q.Client = trace.OpGet, ""
		case trace.RedisMonitor:
			q.Time = own(w.Record().(*trace.Request)).Time.Truncate(time.Microsecond)
			if q.Op.IsRead() {
				q.Value = 0 // a GET line carries no value
			}
		default:
			q.Time, q.Op, q.TTL, q.Client, q.Value = 0, trace.OpGet, 0, "", 0
		}
		if !f.HasSize {
			q.Value = 0
		}
		out = append(out, q)
	}
	return out
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// The zstd tool (the reference implementation, zstd 1.5) decompresses the
// committed .zst samples to the plain samples' bytes, and a file it
// compresses reads as the plain one does: klauspost/compress/zstd and
// the reference agree in both directions.
func TestZstdAgreesWithReferenceTool(t *testing.T) {
	bin, err := exec.LookPath("zstd")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI: zstd not found in PATH (Debian package zstd)")
		}
		t.Skip("skipped: zstd not found in PATH (Debian package zstd)")
	}
	for _, s := range samples {
		if !s.zstd {
			continue
		}
		plain, err := os.ReadFile(filepath.Join("testdata", strings.TrimSuffix(s.file, ".zst")))
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-d", "-c", "-q", filepath.Join("testdata", s.file)).Output()
		if err != nil {
			t.Fatalf("zstd -d %s: %v", s.file, err)
		}
		if !bytes.Equal(out, plain) {
			t.Errorf("zstd -d %s: %d bytes differ from the plain sample's %d", s.file, len(out), len(plain))
		}
		packed := filepath.Join(t.TempDir(), "ref.zst")
		if msg, err := exec.Command(bin, "-q", "-19", "-o", packed, filepath.Join("testdata", strings.TrimSuffix(s.file, ".zst"))).CombinedOutput(); err != nil {
			t.Fatalf("zstd: %v: %s", err, msg)
		}
		ref, err := trace.Open(packed, trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, ref)
		ref.Close()
		plainReader, err := trace.NewReader(bytes.NewReader(plain), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := readAll(t, plainReader)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s compressed by the zstd tool reads differently from the plain file", s.file)
		}
	}
}
