package schema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Package schema is the only place that spells a result file's name or a
// column's: no string literal in the module's other non-test Go files is
// the name of a file of Files, and none in the presenters (plots, report)
// or the measures (analysis) is a column name with an underscore (the
// plain-word columns, such as algo or nodes, are also the command line's
// and the prose's vocabulary).
func TestNoOneElseNamesFilesOrColumns(t *testing.T) {
	var files, cols []string
	for _, e := range Files() {
		files = append(files, e.Name)
	}
	for _, c := range slices.Concat(Columns[Move](), Columns[Spread](), Columns[ShareRow](), Columns[Load](),
		Columns[Bounded](), Columns[Storm](), Columns[StormPoint](), Columns[Replication](), Columns[StormLive](), Columns[Conformance](),
		Columns[DumpDiff](), Columns[DumpCell](), Columns[DumpMismatch](), Columns[DumpGuess](),
		Columns[SimWindow](), Columns[SimNode](), Columns[SimEvent](), Columns[SimSummary](), Columns[TraceStats](),

		Columns[DomainViolation](), Columns[DomainRank](), Columns[DomainChange]()) {
		if strings.Contains(c, "_") && !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "schema" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		top := strings.Split(filepath.ToSlash(strings.TrimPrefix(path, "../")), "/")[0]
		presenting := top == "plots" || top == "report" || top == "analysis"
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if slices.Contains(files, s) || presenting && slices.Contains(cols, s) {
				t.Errorf("%s: %q: result files and columns are named only in package schema", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked: the walk missed the module", checked)
	}
}
