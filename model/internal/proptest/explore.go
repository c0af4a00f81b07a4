package proptest

import (
	"testing"

	"github.com/zklock/zklock/model/explore"
)

// Explore checks es exhaustively and fails t unless the verdict is want
// and, for a violation, on the property prop; it logs the outcome.
func Explore[S any](t *testing.T, es *explore.Spec[S], want explore.Verdict, prop string) {
	t.Helper()
	res, err := explore.Check(es, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != want || (want != explore.Pass && res.Property != prop) {
		t.Fatalf("%s %s after %d states, want %s %s", res.Verdict, res.Property, res.Distinct, want, prop)
	}
	t.Logf("%s %s: %d distinct states, counterexample of %d states", res.Verdict, res.Property, res.Distinct, len(res.Trace))
}
