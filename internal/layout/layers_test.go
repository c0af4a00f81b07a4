package layout

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// moduleGraph lists the module's packages and what each imports, from
// `go list` at the module's root. Test imports are left out: a package's
// tests may drive it with the parts above it (impl/zklock's integration
// tests start an ensemble).
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", Module+"/...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	graph := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		graph[fields[0]] = fields[1:]
	}
	if len(graph) < 10 {
		t.Fatalf("go list found %d packages; expected the whole module:\n%s", len(graph), out)
	}
	return graph
}

// TestLayers: no package of the module imports one on a higher layer, nor
// a peer, and every package is on a layer.
func TestLayers(t *testing.T) {
	graph := moduleGraph(t)
	for _, v := range Check(Layers, graph) {
		t.Error(v)
	}
	// The table names no prefix that matches nothing, so it cannot keep
	// a layer for packages that moved away.
	for i, layer := range Layers {
		for _, prefix := range layer {
			found := false
			for pkg := range graph {
				if p, ok := locateFull(Layers, pkg); ok && p.Prefix == prefix {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("layer %d: prefix %q places no package; remove it", i, prefix)
			}
		}
	}
}

// full qualifies each path of a graph written relative to Module.
func full(rel map[string][]string) map[string][]string {
	q := func(p string) string {
		if strings.Contains(p, ".") {
			return p // outside the module
		}
		return Module + "/" + p
	}
	out := map[string][]string{}
	for k, vs := range rel {
		for _, v := range vs {
			out[q(k)] = append(out[q(k)], q(v))
		}
		if len(vs) == 0 {
			out[q(k)] = nil
		}
	}
	return out
}

// TestCheckControls: graphs that break the rule each way are rejected, and
// the rule's allowed cases pass.
func TestCheckControls(t *testing.T) {
	allowed := full(map[string][]string{
		"impl/zklock":             {"internal/zkwire", "traceevent", "github.com/go-zookeeper/zk"},
		"ensemble/ensembletest":   {"ensemble"},
		"cmd/chaos":               {"cmd/chaos/internal/report", "checker"},
		"cmd/chaos/internal/load": {"impl/zklock", "ensemble"},
		"model/trace":             {"model", "traceevent"},
	})
	if v := Check(Layers, allowed); len(v) != 0 {
		t.Fatalf("a graph that keeps the rule was rejected: %v", v)
	}
	controls := []struct {
		name  string
		graph map[string][]string
		want  string
	}{
		{"the wire format imports the library", full(map[string][]string{"internal/zkwire": {"impl/zklock"}}), "above it"},
		{"the library imports the chaos driver", full(map[string][]string{"impl/zklock": {"cmd/chaos/internal/workload"}}), "above it"},
		{"the chaos driver imports a command", full(map[string][]string{"cmd/chaos/internal/report": {"cmd/chaos"}}), "above it"},
		{"the model imports the library", full(map[string][]string{"model/trace": {"impl/zklock"}}), "above it"},
		{"peers import each other", full(map[string][]string{"faultinject": {"ensemble"}}), "peers"},
		{"an undeclared package", full(map[string][]string{"newtree/x": {"traceevent"}}), "on no layer"},
		{"an undeclared import", full(map[string][]string{"cmd/x": {"newtree/x"}}), "on no layer"},
	}
	for _, c := range controls {
		v := Check(Layers, c.graph)
		if len(v) != 1 || !strings.Contains(v[0].String(), c.want) {
			t.Errorf("%s: got %v, want one violation saying %q", c.name, v, c.want)
		}
	}
}

// TestLocateLongestPrefix: a package is on the layer of its longest prefix,
// and a prefix matches whole path elements only.
func TestLocateLongestPrefix(t *testing.T) {
	cases := []struct {
		pkg    string
		prefix string
		ok     bool
	}{
		{"cmd/chaos/internal/report", "cmd/chaos/internal", true},
		{"cmd/chaos", "cmd", true},
		{"internal/tlc", "internal/tlc", true},
		{"internal/tlccfg", "internal/tlccfg", true},
		{"checkers", "", false},
		{"internal", "", false},
	}
	for _, c := range cases {
		p, ok := Locate(Layers, c.pkg)
		if ok != c.ok || p.Prefix != c.prefix {
			t.Errorf("Locate(%q) = %+v, %v; want prefix %q, %v", c.pkg, p, ok, c.prefix, c.ok)
		}
	}
}
