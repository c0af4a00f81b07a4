package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// api is the exported surface of the packages the documents name: for each
// package, its top-level names, and for each type, its methods and fields.
type api struct {
	names   map[string]map[string]bool // package -> exported top-level names
	members map[string]map[string]bool // package.Type -> exported methods and fields
}

// apiPackages are the packages whose identifiers the documents cite, by the
// name they are cited with.
var apiPackages = map[string]string{
	"zklock":     "impl/zklock",
	"otelzklock": "otelzklock",
}

// loadAPI parses the non-test Go files of apiPackages under root.
func loadAPI(root string) (*api, error) {
	a := &api{names: map[string]map[string]bool{}, members: map[string]map[string]bool{}}
	fset := token.NewFileSet()
	for pkg, dir := range apiPackages {
		a.names[pkg] = map[string]bool{}
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			a.addFile(pkg, file)
		}
		if len(a.names[pkg]) == 0 {
			return nil, fmt.Errorf("no exported name in %s", dir)
		}
	}
	return a, nil
}

func (a *api) member(pkg, typ, name string) {
	k := pkg + "." + typ
	if a.members[k] == nil {
		a.members[k] = map[string]bool{}
	}
	a.members[k][name] = true
}

// addFile records a file's exported declarations.
func (a *api) addFile(pkg string, file *ast.File) {
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				a.names[pkg][d.Name.Name] = true
				continue
			}
			t := d.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if id, ok := t.(*ast.Ident); ok && d.Name.IsExported() {
				a.member(pkg, id.Name, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					a.names[pkg][sp.Name.Name] = true
					if st, ok := sp.Type.(*ast.StructType); ok {
						for _, f := range st.Fields.List {
							for _, n := range f.Names {
								if n.IsExported() {
									a.member(pkg, sp.Name.Name, n.Name)
								}
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						a.names[pkg][n.Name] = true
					}
				}
			}
		}
	}
}

var (
	pkgIdent  = regexp.MustCompile(`\b(zklock|otelzklock)\.([A-Za-z_]\w*)(?:\.([A-Z]\w*))?`)
	typeIdent = regexp.MustCompile(`^([A-Z]\w*)\.([A-Z]\w*)\b`)
	errIdent  = regexp.MustCompile(`^Err[A-Z]\w*$`)
)

// checkAPI reports every identifier of a cited package that a document
// names and the package does not declare: `zklock.Name` and
// `zklock.Type.Member` anywhere, an error `ErrX` alone in a code span,
// and, with typeSpans, `Type.Member` at the start of a code span when Type
// is one of zklock's types (a document that also cites TLA+ names,
// Election.Safety, leaves typeSpans off).
func checkAPI(a *api, name, text string, typeSpans bool) []string {
	var bad []string
	for i, l := range strings.Split(text, "\n") {
		where := fmt.Sprintf("%s:%d", name, i+1)
		for _, m := range pkgIdent.FindAllStringSubmatch(l, -1) {
			pkg, id, mem := m[1], m[2], m[3]
			if id == "go" || id == "tla" || !isUpper(id) { // a file name (zklock.go) or a path
				continue
			}
			if !a.names[pkg][id] {
				bad = append(bad, fmt.Sprintf("%s: %s.%s is not declared in %s", where, pkg, id, apiPackages[pkg]))
			} else if mem != "" && a.members[pkg+"."+id] != nil && !a.members[pkg+"."+id][mem] {
				bad = append(bad, fmt.Sprintf("%s: %s.%s has no %s", where, pkg, id, mem))
			}
		}
		for _, span := range inlineCode.FindAllString(l, -1) {
			if e := strings.Trim(span, "`"); errIdent.MatchString(e) && !a.names["zklock"][e] {
				bad = append(bad, fmt.Sprintf("%s: `%s` is not declared in impl/zklock", where, e))
			}
		}
		if !typeSpans {
			continue
		}
		for _, span := range inlineCode.FindAllString(l, -1) {
			m := typeIdent.FindStringSubmatch(strings.Trim(span, "`"))
			if m == nil || !a.names["zklock"][m[1]] || a.members["zklock."+m[1]] == nil {
				continue
			}
			if !a.members["zklock."+m[1]][m[2]] {
				bad = append(bad, fmt.Sprintf("%s: `%s.%s`: zklock.%s has no %s", where, m[1], m[2], m[1], m[2]))
			}
		}
	}
	return bad
}

func isUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }
