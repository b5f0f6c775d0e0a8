package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/inputs"
)

// NewFlagSet returns a flag set that reports errors instead of exiting and
// prints usage (with units and defaults) to stderr.
func NewFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: chbench %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args with fs and returns the set of flags given explicitly.
//
// An explicit empty (or blank) value is an error for every flag: -hash ""
// must not silently mean the default hash, -weights "" all 1, or -op ""
// add. Leaving a flag out is how to ask for its default.
//
// Integer and float flags take plain decimal, as the comma-separated
// lists do ([Ints], [Floats]): the flag package reads integers with
// strconv base 0, so that -nodes 0x10 meant 16, -nodes 010 meant 8 and
// -nodes 1_000 meant 1000, and floats with strconv.ParseFloat, which
// takes Go literals too (-hit 1_0 meant 10, -hit 0x1p-1 meant 0.5).
// decimalNumbers rewrites or refuses those values first.
func Parse(fs *flag.FlagSet, args []string) (map[string]bool, error) {
	args, err := decimalNumbers(fs, args)
	if err != nil {
		return nil, err
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if name, v, ok := emptyValue(fs, args); ok {
		return nil, fmt.Errorf("-%s %q: an explicit empty value is not allowed; leave the flag out for its default", name, v)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	declareInputs(fs, set)
	return set, nil
}

// Args returns an error unless exactly n arguments are left after fs's
// flags, naming every argument it got, each quoted: for n = 0
// `unexpected argument "x"` (`unexpected arguments "x" "y"`), otherwise
// `want WANT, got 3 arguments: "a" "b" "c"` (`got none`), want saying
// what the arguments are. An argument that looks like a flag adds that
// flags go before the arguments (the flag package stops at the first
// argument, so a flag after one is an argument too).
func Args(fs *flag.FlagSet, n int, want string) error {
	args := fs.Args()
	if len(args) == n {
		return nil
	}
	quoted := make([]string, len(args))
	hint := ""
	for i, a := range args {
		quoted[i] = strconv.Quote(a)
		if hint == "" && i > 0 && len(a) > 1 && a[0] == '-' {
			hint = fmt.Sprintf(" (%s is read as an argument: flags go before the first argument)", quoted[i])
		}
	}
	list := strings.Join(quoted, " ")
	switch {
	case n == 0 && len(args) == 1:
		return fmt.Errorf("unexpected argument %s%s", list, hint)
	case n == 0:
		return fmt.Errorf("unexpected arguments %s%s", list, hint)
	case len(args) == 0:
		return fmt.Errorf("want %s, got none", want)
	case len(args) == 1:
		return fmt.Errorf("want %s, got 1 argument: %s%s", want, list, hint)
	}
	return fmt.Errorf("want %s, got %d arguments: %s%s", want, len(args), list, hint)
}

// InputFlags are the flags, in every command that has them, whose value
// is a file the command reads: Parse registers each one given as an
// input of the command (internal/inputs; "-" is standard input), so that
// the -o checks before any work ([CheckPrefix], [CheckFile]) and every
// writer refuse to write onto it. The readers register the files again
// when they open them, with the files they find (a directory's result
// files).
var InputFlags = []string{"keyfile", "members", "requestlog", "profile", "trace", "topology", "vectors", "against"}

// declareInputs registers the input files named by fs's InputFlags given
// in set.
func declareInputs(fs *flag.FlagSet, set map[string]bool) {
	for _, name := range InputFlags {
		f := fs.Lookup(name)
		if f == nil || !set[name] {
			continue
		}
		if v := f.Value.String(); v == "-" {
			inputs.AddFile(os.Stdin, "standard input")
		} else if v != "" {
			inputs.Add(v)
		}
	}
}

// decimalNumbers returns a copy of args in which the value of every
// integer flag of fs (int, int64, uint or uint64: fs.Int, fs.Uint64, ...)
// is rewritten as the decimal number it reads as with strconv.ParseInt or
// ParseUint base 10 after trimming spaces, the syntax of Ints, so
// that fs.Parse (base 0) reads the same number, and the value of every
// float64 flag as the number algorithms.ParseDecimal reads. A value that is not such
// a number (0x10, 1_000, 1e3 or "" for an integer; 1_0, 0x1p-1, Inf or
// NaN for a float) is an error naming the flag and the value as typed.
// It reads the arguments as flag.Parse does and stops where flag.Parse
// would stop or fail (a non-flag, "--", an unknown flag or -h, a missing
// value), leaving the rest to it.
func decimalNumbers(fs *flag.FlagSet, args []string) ([]string, error) {
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value, inline := "", false
		if k := strings.IndexByte(name, '='); k >= 0 {
			name, value, inline = name[:k], name[k+1:], true
		}
		f := fs.Lookup(name)
		if f == nil {
			break
		}
		if b, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool && b.IsBoolFlag() {
			continue
		}
		if !inline {
			if i+1 == len(out) {
				break
			}
			i++
			value = out[i]
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			continue
		}
		var canon string
		t := strings.TrimSpace(value)
		switch g.Get().(type) {
		case int, int64:
			v, err := strconv.ParseInt(t, 10, 64)
			if err != nil {
				return nil, decimalError(name, value, err, "")
			}
			if _, isInt := g.Get().(int); isInt && strconv.IntSize == 32 && int64(int32(v)) != v {
				return nil, decimalError(name, value, strconv.ErrRange, "")
			}
			canon = strconv.FormatInt(v, 10)
		case uint, uint64:
			v, err := strconv.ParseUint(t, 10, 64)
			if err != nil {
				return nil, decimalError(name, value, err, " >= 0")
			}
			if _, isUint := g.Get().(uint); isUint && strconv.IntSize == 32 && uint64(uint32(v)) != v {
				return nil, decimalError(name, value, strconv.ErrRange, "")
			}
			canon = strconv.FormatUint(v, 10)
		case float64:
			v, err := algorithms.ParseDecimal(value)
			if err != nil {
				return nil, fmt.Errorf("-%s %w", name, err)
			}
			canon = strconv.FormatFloat(v, 'g', -1, 64)
		default:
			continue
		}
		if inline {
			out[i] = "-" + name + "=" + canon
		} else {
			out[i] = canon
		}
	}
	return out, nil
}

// decimalError is decimalNumbers' error for value of integer flag name.
func decimalError(name, value string, err error, atLeast string) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("-%s %q: out of range", name, value)
	}
	return fmt.Errorf("-%s %q: not a decimal integer%s (decimal digits with an optional sign, as in the comma-separated lists: no 0x, 0o, 0b or _)", name, value, atLeast)
}

// emptyValue returns the first flag of args (already parsed by fs) given an
// empty or blank value, as -name "" or -name=. It reads the arguments
// themselves, as flag.Parse does (up to the first non-flag or "--"), since
// a flag's Value cannot tell an empty value from an unset one (fs.Func).
func emptyValue(fs *flag.FlagSet, args []string) (name, value string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return "", "", false
		}
		n := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if k := strings.IndexByte(n, '='); k >= 0 {
			if strings.TrimSpace(n[k+1:]) == "" {
				return n[:k], n[k+1:], true
			}
			continue
		}
		f := fs.Lookup(n)
		if f == nil {
			continue
		}
		if b, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			if strings.TrimSpace(args[i+1]) == "" {
				return n, args[i+1], true
			}
			i++
		}
	}
	return "", "", false
}

// ByteSize is a flag.Value holding a byte count: a number with an optional
// binary unit (B, KiB, MiB, GiB, TiB; "2GiB", "1.5 GiB", "500000000").
type ByteSize int64

func (b *ByteSize) String() string { return catalog.HumanBytes(int64(*b)) }

// Set parses s; the error names s and what was wrong with it.
func (b *ByteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	x, err := algorithms.ParseDecimal(t)
	if err != nil {
		return fmt.Errorf("%q is not a size: give bytes in decimal, optionally with a unit B, KiB, MiB, GiB or TiB (e.g. 4GiB)", s)
	}
	v := x * mult
	if v < 1<<20 || v > 1<<50 {
		return fmt.Errorf("%q: give 1 MiB to 1024 TiB", s)
	}
	*b = ByteSize(v)
	return nil
}

// Consumes is one rule of a command's declaration of the flags each of
// its modes consumes: Flags take effect only when On holds, and Unless
// completes the sentence "-FLAG is not used ..." for the mode where they
// do not ("without -timeline").
type Consumes struct {
	Flags  []string
	On     bool
	Unless string
}

// RefuseUnused returns an error naming the first flag given (in set) that
// a rule whose On is false lists, by the rules' order: a flag the chosen
// mode would silently ignore is a usage error, so what a user asks for is
// what runs. Every command checks its rules once the flags are parsed,
// before any work.
func RefuseUnused(set map[string]bool, rules ...Consumes) error {
	for _, r := range rules {
		if r.On {
			continue
		}
		for _, f := range r.Flags {
			if set[f] {
				return fmt.Errorf("-%s is not used %s: leave it out", f, r.Unless)
			}
		}
	}
	return nil
}
