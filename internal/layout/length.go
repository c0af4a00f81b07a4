package layout

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MaxFuncLines is the longest a function may be, from its func keyword to
// its closing brace: past it a function does more than one job.
const MaxFuncLines = 100

// MaxImplFileLines is the longest a file of impl/zklock may be: files there
// are split by role rather than grown.
const MaxImplFileLines = 450

// MaxChaosMainLines is the longest cmd/chaos's main package may be, its
// non-test files together: flags, set-up and exit statuses. What runs,
// judges and reports a campaign belongs to the driver under
// cmd/chaos/internal.
const MaxChaosMainLines = 600

// Func is one function or method and its length in lines.
type Func struct {
	File  string // slash-separated, relative to the walked root
	Name  string // "Name" or "Recv.Name"
	Lines int
}

// String is f as the allowlists write it: "file:func lines".
func (f Func) String() string { return fmt.Sprintf("%s:%s %d", f.File, f.Name, f.Lines) }

// FuncLengths returns every function declared in src, the text of one Go
// file named file.
func FuncLengths(file string, src []byte) ([]Func, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("layout: parse %s: %w", file, err)
	}
	var out []Func
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		out = append(out, Func{File: file, Name: funcName(fn), Lines: lines})
	}
	return out, nil
}

func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// SourceFiles returns the non-test Go files under root, relative to it and
// slash-separated, sorted. It skips directories Go itself ignores (testdata
// and names starting with "." or "_") and out/, where campaigns write.
func SourceFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "out" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("layout: walk %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

// LongFuncs returns the functions over max lines in the non-test Go files
// under root.
func LongFuncs(root string, max int) ([]Func, error) {
	files, err := SourceFiles(root)
	if err != nil {
		return nil, err
	}
	var out []Func
	for _, file := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return nil, fmt.Errorf("layout: %w", err)
		}
		funcs, err := FuncLengths(file, src)
		if err != nil {
			return nil, err
		}
		for _, f := range funcs {
			if f.Lines > max {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// FileLines returns the number of lines of src, counting a last line
// without a newline.
func FileLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// PackageLines returns the lines of the non-test Go files in dir (not in
// its subdirectories).
func PackageLines(dir string) (int, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, fmt.Errorf("layout: %w", err)
	}
	n := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return 0, fmt.Errorf("layout: %w", err)
		}
		n += FileLines(src)
	}
	return n, nil
}
