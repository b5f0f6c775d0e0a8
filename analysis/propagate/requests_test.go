package propagate

import (
	"strings"
	"testing"
)

// A generated stream: evenly spaced times inside [Start, End), clients
// and keys in range, about the asked write fraction (4.5 binomial standard
// deviations of 10,000 draws: 0.1 ± 0.0135), the same requests for the
// same replay and different ones for another.
func TestGenerated(t *testing.T) {
	g, err := NewGenerated(GeneratedConfig{Keys: 500, Zipf: 0.9, Rate: 1000, Start: 2, End: 12, Clients: 7, Writes: 0.1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if g.Requests() != 10000 {
		t.Fatalf("%d requests, want 10 s x 1000/s", g.Requests())
	}
	read := func(rep int) []Request {
		st, err := g.Open(rep)
		if err != nil {
			t.Fatal(err)
		}
		var rs []Request
		for st.Scan() {
			rs = append(rs, st.Request())
		}
		if st.Err() != nil {
			t.Fatal(st.Err())
		}
		return rs
	}
	a, b, c := read(0), read(0), read(1)
	writes := 0
	for i, r := range a {
		if want := 2 + float64(i)/1000; r.Time != want || r.Client < 0 || r.Client >= 7 || !strings.HasPrefix(r.Key, "user:") {
			t.Fatalf("request %d: %+v, want time %v, client 0..6, a user: key", i, r, want)
		}
		if r.Op == Write {
			writes++
		}
		if b[i] != r {
			t.Fatalf("request %d differs between two opens of replay 0", i)
		}
	}
	if f := float64(writes) / 10000; f < 0.1-0.0135 || f > 0.1+0.0135 {
		t.Errorf("write fraction %v, want 0.1 ± 0.0135", f)
	}
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same > 1000 {
		t.Errorf("replays 0 and 1 share %d of 10,000 requests", same)
	}
	for cfg, want := range map[GeneratedConfig]string{
		{Keys: 0, Rate: 1, End: 1, Clients: 1}:                    "keys 0",
		{Keys: MaxGeneratedKeys + 1, Rate: 1, End: 1, Clients: 1}: "keys 16777217",
		{Keys: 1, Rate: 0, End: 1, Clients: 1}:                    "rate 0",
		{Keys: 1, Rate: 1, End: 0, Clients: 1}:                    "span 0..0 s",
		{Keys: 1, Rate: 1, End: 1, Clients: 0}:                    "clients 0",
		{Keys: 1, Rate: 1, End: 1, Clients: 1, Writes: 2}:         "write fraction 2",
		{Keys: 1, Rate: 1e9, End: 1e9, Clients: 1}:                "at most 2147483648 per replay",
		{Keys: 1, Zipf: -1, Rate: 1, End: 1, Clients: 1}:          "zipf exponent -1",
	} {
		if _, err := NewGenerated(cfg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want an error containing %q", cfg, err, want)
		}
	}
}
