package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/internal/tempfile"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/trace"
)

// Trace is the flag group of a trace input: -trace FILE and -trace-format
// NAME, and for the commands that take keys (move, spread, replication,
// storm) -trace-keys distinct|requests. A trace enters once, at the
// boundary, as a [TraceInput].
type Trace struct {
	Path    string // -trace ("" = none, "-" = standard input)
	Format  string // -trace-format ("" = detect)
	keys    string // -trace-keys
	hasKeys bool
}

// Register adds -trace and -trace-format to fs and, when keysDefault is
// not empty, -trace-keys with that default.
func (t *Trace) Register(fs *flag.FlagSet, keysDefault string) {
	fs.StringVar(&t.Path, "trace", "", "read the keys and requests from this trace (- is standard input), plain or zstd-compressed, in one of the formats "+strings.Join(trace.FormatNames(), ", ")+" (docs/traces.md); what was read and its warnings go to stderr")
	fs.StringVar(&t.Format, "trace-format", "", "the format of -trace (default: detected from its first 64 KiB; detection names the candidates and refuses to guess when the start fits several formats or none)")
	if keysDefault != "" {
		t.hasKeys = true
		fs.StringVar(&t.keys, "trace-keys", keysDefault, "with -trace: distinct (each key once, in order of first appearance) or requests (every request, so a key weighs as many times as it is requested)")
	}
}

// Given reports whether -trace was given.
func (t *Trace) Given() bool { return t.Path != "" }

// Distinct reports whether -trace-keys asks for each key once.
func (t *Trace) Distinct() bool { return t.keys == "distinct" }

// Check returns an error naming a trace flag given without -trace, an
// unknown -trace-format or a bad -trace-keys, or one of conflicts (flags
// the trace replaces, such as -keyfile) given with -trace.
func (t *Trace) Check(set map[string]bool, conflicts ...string) error {
	if t.Path == "" {
		for _, f := range []string{"trace-format", "trace-keys"} {
			if set[f] {
				return fmt.Errorf("-%s needs -trace FILE", f)
			}
		}
		return nil
	}
	for _, f := range conflicts {
		if set[f] {
			return fmt.Errorf("-%s cannot be combined with -trace: the trace gives the keys and requests", f)
		}
	}
	if t.Format != "" {
		if _, err := trace.LookupFormat(t.Format); err != nil {
			return err
		}
	}
	if t.hasKeys && t.keys != "distinct" && t.keys != "requests" {
		return fmt.Errorf("trace-keys %q: want distinct or requests", t.keys)
	}
	return nil
}

// TraceInput is a trace entered at the command line: the path as given,
// the file every pass reads (the path itself, or for standard input and
// other streams a copy on disk when the run reads it more than once), and
// the stderr its summaries go to.
type TraceInput struct {
	path   string // as given
	read   string // the file each pass opens
	format string // -trace-format, or the format the first pass detected
	size   int64  // bytes of read (0 for a stream read once)
	remove func() // removes the copy of a stream
	stderr io.Writer
	passes int
}

// Input returns the trace of -trace. With reread (a run that reads the
// trace more than once) standard input and any other stream is first
// copied to a temporary file (at most keyset.MaxStreamBytes), which Close
// removes; without it a stream is read once, as it comes. Errors name the
// path: a missing file (an error while running), a directory.
func (t *Trace) Input(stderr io.Writer, reread bool) (*TraceInput, error) {
	in := &TraceInput{path: t.Path, read: t.Path, format: t.Format, remove: func() {}, stderr: stderr}
	if t.Path != "-" {
		fi, err := os.Stat(t.Path)
		if err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
		if fi.IsDir() {
			return nil, fmt.Errorf("trace %q is a directory", t.Path)
		}
		if fi.Mode().IsRegular() {
			in.size = fi.Size()
			return in, nil
		}
	}
	if !reread {
		return in, nil
	}
	if err := in.spool(); err != nil {
		return nil, err
	}
	return in, nil
}

// spool copies the stream at in.path to a temporary file that later
// passes read.
func (in *TraceInput) spool() error {
	src := os.Stdin
	if in.path != "-" {
		f, err := os.Open(in.path)
		if err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		defer f.Close()
		src = f
	}
	out, untrack, err := tempfile.Create("", "chbench-trace-*")
	if err != nil {
		return fmt.Errorf("trace %q: copying the stream: %w", in.path, err)
	}
	in.remove = func() {
		os.Remove(out.Name())
		untrack()
	}
	n, err := io.Copy(out, io.LimitReader(src, keyset.MaxStreamBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > keyset.MaxStreamBytes {
		err = fmt.Errorf("longer than %d bytes; save it to a regular file, which is read in place", int64(keyset.MaxStreamBytes))
	}
	if err != nil {
		in.remove()
		return fmt.Errorf("trace %q: %w", in.path, err)
	}
	in.read, in.size = out.Name(), n
	return nil
}

// Path returns the trace's path as given ("-" for standard input).
func (in *TraceInput) Path() string { return in.path }

// Close removes the copy of a stream, if any.
func (in *TraceInput) Close() { in.remove() }

// Open opens the trace for one pass, reporting the input bytes it reads
// to progress (nil: none). After the first pass every pass reads the
// format that pass detected, so detection runs once. The reader keeps the
// first [MaxBadShown] unreadable records (TraceReader.Bad), and a pass
// that reaches a clean end without one readable request ends with an
// [*UnreadableTraceError] from Err: every command refuses such a trace
// here, where each of its passes opens it.
func (in *TraceInput) Open(progress func(int64)) (*TraceReader, error) {
	f, err := trace.Open(in.read, trace.Options{Format: in.format, Progress: progress})
	if err != nil {
		if in.read != in.path { // the copy's name means nothing to the user
			err = fmt.Errorf("trace %q: %w", in.path, unwrapPath(err, in.read))
		}
		return nil, err
	}
	in.format = f.Format().Name
	in.passes++
	return &TraceReader{File: f, path: in.path}, nil
}

// Reopen opens the trace for a later pass, without progress: Open as a
// trace.Reader (nil with the error), for the sources that read the trace
// again.
func (in *TraceInput) Reopen() (trace.Reader, error) {
	r, err := in.Open(nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// TraceReader is one pass over a trace opened by [TraceInput.Open]: a
// trace.Reader and io.Closer that keeps the pass's first unreadable
// records and refuses a trace with no readable request.
type TraceReader struct {
	*trace.File
	path  string                // as given
	bad   []trace.SyntaxError   // the first MaxBadShown
	empty *UnreadableTraceError // set at a clean end with 0 requests
}

// Scan advances to the next record (trace.Reader's Scan), keeping the
// first MaxBadShown syntax errors; at a clean end with no request read
// it makes Err return an *UnreadableTraceError.
func (r *TraceReader) Scan() bool {
	if !r.File.Scan() {
		if st := r.Stats(); r.File.Err() == nil && st.Requests == 0 {
			r.empty = &UnreadableTraceError{Path: r.path, Format: r.Format().Name, Bad: st.BadRecords}
		}
		return false
	}
	if e, ok := r.Record().(*trace.SyntaxError); ok && len(r.bad) < MaxBadShown {
		r.bad = append(r.bad, *e)
	}
	return true
}

// Err returns the error that ended the pass early (trace.Reader's Err),
// or an *UnreadableTraceError for a trace read to its end without one
// readable request; nil otherwise.
func (r *TraceReader) Err() error {
	if err := r.File.Err(); err != nil {
		return err
	}
	if r.empty != nil {
		return r.empty
	}
	return nil
}

// Bad returns the first MaxBadShown unreadable records read so far.
func (r *TraceReader) Bad() []trace.SyntaxError { return r.bad }

// UnreadableTraceError is a trace read to its end without one readable
// request: an empty file, or one whose every record failed to parse in
// its format (the wrong -trace-format, say).
type UnreadableTraceError struct {
	Path   string // as given ("-" for standard input)
	Format string // the format it was read in
	Bad    int64  // records that could not be read
}

func (e *UnreadableTraceError) Error() string {
	return fmt.Sprintf("trace %q: 0 readable requests in format %s, %d unreadable records", e.Path, e.Format, e.Bad)
}

// unwrapPath strips the `trace "PATH": ` prefix trace.Open puts on err.
func unwrapPath(err error, path string) error {
	if s, ok := strings.CutPrefix(err.Error(), fmt.Sprintf("trace %q: ", path)); ok {
		return fmt.Errorf("%s", s)
	}
	return err
}

// Progress starts a progress bar of one pass over the trace on stderr
// (a terminal only; the bar counts input bytes, compressed bytes for a
// zstd file), for Open's progress.
func (in *TraceInput) Progress() *Progress { return StartByteProgress(in.stderr, in.size) }

// Report writes what a pass read to stderr: the trace's summary
// (Stats.String), each warning, and the first unreadable records as
// PATH:LINE: message (PATH: byte OFFSET: for binary formats).
func (in *TraceInput) Report(st *trace.Stats, bad []trace.SyntaxError) {
	name := in.path
	if name == "-" {
		name = "standard input"
	}
	fmt.Fprintf(in.stderr, "trace %s: %s\n", name, st)
	for _, w := range st.Warnings() {
		fmt.Fprintf(in.stderr, "trace %s: warning: %s\n", name, w)
	}
	for _, e := range bad {
		if e.Line > 0 {
			fmt.Fprintf(in.stderr, "%s:%d: %s\n", name, e.Line, e.Msg)
		} else {
			fmt.Fprintf(in.stderr, "%s: byte %d: %s\n", name, e.Offset, e.Msg)
		}
	}
	if n := st.BadRecords - int64(len(bad)); n > 0 {
		fmt.Fprintf(in.stderr, "trace %s: %d more unreadable records not shown\n", name, n)
	}
}

// MaxBadShown is how many unreadable records Report shows.
const MaxBadShown = 10

// Pass opens the trace for a pass that reads it to its end, with a
// progress bar on a terminal, and returns its reader and the function to
// call once the pass is over: it stops the bar and writes what the pass
// read (Report). The reader's Err refuses a trace without a readable
// request (see Open).
func (in *TraceInput) Pass() (trace.Reader, func(), error) {
	bar := in.Progress()
	r, err := in.Open(bar.Hook())
	if err != nil {
		bar.Stop()
		return nil, func() {}, err
	}
	return r, func() {
		bar.Stop()
		in.Report(r.Stats(), r.Bad())
	}, nil
}

// KeySource reads the trace once (a Pass) to count its keys and report
// what it holds, and returns it as the key source of sets key sets
// (trace.KeySource: each distinct key once, or every request), which
// reads it again on every pass, and what the first pass read. When the
// format carries sizes the source is also an analysis.RequestSource, so a
// spread reports bytes. It returns an error for a trace that cannot be
// read, holds fewer keys than sets, or more distinct keys than
// trace.DefaultMaxDistinct.
func (in *TraceInput) KeySource(sets int, distinct bool) (analysis.FileSource, *trace.Stats, error) {
	var first trace.Reader
	done := func() {}
	count := &trace.KeySource{SetCount: sets, Distinct: distinct, Open: func() (trace.Reader, error) {
		var err error
		first, done, err = in.Pass()
		return first, err
	}}
	var n atomic.Int64
	err := count.Each(0, func(_, _ int, keys []string) { n.Add(int64(len(keys))) })
	done()
	if err != nil {
		return nil, nil, err
	}
	if n.Load() < int64(sets) {
		return nil, nil, fmt.Errorf("trace %q: %d keys, fewer than the %d key sets (-sets)", in.path, n.Load(), sets)
	}
	ks := &traceKeys{KeySource: trace.KeySource{SetCount: sets, Distinct: distinct, Open: in.Reopen},
		path: in.path, keys: int(n.Load())}
	if first.Format().HasSize {
		return traceRequests{ks, in}, first.Stats(), nil
	}
	return ks, first.Stats(), nil
}

// traceKeys is a trace's keys as an analysis.FileSource.
type traceKeys struct {
	trace.KeySource
	path string
	keys int
}

func (k *traceKeys) Keys() int    { return k.keys }
func (k *traceKeys) Path() string { return k.path }

// traceRequests is a trace's keys as an analysis.RequestSource.
type traceRequests struct {
	*traceKeys
	in *TraceInput
}

func (r traceRequests) Requests() (trace.Reader, error) { return r.in.Reopen() }
