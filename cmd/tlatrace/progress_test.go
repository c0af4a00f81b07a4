package main

import (
	"reflect"
	"testing"
)

// TestProgress reads the deepest point from TLC's prints, in both of the
// forms TLC prints l in.
func TestProgress(t *testing.T) {
	module := []byte(`TraceLog1 == <<
  [line |-> 1, client |-> "c1", action |-> "RequestLock"],
  [line |-> 2, client |-> "c2", action |-> "RequestLock"],
  [line |-> 5, client |-> "c1", action |-> "CreateOk"],
  [line |-> 7, client |-> "c2", action |-> "CreateOk"]
>>`)
	for _, tc := range []struct {
		raw  string
		want []string
	}{
		{`<<"TraceProgress", 1, [c1 |-> 1, c2 |-> 0]>>
<< "TraceProgress",
   2,
   [c1 |-> 1, c2 |-> 1] >>`, []string{"c1 line 5", "c2 line 7"}},
		{`<<"TraceProgress", 2, ("c1" :> 2 @@ "c2" :> 0)>>`, []string{"c2 line 2"}},
	} {
		matched, next := progress([]byte(tc.raw), module)
		if matched != 2 || !reflect.DeepEqual(next, tc.want) {
			t.Errorf("progress(%q) = %d, %q; want 2, %q", tc.raw, matched, next, tc.want)
		}
	}
	if matched, next := progress([]byte("no prints"), module); matched != 0 || next != nil {
		t.Errorf("without prints: %d, %q", matched, next)
	}
}
