// Package layout states the repository's layering rule and its size rules
// as data and pure functions, so that its tests can hold the tree to them:
// no package imports a package on a higher layer, no function is over
// MaxFuncLines lines, and no file of impl/zklock is over MaxImplFileLines.
// It imports the standard library only, like every leaf under internal/.
package layout

import (
	"fmt"
	"sort"
	"strings"
)

// Module is the module path the layers' prefixes are relative to.
const Module = "github.com/zklock/zklock"

// Layers lists the module's packages by layer, bottom to top, as package
// path prefixes relative to Module (a prefix names that package and every
// package below it). A package belongs to the layer of its longest
// matching prefix. A package may import packages of lower layers and
// packages under its own prefix; two prefixes on one layer are peers that
// do not import each other. docs/DESIGN.md draws the same table.
var Layers = [][]string{
	// Leaves: the standard library and outside modules only.
	{"traceevent", "internal/zkwire", "internal/tlccfg", "internal/mavenjars", "internal/layout", "checker"},
	// Helpers over the leaves.
	{"internal/tlc"},
	// The Go model of the specs.
	{"model"},
	// The library, and the real parts it is tested against.
	{"impl", "ensemble", "faultinject"},
	// Adapters and harnesses over the library or the leaves.
	{"otelzklock", "bench"},
	// The chaos driver: workload, nemesis, validation and report.
	{"cmd/chaos/internal"},
	// Commands: the top, imported by nothing.
	{"cmd", "docs"},
}

// Place is where a package sits: its layer's index in Layers (0 at the
// bottom) and the prefix that placed it there.
type Place struct {
	Layer  int
	Prefix string
}

// Locate returns the place of pkg, a path relative to Module, and false
// when no prefix of Layers names it.
func Locate(layers [][]string, pkg string) (Place, bool) {
	best, found := Place{}, false
	for i, layer := range layers {
		for _, prefix := range layer {
			if pkg != prefix && !strings.HasPrefix(pkg, prefix+"/") {
				continue
			}
			if !found || len(prefix) > len(best.Prefix) {
				best, found = Place{Layer: i, Prefix: prefix}, true
			}
		}
	}
	return best, found
}

// Violation is one import the layering rule forbids, or a package that no
// layer declares (Imported empty).
type Violation struct {
	Importer string
	Imported string
	Reason   string
}

// String says what v breaks, in one line.
func (v Violation) String() string {
	if v.Imported == "" {
		return fmt.Sprintf("%s: %s", v.Importer, v.Reason)
	}
	return fmt.Sprintf("%s imports %s: %s", v.Importer, v.Imported, v.Reason)
}

// Check returns every violation of the layering rule in graph, which maps
// each package of the module (full import path) to the packages it
// imports; imports outside the module are ignored. The result is sorted.
func Check(layers [][]string, graph map[string][]string) []Violation {
	var out []Violation
	for importer, imports := range graph {
		from, ok := locateFull(layers, importer)
		if !ok {
			out = append(out, Violation{Importer: importer, Reason: "on no layer: declare it in layout.Layers"})
			continue
		}
		for _, imported := range imports {
			if !inModule(imported) {
				continue
			}
			to, ok := locateFull(layers, imported)
			switch {
			case !ok:
				out = append(out, Violation{importer, imported, "the imported package is on no layer"})
			case to.Layer > from.Layer:
				out = append(out, Violation{importer, imported, fmt.Sprintf("layer %d (%s) imports layer %d (%s), above it",
					from.Layer, from.Prefix, to.Layer, to.Prefix)})
			case to.Layer == from.Layer && to.Prefix != from.Prefix:
				out = append(out, Violation{importer, imported, fmt.Sprintf("peers %s and %s on layer %d import each other",
					from.Prefix, to.Prefix, from.Layer)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func inModule(pkg string) bool {
	return pkg == Module || strings.HasPrefix(pkg, Module+"/")
}

func locateFull(layers [][]string, pkg string) (Place, bool) {
	if !inModule(pkg) {
		return Place{}, false
	}
	return Locate(layers, strings.TrimPrefix(strings.TrimPrefix(pkg, Module), "/"))
}
