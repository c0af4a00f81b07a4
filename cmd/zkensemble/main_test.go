package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklock/zklock/ensemble"
)

func TestUpStatusDown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a ZooKeeper server")
	}
	statePath := filepath.Join(t.TempDir(), ".ensemble", "state.json")
	var out, errOut bytes.Buffer
	zkensemble := func(args ...string) int {
		out.Reset()
		errOut.Reset()
		return run(append(args, "-state", statePath), &out, &errOut)
	}
	if code := zkensemble("up", "-n", "1"); code != 0 {
		t.Fatalf("up: exit %d: %s", code, errOut.String())
	}
	export := out.String()
	if !strings.HasPrefix(export, "export ZKLOCK_SERVERS=127.0.0.1:") {
		t.Fatalf("up printed %q", export)
	}
	st, err := readState(statePath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ensemble.Teardown(st) })
	if !st.Servers[0].Running() {
		t.Fatalf("server not running after up (the command has returned): %+v", st.Servers[0])
	}
	if code := zkensemble("up", "-n", "1"); code != 0 || out.String() != export {
		t.Fatalf("second up: exit %d, %q; want the same ensemble", code, out.String())
	}
	if code := zkensemble("status"); code != 0 || !strings.Contains(out.String(), "standalone") {
		t.Fatalf("status: exit %d: %s%s", code, out.String(), errOut.String())
	}
	if code := zkensemble("down"); code != 0 {
		t.Fatalf("down: exit %d: %s", code, errOut.String())
	}
	if st.Servers[0].Running() {
		t.Fatal("server running after down")
	}
	for _, p := range []string{statePath, st.Root} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s after down: %v", p, err)
		}
	}
	if code := zkensemble("status"); code == 0 {
		t.Fatal("status succeeded with no ensemble")
	}
	if code := zkensemble("down"); code != 0 {
		t.Fatalf("down with no ensemble: exit %d", code)
	}
	if code := zkensemble("sideways"); code != 2 {
		t.Fatalf("unknown command: exit %d, want 2", code)
	}
}
