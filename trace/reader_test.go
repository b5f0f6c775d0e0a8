package trace_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// records reads every record of text in format, returning the requests
// and the syntax errors.
func records(t *testing.T, format, text string) ([]req, []*trace.SyntaxError, *trace.Stats) {
	t.Helper()
	r, err := trace.NewReader(strings.NewReader(text), trace.Options{Format: format})
	if err != nil {
		t.Fatal(err)
	}
	var reqs []req
	var bad []*trace.SyntaxError
	for r.Scan() {
		switch rec := r.Record().(type) {
		case *trace.Request:
			reqs = append(reqs, own(rec))
		case *trace.SyntaxError:
			e := *rec
			bad = append(bad, &e)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return reqs, bad, r.Stats()
}

func check(t *testing.T, got, want []req) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d requests %+v, want %d %+v", len(got), got, len(want), want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("request %d = %+v\nwant          %+v", i, got[i], want[i])
		}
	}
}

// Twitter's README names the columns and gives nz:u:eeW511W3dcH3de3d15ec
// as an anonymized key; every operation it lists is read.
func TestTwitterLines(t *testing.T) {
	text := "0,nz:u:eeW511W3dcH3de3d15ec,24,0,12,get,0\n" +
		"1,nz:u:eeW511W3dcH3de3d15ec,24,310,12,set,3600\n" +
		"2,a,1,5,7,gets,0\n3,a,1,5,7,add,60\n3,a,1,5,7,replace,0\n3,a,1,5,7,cas,0\n" +
		"4,a,1,5,7,append,0\n4,a,1,5,7,prepend,0\n5,a,1,0,7,delete,0\n5,a,1,0,7,incr,0\n6,a,1,0,7,decr,0\n"
	got, bad, st := records(t, trace.Twitter, text)
	if len(bad) > 0 {
		t.Fatal(bad[0])
	}
	check(t, got[:2], []req{
		{Time: 0, Key: "nz:u:eeW511W3dcH3de3d15ec", Client: "12", KeySize: 24, Op: trace.OpGet, Count: 1},
		{Time: time.Second, Key: "nz:u:eeW511W3dcH3de3d15ec", Client: "12", KeySize: 24, Value: 310, Op: trace.OpSet, TTL: time.Hour, Count: 1},
	})
	for i, op := range []trace.Op{trace.OpGets, trace.OpAdd, trace.OpReplace, trace.OpCas, trace.OpAppend, trace.OpPrepend, trace.OpDelete, trace.OpIncr, trace.OpDecr} {
		if got[2+i].Op != op {
			t.Errorf("line %d: op %v, want %v", 3+i, got[2+i].Op, op)
		}
	}
	if st.ZeroSizeReads != 1 || st.Span() != 6*time.Second || st.DistinctKeys != 2 || !st.DistinctExact || st.DistinctClients != 2 {
		t.Errorf("stats %+v: want 1 zero-size read, span 6 s, 2 keys, 2 clients", st)
	}
}

// The four Meta KV layouts, with the example rows libCacheSim's
// conversion script gives for each release; CacheLib's cachebench
// refuses an op_count of 0 and an unknown op, and so does the reader.
func TestMetaKVLayouts(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       req
	}{
		{"202206", "key,op,size,op_count,key_size\n1668757755,SET,82,1,40\n",
			req{Key: "1668757755", KeySize: 40, Value: 82, Op: trace.OpSet, Count: 1}},
		{"202210", "op_time,key,key_size,op,op_count,size,cache_hits,ttl\n564726470,798057486,83,GET,1,62,1,0\n",
			req{Time: 564726470 * time.Second, Key: "798057486", KeySize: 83, Value: 62, Op: trace.OpGet, Count: 1}},
		{"202312", "key,op,size,op_count,key_size,ttl\n177706276,GET,9,1,79,0\n",
			req{Key: "177706276", KeySize: 79, Value: 9, Op: trace.OpGet, Count: 1}},
		{"202401", "op_time,key,key_size,op,op_count,size,cache_hits,ttl,usecase,sub_usecase\n604038471,82131353f9ddc8c6,48,GET,1,87,1,0,366387042,3003229276\n",
			req{Time: 604038471 * time.Second, Key: "82131353f9ddc8c6", Client: "366387042", KeySize: 48, Value: 87, Op: trace.OpGet, Count: 1}},
		{"op_count and ttl", "key,op,size,op_count,key_size,ttl\n7,SET_LEASE,100,35,20,3600\n",
			req{Key: "7", KeySize: 20, Value: 100, Op: trace.OpSet, TTL: time.Hour, Count: 35}},
		{"lease and delete", "key,op,size\n7,GET_LEASE,0\n", req{Key: "7", KeySize: 1, Op: trace.OpGet, Count: 1}},
	} {
		got, bad, st := records(t, trace.MetaKV, c.text)
		if len(bad) > 0 {
			t.Fatalf("%s: %v", c.name, bad[0])
		}
		check(t, got, []req{c.want})
		if st.NonNumericIDs != 0 {
			t.Errorf("%s: %d non-numeric IDs", c.name, st.NonNumericIDs)
		}
		if c.want.Count > 1 && st.Requests != c.want.Count {
			t.Errorf("%s: %d requests, want op_count %d", c.name, st.Requests, c.want.Count)
		}
	}
	_, bad, st := records(t, trace.MetaKV, "key,op,size,op_count\n1,GET,0,0\n2,SAT,100,1\n3,GET,x,1\n4,GET,1\nxyz,DELETE,0,1\n")
	if len(bad) != 4 || st.Records != 1 {
		t.Fatalf("bad rows: %v, %d requests; want 4 errors and 1 request", bad, st.Records)
	}
	for i, want := range []string{`line 2: op_count "0"`, `line 3: unknown op "SAT"`, `line 4: size "x"`, "line 5: 3 columns"} {
		if !strings.Contains(bad[i].Error(), want) {
			t.Errorf("error %d = %v, want %q", i, bad[i], want)
		}
	}
	if st.NonNumericIDs != 1 || len(st.Warnings()) == 0 || !strings.Contains(strings.Join(st.Warnings(), "\n"), `first "xyz"`) {
		t.Errorf("non-numeric ID xyz not reported: %d, %q", st.NonNumericIDs, st.Warnings())
	}
	if _, err := trace.NewReader(strings.NewReader("1668757755,SET,82,1,40\n"), trace.Options{Format: trace.MetaKV}); err == nil || !strings.Contains(err.Error(), "not a header") {
		t.Errorf("headerless file: err = %v, want a header error", err)
	}
}

// memcached 1.6.18's crawler.c prints key=%s exp=%ld la=%llu cas=%llu
// fetch=%s cls=%u size=%lu; 1.6.22 adds flags=; newer versions start
// with OK. Keys are URI-encoded by util.c's uriencode.
func TestMetadumpLines(t *testing.T) {
	text := "OK\r\n" +
		"key=foo%20bar exp=-1 la=1700000001 cas=5 fetch=yes cls=1 size=70\n" +
		"key=a%25b%3Ac exp=1700000100 la=1700000001 cas=6 fetch=no cls=2 size=100 flags=3\n" +
		"END\r\n"
	got, bad, st := records(t, trace.Metadump, text)
	if len(bad) > 0 {
		t.Fatal(bad[0])
	}
	check(t, got, []req{
		{Time: 1700000001 * time.Second, Key: "foo bar", KeySize: 7, Value: 63, Op: trace.OpGet, Count: 1},
		{Time: 1700000001 * time.Second, Key: "a%b:c", KeySize: 5, Value: 95, Op: trace.OpGet, TTL: 99 * time.Second, Count: 1},
	})
	if st.Unterminated || st.Skipped != 2 {
		t.Errorf("unterminated %v, skipped %d; want false, 2 (OK and END)", st.Unterminated, st.Skipped)
	}
	_, bad, st = records(t, trace.Metadump, "key=x%2 exp=-1 la=1 cas=1 fetch=no cls=1 size=10\nkey=y exp=-1 cas=1 size=10\nkey=z exp=-1 la=1 cas=1 fetch=no cls=1 size=70\n")
	if len(bad) != 2 || !strings.Contains(bad[0].Error(), "line 1: key") || !strings.Contains(bad[1].Error(), "line 2: a metadump line needs") {
		t.Errorf("errors %v", bad)
	}
	if !st.Unterminated || !strings.Contains(strings.Join(st.Warnings(), "\n"), "no END") {
		t.Errorf("a dump without END is not reported: %v", st.Warnings())
	}
}

// MONITOR lines as Redis 7.0's replicationFeedMonitors prints them; the
// docs' own example (KEYS *) names no key and is skipped.
func TestMonitorLines(t *testing.T) {
	text := "OK\n" +
		`1339518083.107412 [0 127.0.0.1:60866] "keys" "*"` + "\n" +
		`1700000000.000001 [0 [::1]:6379] "SET" "a \"b\"\n\x01\\" "vvv" "EX" "10"` + "\n" +
		`1700000000.500000 [3 lua] "MGET" "k1" "k2"` + "\n" +
		`1700000001.000000 [0 unix:/tmp/redis.sock] "mset" "a" "1" "b" "22"` + "\n" +
		`1700000002.000000 [0 10.0.0.1:5] "set" "n" "12" "px" "1500" "nx"` + "\n" +
		`1700000003.000000 [0 10.0.0.1:5] "DEL" "x" "y"` + "\n" +
		`1700000003.000000 [0 10.0.0.1:5] "incrby" "c" "5"` + "\n" +
		`1700000003.000000 [0 10.0.0.1:5] "SETEX" "s" "30" "abcd"` + "\n" +
		`1700000004.000000 [0 10.0.0.1:5] "hset" "h" "f1" "v1" "f2" "vv2"` + "\n" +
		`1700000004.000000 [0 10.0.0.1:5] "expire" "h" "10"` + "\n"
	got, bad, st := records(t, trace.RedisMonitor, text)
	if len(bad) > 0 {
		t.Fatal(bad[0])
	}
	sec := func(s, us int64) time.Duration {
		return time.Duration(s)*time.Second + time.Duration(us)*time.Microsecond
	}
	check(t, got, []req{
		{Time: sec(1700000000, 1), Key: "a \"b\"\n\x01\\", Client: "[::1]:6379", KeySize: 8, Value: 3, Op: trace.OpSet, TTL: 10 * time.Second, Count: 1},
		{Time: sec(1700000000, 500000), Key: "k1", Client: "lua", KeySize: 2, Op: trace.OpGet, Count: 1},
		{Time: sec(1700000000, 500000), Key: "k2", Client: "lua", KeySize: 2, Op: trace.OpGet, Count: 1},
		{Time: sec(1700000001, 0), Key: "a", Client: "unix:/tmp/redis.sock", KeySize: 1, Value: 1, Op: trace.OpSet, Count: 1},
		{Time: sec(1700000001, 0), Key: "b", Client: "unix:/tmp/redis.sock", KeySize: 1, Value: 2, Op: trace.OpSet, Count: 1},
		{Time: sec(1700000002, 0), Key: "n", Client: "10.0.0.1:5", KeySize: 1, Value: 2, Op: trace.OpAdd, TTL: 1500 * time.Millisecond, Count: 1},
		{Time: sec(1700000003, 0), Key: "x", Client: "10.0.0.1:5", KeySize: 1, Op: trace.OpDelete, Count: 1},
		{Time: sec(1700000003, 0), Key: "y", Client: "10.0.0.1:5", KeySize: 1, Op: trace.OpDelete, Count: 1},
		{Time: sec(1700000003, 0), Key: "c", Client: "10.0.0.1:5", KeySize: 1, Op: trace.OpIncr, Count: 1},
		{Time: sec(1700000003, 0), Key: "s", Client: "10.0.0.1:5", KeySize: 1, Value: 4, Op: trace.OpSet, TTL: 30 * time.Second, Count: 1},
		{Time: sec(1700000004, 0), Key: "h", Client: "10.0.0.1:5", KeySize: 1, Value: 9, Op: trace.OpSet, Count: 1},
	})
	if st.Skipped != 3 {
		t.Errorf("skipped %d lines, want 3 (OK, KEYS, EXPIRE)", st.Skipped)
	}
	_, bad, _ = records(t, trace.RedisMonitor, `1700000000.000001 [0 c] "GET" "unterminated`+"\n"+`17000.1 [0 c] "GET" "k"`+"\n"+`1700000000.000001 [0 c] "GET" "bad\q"`+"\n")
	if len(bad) != 3 {
		t.Errorf("%d errors %v, want 3", len(bad), bad)
	}
}

// Key lists read as chbench's key files do; key-count lines carry a
// count; redis-scan lines are keys exactly as they are.
func TestKeyLists(t *testing.T) {
	got, bad, st := records(t, trace.Keys, "a\r\n\n   \n b \nc")
	if len(bad) > 0 {
		t.Fatal(bad[0])
	}
	check(t, got, []req{{Key: "a", KeySize: 1, Op: trace.OpGet, Count: 1}, {Key: " b ", KeySize: 3, Op: trace.OpGet, Count: 1}, {Key: "c", KeySize: 1, Op: trace.OpGet, Count: 1}})
	if st.Skipped != 2 {
		t.Errorf("skipped %d, want 2 blank lines", st.Skipped)
	}
	got, bad, st = records(t, trace.KeyCount, "a\t3\nb\tc\t2\nd 4\ne\t0\n")
	check(t, got, []req{{Key: "a", KeySize: 1, Op: trace.OpGet, Count: 3}, {Key: "b\tc", KeySize: 3, Op: trace.OpGet, Count: 2}})
	if len(bad) != 2 || st.Requests != 5 {
		t.Errorf("errors %v, requests %d; want 2 errors, 5 requests", bad, st.Requests)
	}
	got, _, _ = records(t, trace.RedisScan, "a\n\nb\r\n")
	check(t, got, []req{{Key: "a", KeySize: 1, Op: trace.OpGet, Count: 1}, {Key: "", Op: trace.OpGet, Count: 1}, {Key: "b\r", KeySize: 2, Op: trace.OpGet, Count: 1}})
}

// oracleRecord builds one 24-byte oracleGeneral record.
func oracleRecord(ts uint32, id uint64, size uint32, next int64) []byte {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b, ts)
	binary.LittleEndian.PutUint64(b[4:], id)
	binary.LittleEndian.PutUint32(b[12:], size)
	binary.LittleEndian.PutUint64(b[16:], uint64(next))
	return b
}

// The layout of oracleGeneralBin.h: a next access of -1 or INT64_MAX is
// none; one that does not point after its record, and a partial record at
// the end, are syntax errors with their byte offsets.
func TestOracleRecords(t *testing.T) {
	var b []byte
	b = append(b, oracleRecord(10, 42, 100, 3)...)
	b = append(b, oracleRecord(11, 7, 20, -1)...)
	b = append(b, oracleRecord(12, 42, 100, math.MaxInt64)...)
	b = append(b, oracleRecord(12, 9, 1, 4)...) // record 4 pointing at itself
	b = append(b, 1, 2, 3)
	got, bad, st := records(t, trace.OracleGeneral, string(b))
	check(t, got, []req{
		{Time: 10 * time.Second, Key: "42", KeySize: 2, Value: 100, Op: trace.OpGet, Count: 1},
		{Time: 11 * time.Second, Key: "7", KeySize: 1, Value: 20, Op: trace.OpGet, Count: 1},
		{Time: 12 * time.Second, Key: "42", KeySize: 2, Value: 100, Op: trace.OpGet, Count: 1},
	})
	if len(bad) != 2 || bad[0].Offset != 72 || bad[1].Offset != 96 || !strings.Contains(bad[1].Error(), "3 trailing bytes") {
		t.Errorf("errors %v, want record 4 at byte 72 and 3 trailing bytes at 96", bad)
	}
	if st.MaxID != 42 || st.DistinctKeys != 2 || st.DataBytes != int64(len(b)) {
		t.Errorf("stats: max ID %d, %d keys, %d bytes", st.MaxID, st.DistinctKeys, st.DataBytes)
	}
	if !trace.SniffOracle(b[:72], true) || trace.SniffOracle(b[:96], true) || trace.SniffOracle(b, true) {
		t.Error("detection of oracleGeneral records is wrong")
	}
	swapped := append(append([]byte{}, oracleRecord(10, 42, 1, 2)...), oracleRecord(11, 43, 1, -1)...)
	if trace.SniffOracle(swapped, true) {
		t.Error("a next access naming a record of another object passed detection")
	}
}

// Detection names the format when exactly one fits, and refuses to guess
// otherwise, saying why.
func TestDetect(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"0,k,1,2,3,get,0\n", trace.Twitter},
		{"key,op,size\n1,GET,3\n", trace.MetaKV},
		{"key=a exp=-1 la=1 cas=1 fetch=no cls=1 size=60\nEND\r\n", trace.Metadump},
		{"OK\n1700000000.000001 [0 1.2.3.4:5] \"GET\" \"k\"\n", trace.RedisMonitor},
		{"a\t1\nb\t20\n", trace.KeyCount},
		{"user:1\nuser:2\n", trace.Keys},
		{string(oracleRecord(1, 2, 3, -1)), trace.OracleGeneral},
	} {
		f, err := trace.Detect([]byte(c.text), true)
		if err != nil || f.Name != c.want {
			t.Errorf("Detect(%q) = %s, %v; want %s", c.text, f.Name, err, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"", "empty"},
		{"a,b,c\nd,e,f\n", "3 comma-separated columns"},
		{"a\n\nb\n", "keys (skips blank lines"},
		{"a\r\nb\r\n", "redis-scan"},
		{"\x00\x01\x02", "binary data"},
	} {
		if _, err := trace.Detect([]byte(c.text), true); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Detect(%q): err = %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := trace.NewReader(strings.NewReader("x"), trace.Options{Format: "csv"}); err == nil || !strings.Contains(err.Error(), `unknown trace format "csv"`) {
		t.Errorf("unknown format: %v", err)
	}
}

// A line longer than MaxLine is one syntax error; the next line reads.
func TestLongLine(t *testing.T) {
	text := strings.Repeat("x", 3000) + "\nshort\n"
	r, err := trace.NewReader(strings.NewReader(text), trace.Options{Format: trace.Keys, MaxLine: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r.Scan() {
		switch rec := r.Record().(type) {
		case *trace.Request:
			got = append(got, string(rec.Key))
		case *trace.SyntaxError:
			got = append(got, rec.Error())
		}
	}
	if len(got) != 2 || got[0] != "keys: line 1: line longer than 1000 bytes" || got[1] != "short" {
		t.Errorf("records %q", got)
	}
}

// The warnings name each trap the statistics show.
func TestWarnings(t *testing.T) {
	warn := func(format, text string) string {
		_, _, st := records(t, format, text)
		return strings.Join(st.Warnings(), "\n")
	}
	if w := warn(trace.Twitter, "0,0,1,5,1,get,0\n1,0,1,5,1,get,0\n2,0,1,0,1,get,0\n1,0,1,5,1,get,0\n"); !strings.Contains(w, "same key \"0\"") ||
		!strings.Contains(w, "one client") || !strings.Contains(w, "1 of 4 reads have value size 0") || !strings.Contains(w, "backwards 1 times") {
		t.Errorf("warnings:\n%s", w)
	}
	if w := warn(trace.Keys, "a1\nb2\n"); w != "" {
		t.Errorf("a clean key list warns:\n%s", w)
	}
}

// A generated trace of 100,000 requests over 10^6 keys reads back in
// every format, and once the distinct-key count has turned into the
// HyperLogLog estimate a Scan allocates nothing: memory stays flat however
// long the trace. The estimate lies within 4 relative standard errors
// (trace.DistinctRSE: about 4 x 1.0% here) of the exact count of distinct
// keys drawn.
func TestLargeGeneratedTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: writes and reads 100,000 requests per format")
	}
	cfg := workload.Config{Keys: 1000000, Zipf: 0.5, Requests: 100000, Rate: 1000, Values: workload.Sizes{Kind: workload.Fixed, Size: 8},
		Ops: []workload.OpShare{{Op: trace.OpGet, Share: 0.9}, {Op: trace.OpSet, Share: 0.1}}, Clients: 4, Seed: 11}
	exact := map[string]bool{}
	w, err := workload.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for w.Scan() {
		exact[string(w.Record().(*trace.Request).Key)] = true
	}
	for _, format := range trace.FormatNames() {
		t.Run(format, func(t *testing.T) {
			c := cfg
			c.Numeric = format == trace.MetaKV || format == trace.OracleGeneral
			w, err := workload.New(c)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			tw, err := trace.NewWriter(&buf, format)
			if err != nil {
				t.Fatal(err)
			}
			if err := trace.Copy(tw, w); err != nil {
				t.Fatal(err)
			}
			r, err := trace.NewReader(bytes.NewReader(buf.Bytes()), trace.Options{Format: format})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 80000 && r.Scan(); i++ {
			}
			if allocs := testing.AllocsPerRun(1000, func() { r.Scan() }); allocs != 0 {
				t.Errorf("Scan allocates %v times per record after 80,000 records", allocs)
			}
			for r.Scan() {
				if e, ok := r.Record().(*trace.SyntaxError); ok {
					t.Fatal(e)
				}
			}
			st := r.Stats()
			if st.Requests != cfg.Requests || st.DistinctExact {
				t.Fatalf("%d requests (want %d), exact %v", st.Requests, cfg.Requests, st.DistinctExact)
			}
			if rel := math.Abs(float64(st.DistinctKeys)-float64(len(exact))) / float64(len(exact)); rel > 4*trace.DistinctRSE(int64(len(exact))) {
				t.Errorf("distinct keys %d, exact %d: off by %.2f%%, over 4 standard errors", st.DistinctKeys, len(exact), 100*rel)
			}
		})
	}
}

// Progress hears of every input byte, compressed bytes for a zstd file,
// and its sum is the Stats' InputBytes.
func TestProgress(t *testing.T) {
	for _, name := range []string{"twitter.csv", "twitter.csv.zst", "oracle-general.bin"} {
		var seen int64
		calls := 0
		f, err := trace.Open("testdata/"+name, trace.Options{Progress: func(n int64) { seen += n; calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, f)
		st := f.Stats()
		f.Close()
		fi, err := os.Stat("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if seen != fi.Size() || st.InputBytes != fi.Size() || calls == 0 {
			t.Errorf("%s: progress heard %d bytes in %d calls, stats %d, file %d", name, seen, calls, st.InputBytes, fi.Size())
		}
	}
}

// IDs that fit 32 bits over more than 65,536 objects, and keys of four
// hexadecimal digits over enough keys to collide, are named as hashes cut
// short; 64-bit IDs and long keys are not.
func TestTruncatedIDWarnings(t *testing.T) {
	records := func(ids func(i int) uint64, n int) []byte {
		var b []byte
		for i := range n {
			b = append(b, oracleRecord(uint32(i/1000), ids(i), 10, -1)...)
		}
		return b
	}
	warn := func(format string, b []byte) string {
		_, _, st := records2(t, format, b)
		return strings.Join(st.Warnings(), "\n")
	}
	if w := warn(trace.OracleGeneral, records(func(i int) uint64 { return uint64(i) * 50000 }, 70000)); !strings.Contains(w, "fit in 32 bits") {
		t.Errorf("32-bit IDs not named:\n%s", w)
	}
	if w := warn(trace.OracleGeneral, records(func(i int) uint64 { return uint64(i) << 40 }, 70000)); strings.Contains(w, "32 bits") {
		t.Errorf("64-bit IDs named as 32-bit:\n%s", w)
	}
	var keys strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&keys, "%04x\n", (i*7919)%65536)
	}
	if w := warn(trace.Keys, []byte(keys.String())); !strings.Contains(w, "every key is 4 hexadecimal digits") {
		t.Errorf("4-digit hex keys not named:\n%s", w)
	}
	if w := warn(trace.Keys, []byte("user:0000000000000001\nuser:0000000000000002\n")); w != "" {
		t.Errorf("long keys warn:\n%s", w)
	}
}

// records2 is records for binary input.
func records2(t *testing.T, format string, b []byte) ([]req, []*trace.SyntaxError, *trace.Stats) {
	t.Helper()
	return records(t, format, string(b))
}

// The one-line summary a CLI prints for the committed Twitter sample.
func TestStatsString(t *testing.T) {
	f, err := trace.Open("testdata/twitter.csv", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, f)
	f.Close()
	want := "twitter: 200 requests, 47 distinct keys, 67.9 kB, span 19s; get 79.0%, set 11.0%, add 4.5%, delete 5.5%"
	if got := f.Stats().String(); got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
}

// repeat is an endless input of its pattern.
type repeat struct {
	pattern []byte
	at      int
}

func (r *repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.pattern[r.at]
		r.at = (r.at + 1) % len(r.pattern)
	}
	return len(p), nil
}

// TestEndlessUnreadableInput checks that an endless input without a
// readable request ends with an error at the run bounds: one endless line
// (zeros), endless blank lines, and endless unreadable binary records,
// while a request now and then restarts the count.
func TestEndlessUnreadableInput(t *testing.T) {
	cases := []struct {
		name, format, pattern string
		opt                   trace.Options
		records               int64 // records Scan returns before the end
		want                  string
	}{
		{"one endless line", "keys", "\x00", trace.Options{MaxLine: 1 << 10, MaxBadBytes: 1 << 20}, 0, "bytes without a readable request (bytes 0 to 1310720)"},
		{"blank lines", "keys", "\n", trace.Options{MaxBadBytes: 1 << 20}, 0, "1048577 bytes without a readable request (bytes 0 to 1048577)"},
		{"zero records", "oracle-general", "\x00", trace.Options{MaxBadRun: 1000}, 999, "1000 unreadable records in a row (bytes 0 to 24000)"},
		{"NUL lines", "keys", "\x00\n", trace.Options{MaxBadRun: 100}, 99, "100 unreadable records in a row (bytes 0 to 200)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opt.Format = c.format
			r, err := trace.NewReader(&repeat{pattern: []byte(c.pattern)}, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			var n int64
			for r.Scan() {
				if _, ok := r.Record().(*trace.Request); ok {
					t.Fatalf("record %d is a request", n)
				}
				n++
			}
			if n != c.records || r.Err() == nil || !strings.Contains(r.Err().Error(), c.want) {
				t.Fatalf("%d records, then %v; want %d records, then an error with %q", n, r.Err(), c.records, c.want)
			}
		})
	}
	// A request every 10 records restarts the run: 50 bad lines in a row
	// never come, and the input ends cleanly.
	text := strings.Repeat(strings.Repeat("\x00\n", 9)+"k\n", 1000)
	r, err := trace.NewReader(strings.NewReader(text), trace.Options{Format: "keys", MaxBadRun: 10})
	if err != nil {
		t.Fatal(err)
	}
	var reqs int
	for r.Scan() {
		if _, ok := r.Record().(*trace.Request); ok {
			reqs++
		}
	}
	if r.Err() != nil || reqs != 1000 || r.Stats().BadRecords != 9000 {
		t.Fatalf("%d requests, %d bad records, error %v; want 1000, 9000 and none", reqs, r.Stats().BadRecords, r.Err())
	}
}
