package schedule

import (
	"slices"
	"strings"
	"testing"
)

// The operator's delete and replace are in "all"; a wipe and a restore
// are taken by name only (zxids go back, and a trace orders steps by them).
func TestOperatorKindsOptIn(t *testing.T) {
	all, err := ParseKinds("all")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Kind{OperatorDelete, OperatorReplace, Wipe, Restore} {
		if slices.Contains(all, k) != (k != Wipe && k != Restore) {
			t.Errorf("--faults all includes %s: %v", k, slices.Contains(all, k))
		}
		if _, ok := Lookup(k); !ok {
			t.Errorf("Lookup(%s) finds nothing", k)
		}
	}
	ks, err := ParseKinds("wipe, sever,operator-delete")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Kind{Sever, OperatorDelete, Wipe}; !slices.Equal(ks, want) {
		t.Errorf("ParseKinds: %v, want %v", ks, want)
	}
	if got := ServerKinds(ks); !slices.Equal(got, []Kind{Wipe}) {
		t.Errorf("ServerKinds: %v, want [wipe]", got)
	}
	if _, err := ParseKinds("operator-deletes"); err == nil || !strings.Contains(err.Error(), "operator-replace") || !strings.Contains(err.Error(), "wipe") {
		t.Errorf("an unknown kind: %v, want an error listing the operator's kinds and wipe", err)
	}
}
