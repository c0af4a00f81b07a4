package traceevent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// Every action a trace carries is an action of SharedLock but WatchSecond,
// and every one but Downgrade of PredecessorLock, spelled as the spec
// defines it.
func TestActionsAreSpecActions(t *testing.T) {
	for _, spec := range []string{"PredecessorLock", "SharedLock"} {
		src, err := os.ReadFile(filepath.Join("..", "spec", "tla", spec+".tla"))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range Actions() {
			if a == Downgrade && spec == "PredecessorLock" || a == WatchSecond && spec == "SharedLock" {
				continue
			}
			def := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(string(a)) + `\(`)
			if !def.Match(src) {
				t.Errorf("%s.tla defines no action %s", spec, a)
			}
		}
	}
}

// Every marker step a trace carries is an action of
// PredecessorLockMarked, spelled as the spec defines it.
func TestMarkerActionsAreSpecActions(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "spec", "tla", "PredecessorLockMarked.tla"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range MarkerActions() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(string(a)) + `\(`).Match(src) {
			t.Errorf("PredecessorLockMarked.tla defines no action %s", a)
		}
	}
}

// The JSON of an event is the trace format's: action and result are plain
// strings, End is absent when unknown, Line is not written.
func TestEventJSON(t *testing.T) {
	end := int64(20)
	e := Event{Client: "c1", Action: ListChildren, Result: ResultWait, Start: 10, End: &end, Line: 3}
	b, err := json.Marshal(&e)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"client":"c1","action":"ListChildren","result":"wait","start":10,"end":20}`
	if string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Action != ListChildren || back.Result != ResultWait || *back.End != 20 {
		t.Fatalf("round trip: %+v", back)
	}
	if got := e.String(); got != "line 3: c1 ListChildren result=wait [10, 20]" {
		t.Fatalf("String: %q", got)
	}
}
