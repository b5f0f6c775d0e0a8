package trace

import (
	"bytes"
	"fmt"
	"strings"
)

// Format describes one trace format: its name (for Options.Format and a
// CLI's -trace-format), what it holds, and where its layout is defined.
type Format struct {
	Name   string // "twitter", "meta-kv", ...
	Doc    string // one line: what a record is
	Source string // the file or document (with its version) the layout follows
	Binary bool   // records are bytes, not lines
	// What its records carry: a clock (Request.Time), value sizes, TTLs,
	// a client, and keys that are numeric IDs by definition.
	HasTime, HasSize, HasTTL, HasClient, NumericIDs bool

	parser func(r *reader) (parser, error)
	sniff  func(lines [][]byte) bool // text formats: every sampled line fits
}

// The format names.
const (
	Twitter       = "twitter"
	MetaKV        = "meta-kv"
	OracleGeneral = "oracle-general"
	Metadump      = "metadump"
	RedisScan     = "redis-scan"
	RedisMonitor  = "redis-monitor"
	Keys          = "keys"
	KeyCount      = "key-count"
)

var formats = []Format{
	{Name: Twitter, Doc: "timestamp,anonymized_key,key_size,value_size,client_id,operation,TTL per line (seconds; one request each)",
		Source:  "twitter/cache-trace README.md (2020Mar traces)",
		HasTime: true, HasSize: true, HasTTL: true, HasClient: true,
		parser: func(*reader) (parser, error) { return textParser{parseTwitter}, nil }, sniff: sniffTwitter},
	{Name: MetaKV, Doc: "CSV with a header naming key, op, size and optionally op_count, key_size, ttl, op_time, cache_hits, usecase, sub_usecase; a row stands for op_count requests",
		Source:  "CacheLib cachelib/cachebench/workload/KVReplayGenerator.h and ReplayGeneratorBase.h; libCacheSim scripts/traceConv (Meta KV releases 202206, 202210, 202312, 202401)",
		HasTime: true, HasSize: true, HasTTL: true, HasClient: true, NumericIDs: true,
		parser: newMetaKV, sniff: sniffMetaKV},
	{Name: OracleGeneral, Doc: "packed 24-byte little-endian records: u32 clock time (s), u64 object ID, u32 object size, i64 next access (1-based request number, -1 = never)",
		Source: "libCacheSim traceReader/customizedReader/oracle/oracleGeneralBin.h and bin/traceUtils/traceConv.cpp (2024-10)",
		Binary: true, HasTime: true, HasSize: true, NumericIDs: true,
		parser: newOracle},
	{Name: Metadump, Doc: "memcached `lru_crawler metadump` lines key=<uri-encoded> exp= la= cas= fetch= cls= size= [flags=], ending END",
		Source:  "memcached crawler.c crawler_metadump_eval and util.c uriencode (1.6.18; flags= since 1.6.22)",
		HasTime: true, HasSize: true, HasTTL: true,
		parser: newMetadump, sniff: sniffMetadump},
	{Name: RedisScan, Doc: "`redis-cli --scan` written to a file or pipe: one raw key per line (an empty line is the empty key)",
		Source: "redis src/redis-cli.c scanMode (7.0: raw output when stdout is not a terminal)",
		parser: func(*reader) (parser, error) { return textParser{parseRedisScan}, nil }},
	{Name: RedisMonitor, Doc: "Redis MONITOR lines: <sec>.<usec> [<db> <client>] \"cmd\" \"arg\" ... (sdscatrepr quoting)",
		Source:  "redis src/replication.c replicationFeedMonitors and src/sds.c sdscatrepr (7.0.15)",
		HasTime: true, HasSize: true, HasTTL: true, HasClient: true,
		parser: newMonitor, sniff: sniffMonitor},
	{Name: Keys, Doc: "one key per line; blank lines skipped, a trailing CR removed (chbench's key files)",
		Source: "chbench keyset.File",
		parser: func(*reader) (parser, error) { return textParser{parseKeys}, nil }},
	{Name: KeyCount, Doc: "key<TAB>count per line: count requests of key",
		Source: "chbench",
		parser: func(*reader) (parser, error) { return textParser{parseKeyCount}, nil }, sniff: sniffKeyCount},
}

// Formats returns every supported format, in a fixed order.
func Formats() []Format { return append([]Format(nil), formats...) }

// FormatNames returns the names of the supported formats, in order.
func FormatNames() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return names
}

// LookupFormat returns the format named name, or an error naming it and
// the known formats.
func LookupFormat(name string) (Format, error) {
	for _, f := range formats {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("unknown trace format %q (known: %s)", name, strings.Join(FormatNames(), ", "))
}

// detectLines is how many lines of the sample detection looks at.
const detectLines = 1000

// Detect names the format of a trace from the start of its decompressed
// bytes (sample; atEOF when it is the whole trace). Every text format
// with a structure (Twitter, Meta KV, metadump, MONITOR, key-count) must
// fit every sampled line; libCacheSim's binary records must be whole,
// their clock must not run backwards and every next-access number that
// falls inside the sample must point at a later record of the same
// object. Text that fits none is a key list (keys), unless its lines are
// comma- or tab-separated columns (a CSV of another layout, refused), or
// hold blank lines or carriage returns, which keys and redis-scan read
// differently. Detection refuses to guess: an error lists the candidates
// when several fit, or says what the start looks like when none does.
func Detect(sample []byte, atEOF bool) (Format, error) {
	if len(sample) == 0 {
		return Format{}, fmt.Errorf("trace is empty: nothing to read")
	}
	if isBinary(sample) {
		if sniffOracle(sample, atEOF) {
			return LookupFormat(OracleGeneral)
		}
		return Format{}, fmt.Errorf("trace starts with binary data that is not an %s trace (24-byte records whose clock never runs backwards and whose next-access numbers point at later requests for the same object); name the format if it is one", OracleGeneral)
	}
	lines := sampleLines(sample, atEOF)
	if len(lines) == 0 {
		return Format{}, fmt.Errorf("trace's first line is longer than %d bytes: cannot detect its format; name it", len(sample))
	}
	var fits []string
	for _, f := range formats {
		if f.sniff != nil && f.sniff(lines) {
			fits = append(fits, f.Name)
		}
	}
	switch len(fits) {
	case 1:
		return LookupFormat(fits[0])
	case 0:
	default:
		return Format{}, fmt.Errorf("trace fits several formats (%s): name one", strings.Join(fits, ", "))
	}
	if sep, cols := columns(lines); cols >= 3 {
		return Format{}, fmt.Errorf("trace looks like %d %s-separated columns (first line %q) but fits no known layout (%s); name the format (%s reads each line as one key)",
			cols, sep, clip(lines[0]), strings.Join(FormatNames(), ", "), Keys)
	}
	for _, l := range lines {
		if len(bytes.TrimSpace(l)) == 0 || bytes.HasSuffix(l, []byte{'\r'}) {
			return Format{}, fmt.Errorf("trace is one key per line with blank lines or carriage returns, which %s (skips blank lines, removes a trailing CR) and %s (every line is a key as it is) read differently: name one", Keys, RedisScan)
		}
	}
	return LookupFormat(Keys)
}

// isBinary reports whether b holds bytes no text trace has (NUL or other
// control characters besides tab, CR and LF).
func isBinary(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
	}
	return false
}

// sampleLines returns the complete lines of sample (the last one too when
// atEOF), at most detectLines.
func sampleLines(sample []byte, atEOF bool) [][]byte {
	var out [][]byte
	for len(sample) > 0 && len(out) < detectLines {
		i := bytes.IndexByte(sample, '\n')
		if i < 0 {
			if atEOF {
				out = append(out, sample)
			}
			break
		}
		out = append(out, sample[:i])
		sample = sample[i+1:]
	}
	return out
}

// columns reports whether every line has the same number (>= 2) of commas
// or of tabs: the separator's name and the column count, or 0.
func columns(lines [][]byte) (string, int) {
	for _, sep := range []struct {
		name string
		b    byte
	}{{"comma", ','}, {"tab", '\t'}} {
		n := bytes.Count(lines[0], []byte{sep.b})
		if n < 2 {
			continue
		}
		same := true
		for _, l := range lines[1:] {
			if bytes.Count(l, []byte{sep.b}) != n {
				same = false
				break
			}
		}
		if same {
			return sep.name, n + 1
		}
	}
	return "", 0
}

// clip shortens a line for an error message.
func clip(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}
