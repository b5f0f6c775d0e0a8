package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/zstd"
)

// Reader reads one trace a record at a time, shaped like x/perf's
// benchfmt.Reader: Scan advances to the next record and reports whether
// there is one, Record returns it (a *[Request], or a *[SyntaxError] for a
// record that could not be read: a value to report with its line or byte
// offset, after which reading goes on), and Err returns the error that
// ended the trace early (a read or decompression failure), nil at a clean
// end. Stats describes what has been read so far, and is complete once
// Scan has returned false.
//
// The Record and the slices in it are valid until the next Scan. A Reader
// holds a fixed amount of memory whatever the trace's length (buffers of a
// few hundred KiB, the zstd window, the distinct-key counter's 64 KiB to
// 1.5 MiB), and is not safe for concurrent use.
type Reader interface {
	Scan() bool
	Record() Record
	Err() error
	Stats() *Stats
	Format() Format
}

// Options configure [NewReader] and [Open].
type Options struct {
	// Format is the name of the trace format (see [Formats]); "" detects
	// it from the first 64 KiB of the decompressed input ([Detect]),
	// which refuses to guess when the start fits no format or more than
	// one.
	Format string
	// Progress, if not nil, is called with the number of input bytes
	// consumed (compressed bytes for a zstd file) each time the reader
	// fetches more input, every 64 KiB or so. The CLI passes a progress
	// bar here when stderr is a terminal and nil otherwise, so nothing is
	// drawn into files or pipes.
	Progress func(inputBytes int64)
	// MaxLine bounds a text line; a longer line is a SyntaxError (its
	// first MaxLine bytes are not used). 0 means DefaultMaxLine.
	MaxLine int
	// MaxBadRun and MaxBadBytes bound a run without a readable request:
	// after MaxBadRun unreadable records in a row, or MaxBadBytes bytes of
	// decompressed input since the end of the last request (or the start),
	// the trace ends with an error (Err) instead of reading on: an endless
	// stream of unreadable records (/dev/zero, the wrong format on a pipe)
	// ends. 0 means DefaultMaxBadRun and DefaultMaxBadBytes.
	MaxBadRun   int64
	MaxBadBytes int64
}

// DefaultMaxBadRun and DefaultMaxBadBytes are the bounds of a run without
// a readable request (Options.MaxBadRun, Options.MaxBadBytes): 2^20
// unreadable records in a row, or 1 GiB of input (an over-long line, or
// lines that are no records) since the last request. The unreadable
// records of a real trace are rare and apart (a torn last line, a
// corrupted block); a million in a row, or a gigabyte of input without one
// request, is input of another format or no trace at all.
const (
	DefaultMaxBadRun   = 1 << 20
	DefaultMaxBadBytes = 1 << 30
)

// DefaultMaxLine is the longest text line read by default: 1 MiB, the
// bound of chbench's key files.
const DefaultMaxLine = 1 << 20

// DetectBytes is how much of the decompressed input [NewReader] looks at
// to detect its format.
const DetectBytes = 64 << 10

// zstdMagic starts every zstd frame (RFC 8878, section 3.1.1).
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// NewReader returns a Reader of the trace in r: plain, or zstd-compressed
// (recognised by the zstd frame magic, whatever the file is called, and
// decompressed as it streams with klauspost/compress/zstd). It returns an
// error naming an unknown Options.Format, a format that detection cannot
// tell (with the candidates, or what the start looks like), a Meta KV
// file without a header line, or a read error at the start.
func NewReader(r io.Reader, opt Options) (Reader, error) {
	if opt.MaxLine <= 0 {
		opt.MaxLine = DefaultMaxLine
	}
	if opt.MaxBadRun <= 0 {
		opt.MaxBadRun = DefaultMaxBadRun
	}
	if opt.MaxBadBytes <= 0 {
		opt.MaxBadBytes = DefaultMaxBadBytes
	}
	var f Format
	if opt.Format != "" {
		var err error
		if f, err = LookupFormat(opt.Format); err != nil {
			return nil, err
		}
	}
	in := &counter{r: r, progress: opt.Progress}
	raw := bufio.NewReaderSize(in, 64<<10)
	var src io.Reader = raw
	compressed := false
	var closeDec func()
	if magic, err := raw.Peek(len(zstdMagic)); err == nil && bytes.Equal(magic, zstdMagic) {
		// Concurrency 1 decodes synchronously (no goroutine is left
		// running if the Reader is dropped) and reads no block ahead, so
		// memory stays the window.
		d, err := zstd.NewReader(raw, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
		if err != nil {
			return nil, fmt.Errorf("trace: zstd: %w", err)
		}
		src, compressed, closeDec = d, true, d.Close
	} else if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("trace: %w", err)
	}
	br := bufio.NewReaderSize(src, 256<<10)
	if opt.Format == "" {
		sample, err := br.Peek(DetectBytes)
		atEOF := err == io.EOF
		if err != nil && !atEOF {
			return nil, fmt.Errorf("trace: reading the start to detect its format: %w", err)
		}
		if f, err = Detect(sample, atEOF); err != nil {
			return nil, err
		}
	}
	rd := &reader{format: f, in: in, br: br, lines: lineReader{br: br, max: opt.MaxLine, maxGap: opt.MaxBadBytes},
		maxBadRun: opt.MaxBadRun, closeDec: closeDec}
	rd.stats.Format = f.Name
	rd.stats.Compressed = compressed
	rd.stats.init(f)
	p, err := f.parser(rd)
	if err != nil {
		return nil, err
	}
	rd.p = p
	return rd, nil
}

// File is a [Reader] of a trace file, which Close closes.
type File struct {
	Reader
	f *os.File
}

// Open opens the trace at path and returns its Reader (see [NewReader]);
// "-" reads standard input. Callers must Close it. Errors name the path.
func Open(path string, opt Options) (*File, error) {
	f := os.Stdin
	if path != "-" {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			f.Close()
			return nil, fmt.Errorf("trace %q is a directory", path)
		}
	}
	r, err := NewReader(f, opt)
	if err != nil {
		if path != "-" {
			f.Close()
		}
		return nil, fmt.Errorf("trace %q: %w", path, err)
	}
	return &File{Reader: r, f: f}, nil
}

// Close releases the decompressor, if any, and closes the file (not
// standard input).
func (f *File) Close() error {
	if rd, ok := f.Reader.(*reader); ok && rd.closeDec != nil {
		rd.closeDec()
	}
	if f.f == os.Stdin {
		return nil
	}
	return f.f.Close()
}

// counter counts the bytes read through it and reports them to progress.
type counter struct {
	r        io.Reader
	n        int64
	progress func(int64)
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.progress != nil && n > 0 {
		c.progress(int64(n))
	}
	return n, err
}

// parser reads the next record of one format into r.req or r.serr and
// sets r.rec; it returns false at the end of the trace (setting r.err on
// a read error).
type parser interface {
	next(r *reader) bool
}

// reader is the Reader of every format: the input, the format's parser
// and the statistics.
type reader struct {
	format Format
	in     *counter
	br     *bufio.Reader
	lines  lineReader
	p      parser
	req    Request
	serr   SyntaxError
	rec    Record
	err    error
	done   bool
	stats  Stats
	// A parser of numeric IDs sets hash (a hash of the ID, for the
	// distinct count) and hashed, and counts MaxID itself.
	hash   uint64
	hashed bool
	// badRun counts the unreadable records since the last request, up to
	// maxBadRun (Options.MaxBadRun).
	badRun, maxBadRun int64
	// closeDec releases the zstd decoder, if any.
	closeDec func()
}

func (r *reader) Format() Format { return r.format }
func (r *reader) Record() Record { return r.rec }
func (r *reader) Err() error     { return r.err }
func (r *reader) Stats() *Stats  { return &r.stats }

func (r *reader) Scan() bool {
	if r.done {
		return false
	}
	if !r.p.next(r) {
		r.done = true
		r.stats.InputBytes = r.in.n
		r.stats.DataBytes = r.offset()
		r.stats.finish()
		return false
	}
	if r.rec == &r.req {
		r.badRun, r.lines.good = 0, r.lines.off
		if r.hashed {
			r.stats.add(&r.req, r.hash, true)
			r.hashed = false
		} else {
			r.stats.add(&r.req, xxhash.Sum64(r.req.Key), false)
		}
	} else {
		r.stats.BadRecords++
		if r.badRun++; r.badRun >= r.maxBadRun || r.lines.off-r.lines.good > r.lines.maxGap {
			r.err = r.lines.runaway(r.format.Name, r.badRun, r.maxBadRun)
			r.done = true
			r.stats.InputBytes = r.in.n
			r.stats.DataBytes = r.offset()
			r.stats.finish()
			return false
		}
	}
	return true
}

// offset returns the decompressed bytes consumed so far (binary parsers
// keep their offset in lines.off too).
func (r *reader) offset() int64 { return r.lines.off }

// bad makes the current record a SyntaxError.
func (r *reader) bad(line, offset int64, format string, args ...any) {
	r.serr = SyntaxError{Format: r.format.Name, Line: line, Offset: offset, Msg: fmt.Sprintf(format, args...)}
	r.rec = &r.serr
}

// fail ends the trace with a read error.
func (r *reader) fail(err error) bool {
	r.err = fmt.Errorf("trace: %s: after byte %d: %w", r.format.Name, r.lines.off, err)
	return false
}

// lineReader splits the decompressed input into lines.
type lineReader struct {
	br   *bufio.Reader
	max  int
	n    int64 // lines read so far
	off  int64 // offset of the next line
	long []byte
	// good is the offset after the last request (0 before the first);
	// past maxGap bytes after it, read returns errGap.
	good, maxGap int64
}

// errLong marks a line longer than the limit, errGap input that went on
// past lineReader.maxGap bytes without a request.
var (
	errLong = errors.New("line too long")
	errGap  = errors.New("no request in too many bytes")
)

// runaway returns the error that ends a trace after bad unreadable
// records in a row (maxBad the bound) or too many bytes without a
// request.
func (l *lineReader) runaway(format string, bad, maxBad int64) error {
	what := fmt.Sprintf("%d unreadable records in a row", bad)
	if bad < maxBad {
		what = fmt.Sprintf("%d bytes without a readable request", l.off-l.good)
	}
	return fmt.Errorf("trace: %s: %s (bytes %d to %d): the input is no trace of format %s, or is damaged past reading; the reader stops after %d unreadable records in a row or %d bytes without a request",
		format, what, l.good, l.off, format, maxBad, l.maxGap)
}

// read returns the next line without its "\n", and the offset where it
// starts. A last line without "\n" is a line. At the end it returns
// io.EOF; a line over max bytes returns errLong (and is skipped whole);
// other errors are the input's.
func (l *lineReader) read() (line []byte, start int64, err error) {
	start = l.off
	if l.off-l.good > l.maxGap {
		return nil, start, errGap
	}
	line, err = l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], line...)
		total := len(line)
		for err == bufio.ErrBufferFull {
			if l.off+int64(total)-l.good > l.maxGap {
				l.off += int64(total)
				return nil, start, errGap
			}
			line, err = l.br.ReadSlice('\n')
			total += len(line)
			if len(l.long) <= l.max {
				l.long = append(l.long, line[:min(len(line), l.max+1-len(l.long))]...)
			}
		}
		l.off += int64(total)
		line = l.long
	} else {
		l.off += int64(len(line))
	}
	if err == io.EOF {
		if len(line) == 0 {
			return nil, start, io.EOF
		}
		err = nil
	}
	if err != nil {
		return nil, start, err
	}
	l.n++
	line = bytes.TrimSuffix(line, []byte{'\n'})
	if len(line) > l.max {
		return nil, start, errLong
	}
	return line, start, nil
}

// textParser adapts a function that parses one line into a parser: it
// reads lines, skips those parse reports as not records, and turns long
// lines into SyntaxErrors.
type textParser struct {
	parse func(r *reader, line []byte, n, off int64) (record bool)
}

func (t textParser) next(r *reader) bool {
	for {
		line, off, err := r.lines.read()
		switch err {
		case nil:
		case errLong:
			r.bad(r.lines.n, off, "line longer than %d bytes", r.lines.max)
			return true
		case errGap:
			r.err = r.lines.runaway(r.format.Name, r.badRun, r.maxBadRun)
			return false
		case io.EOF:
			return false
		default:
			return r.fail(err)
		}
		if t.parse(r, line, r.lines.n, off) {
			return true
		}
	}
}

// request resets r.req for a new record of line n at offset off and makes
// it the current record.
func (r *reader) request(n, off int64) *Request {
	r.req = Request{Count: 1, Line: n, Offset: off}
	r.rec = &r.req
	return &r.req
}
