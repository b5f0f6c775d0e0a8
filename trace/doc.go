// Package trace reads the cache traces and key dumps people have, one
// streaming reader per format, all yielding one [Request] type (time, key,
// key and value sizes, operation, TTL, count, client), and writes them
// back ([NewWriter]).
//
// A [Reader] is shaped like x/perf's benchfmt.Reader: Scan, Record (a
// *Request, or a *SyntaxError naming the line or byte offset of a record
// that could not be read, after which reading goes on), Err (what ended
// the trace early), plus Stats: what was read (requests, distinct keys,
// bytes, time span, operations) and Stats.Warnings, the traps the trace
// shows. Memory is flat in the trace's length: buffers, the zstd window
// and a distinct-key counter that turns from exact to a HyperLogLog
// estimate past 65,536 keys; once it has turned, a Scan allocates
// nothing. [KeySource] streams a trace's keys as key sets, for the
// analyses that take keys.
//
// # Formats
//
// Each layout follows its source (Format.Source):
//
//   - twitter: Twitter's cache traces (twitter/cache-trace README.md, the
//     2020Mar traces): timestamp,anonymized_key,key_size,value_size,
//     client_id,operation,TTL per line, no header; seconds; operations
//     get, gets, set, add, replace, cas, append, prepend, delete, incr,
//     decr; TTL 0 on reads. The published files are zstd-compressed.
//   - meta-kv: Meta's key-value cache traces, CSV with a header that names
//     the columns as CacheLib's cachebench reads them
//     (cachelib/cachebench/workload/KVReplayGenerator.h): key, op, size
//     required; op_count, key_size, ttl, op_time, usecase optional. The
//     releases' layouts are listed in metakv.go (from libCacheSim's
//     conversion script); a row stands for op_count requests.
//   - oracle-general: libCacheSim's binary trace
//     (traceReader/customizedReader/oracle/oracleGeneralBin.h, written by
//     bin/traceUtils/traceConv.cpp): packed 24-byte little-endian records,
//     u32 clock time, u64 object ID, u32 size, i64 next access; plain or
//     zstd (libCacheSim's .zst files).
//   - metadump: memcached's `lru_crawler metadump` (crawler.c,
//     crawler_metadump_eval; util.c's uriencode for keys), ending END.
//   - redis-scan: `redis-cli --scan` written to a file or pipe (raw keys,
//     src/redis-cli.c scanMode).
//   - redis-monitor: MONITOR lines (src/replication.c
//     replicationFeedMonitors, quoting by src/sds.c sdscatrepr).
//   - keys: one key per line, as chbench's key files.
//   - key-count: key<TAB>count.
//
// A zstd-compressed input is recognised by the zstd frame magic and
// decompressed as it streams (github.com/klauspost/compress/zstd).
// Options.Format names the format; left empty, [Detect] looks at the
// first 64 KiB and refuses to guess when the start fits no format or
// several (a CSV of an unknown layout, a key list whose blank lines or
// CRs keys and redis-scan read differently).
//
// # Traps
//
// Stats.Warnings names what the trace's statistics reveal: every request
// naming one key (IDs lost, as when a numeric reader turns text IDs into
// 0: libCacheSim PR#324), numeric IDs that fit 32 bits or keys of a few
// hex digits (hashes cut short, so distinct objects share IDs: about
// D^2/2^(bits+1) of them), a single client (a capture at one client, not
// the fleet), reads of size 0 (misses that recorded no size), keys that
// are not IDs in a format of numeric IDs (kept as text, never merged), a
// clock that runs backwards, a metadump without END, and records that
// could not be read.
//
// # Progress
//
// Options.Progress, when not nil, is told the input bytes consumed as the
// reader fetches them; the CLI passes a progress bar there only when
// stderr is a terminal, so nothing is drawn into files or pipes.
package trace
