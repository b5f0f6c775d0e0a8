package propagate

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/trace"
)

// monitorTrace returns a Trace over MONITOR lines given as text.
func monitorTrace(text string) *Trace {
	return &Trace{Path: "monitor.txt", Open: func() (trace.Reader, error) {
		return trace.NewReader(strings.NewReader(text), trace.Options{Format: "redis-monitor"})
	}}
}

// TestTraceSourceClockSpanAndOps checks the requests a trace replay reads:
// times from the first request, in seconds as given; requests outside the
// span skipped but counted in the client assignment; gets read, every
// other operation (SET, DEL) a write; clients Mix64(seed ^ i) mod C; and
// the same requests in every replay.
func TestTraceSourceClockSpanAndOps(t *testing.T) {
	tr := monitorTrace(`1700000010.000000 [0 1] "GET" "a"
1700000010.500000 [0 1] "SET" "b" "v"
1700000011.250000 [0 1] "DEL" "a"
1700000012.000000 [0 1] "GET" "c"
1700000013.000000 [0 1] "GET" "d"
`)
	const clients, seed = 7, 42
	src := tr.source(0.5, 3, clients, seed)
	want := []Request{
		{Time: 0.5, Key: "b", Op: Write, Client: int(algorithms.Mix64(seed^traceSalt^1) % clients)},
		{Time: 1.25, Key: "a", Op: Write, Client: int(algorithms.Mix64(seed^traceSalt^2) % clients)},
		{Time: 2, Key: "c", Op: Read, Client: int(algorithms.Mix64(seed^traceSalt^3) % clients)},
	}
	for rep := range 2 {
		st, err := src.Open(rep)
		if err != nil {
			t.Fatal(err)
		}
		var got []Request
		for st.Scan() {
			got = append(got, st.Request())
		}
		if err := st.Err(); err != nil {
			t.Fatalf("replay %d: %v", rep, err)
		}
		if len(got) != len(want) {
			t.Fatalf("replay %d: %d requests %v, want %v", rep, len(got), got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("replay %d: request %d = %+v, want %+v", rep, i, got[i], want[i])
			}
		}
	}
}

// TestTraceSourceErrors checks that a trace out of time order and a span
// that holds none of its requests end the stream with an error naming
// the trace and the values.
func TestTraceSourceErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		start, end float64
		want       string
	}{
		{"backwards", "1700000010.000000 [0 1] \"GET\" \"a\"\n1700000009.000000 [0 1] \"GET\" \"b\"\n", 0, 10, "line 2 (byte 34): request at -1 s before the previous at 0 s"},
		{"outside", "1700000010.000000 [0 1] \"GET\" \"a\"\n1700000012.000000 [0 1] \"GET\" \"b\"\n", 5, 10, "no request inside the replay span [5, 10) s of its clock (the first request at 0 s, the last at 2 s)"},
	} {
		st, err := monitorTrace(c.text).source(c.start, c.end, 3, 1).Open(0)
		if err != nil {
			t.Fatal(err)
		}
		for st.Scan() {
		}
		if err := st.Err(); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), `"monitor.txt"`) {
			t.Errorf("%s: error %v, want one containing %q and the trace's name", c.name, err, c.want)
		}
	}
}
