// Package lines is the one reader of the line files users give chbench:
// key files and request logs (package keyset), members files (package
// analysis) and profiles (package report). Each format adds its own rule
// for what a line holds; what a line is, is the same for all:
//
//   - a line ends at "\n"; a "\r" just before it is not part of the line
//     (CRLF files), and the last line needs no "\n";
//   - a UTF-8 byte-order mark (EF BB BF) at the very start of the file is
//     not part of the first line (editors on Windows write one);
//   - a line holds at most the format's limit of bytes (its end not
//     counted): a line of exactly the limit is read, a longer one is an
//     error naming the file, the line and the limit, never a line cut in
//     two.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// BOM is the UTF-8 byte-order mark.
const BOM = "\xef\xbb\xbf"

// TooLongError is a line longer than its format allows.
type TooLongError struct {
	Name string // the file, as given
	What string // the format, as in "a members file"
	Line int    // 1-based
	Max  int    // bytes
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("%s:%d: line longer than %d bytes, the limit of a line of %s", e.Name, e.Line, e.Max, e.What)
}

// Scan calls fn with every line of r by the rule of the package doc,
// without its end, and its 1-based number. The slice is valid only during
// the call. name and what (the format, "a key file") name the file in
// errors. It returns a *TooLongError for a line longer than max bytes, a
// read error of r wrapped with name, or fn's first error as it is.
func Scan(r io.Reader, name, what string, max int, fn func(line []byte, no int) error) error {
	sc := bufio.NewScanner(r)
	// The scanner refuses a token as long as its buffer limit, and needs
	// room for the byte-order mark of line 1 and the "\r\n" that ends a
	// line: max+6 lets a line of exactly max bytes through, and the check
	// below refuses longer ones.
	sc.Buffer(make([]byte, 0, min(64<<10, max+6)), max+6)
	no := 0
	for sc.Scan() {
		no++
		line := sc.Bytes() // bufio.ScanLines drops "\n" and a "\r" before it
		if no == 1 {
			line = bytes.TrimPrefix(line, []byte(BOM))
		}
		if len(line) > max {
			return &TooLongError{Name: name, What: what, Line: no, Max: max}
		}
		if err := fn(line, no); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &TooLongError{Name: name, What: what, Line: no + 1, Max: max}
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
