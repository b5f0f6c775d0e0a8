// Package cli is the command line of chbench apart from the commands
// themselves: the flag groups every command shares, each turning its
// flags into the library's values ([Placement], [Analysis] into
// analysis.Options and a Sweep with one key source, [Traffic] into
// analysis.LoadOptions, [Fleet] and [Change] into the sweep's scenarios),
// the writing of a measure's rows in each -format ([WriteRows]), and the
// machinery under them: flag sets that read numbers in plain decimal and
// refuse explicit empty values ([NewFlagSet], [Parse]), the
// comma-separated lists ([Ints], [Floats], [Fractions]), the exit status
// of an error ([Usage], [ExitCode]), the checks of an -o output before any
// work ([CheckPrefix], [CheckFile]) and the progress line drawn on a
// terminal ([StartProgress]). A new command is one file in cmd/chbench/command
// that registers these groups, calls one library function and writes.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
)

// Exit statuses: a usage error, an internal error (a bug); any other
// error while running exits 1.
const (
	StatusUsage    = 2
	StatusInternal = 3 // as internal/supervise.CrashStatus
)

// ExitCode reports err on stderr and returns the exit status for it: 0
// for none or help, 2 for a usage error ([Usage]), 3 for an internal
// error ([Internal]), 1 for any other.
func ExitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	switch {
	case IsInternal(err):
		fmt.Fprintln(stderr, "chbench: internal error (a bug of chbench, not of the input):", err)
		return StatusInternal
	case IsUsage(err):
		fmt.Fprintln(stderr, "chbench:", err)
		return StatusUsage
	}
	fmt.Fprintln(stderr, "chbench:", err)
	return 1
}

// internalError is a bug of chbench: a recovered panic.
type internalError struct{ err error }

func (e internalError) Error() string { return e.err.Error() }
func (e internalError) Unwrap() error { return e.err }

// Internal marks err as an internal error (exit status 3): a panic
// recovered by the command, which no input may cause.
func Internal(err error) error { return internalError{err} }

// IsInternal reports whether err is, or wraps, an error marked by
// Internal.
func IsInternal(err error) bool { return errors.As(err, new(internalError)) }

// usageError is an error in the command line itself (see ExitCode).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// Usage marks err, if any, as a usage error (exit status 2); flag.ErrHelp
// stays as it is, and so does an error of the file system (an
// *fs.PathError: an input file that is missing or unreadable, such as
// -profile or -members), which is an error while running (exit status 1)
// like a missing -keyfile, even when found before any work.
func Usage(err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) || errors.As(err, new(*fs.PathError)) {
		return err
	}
	return usageError{err}
}

// IsUsage reports whether err is, or wraps, an error marked by Usage.
func IsUsage(err error) bool { return errors.As(err, new(usageError)) }
