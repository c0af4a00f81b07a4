package trace

import (
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/traceevent"
)

// Every action a trace carries is an action of each model it can be
// replayed in (Downgrade only of SharedLock's, WatchSecond only of
// PredecessorLock's), and every model action
// has a name.
func TestVocabulary(t *testing.T) {
	for _, a := range traceevent.Actions() {
		if _, ok := predActions[a]; !ok && a != traceevent.Downgrade {
			t.Errorf("model/predlock has no action %s", a)
		}
		if _, ok := sharedActions[a]; !ok && a != traceevent.WatchSecond {
			t.Errorf("model/sharedlock has no action %s", a)
		}
	}
	for i, n := range predlock.ActionNames {
		if n == "" {
			t.Errorf("predlock action %d has no name", i)
		}
	}
	for i, n := range sharedlock.ActionNames {
		if n == "" {
			t.Errorf("sharedlock action %d has no name", i)
		}
	}
	if len(predActions) != len(predlock.ActionNames) || len(sharedActions) != len(sharedlock.ActionNames) {
		t.Errorf("two actions of a model share a name")
	}
	// The marker's traced steps are model/predmarked's actions of the
	// same names.
	for _, a := range traceevent.MarkerActions() {
		idx, ok := markerActions[a]
		if got := predmarked.ActionName(model.Label{Action: idx}); !ok || got != string(a) {
			t.Errorf("the marker's %s is model/predmarked's %q", a, got)
		}
	}
	if len(markerActions) != len(traceevent.MarkerActions()) {
		t.Errorf("markerActions has %d actions, traceevent.MarkerActions %d", len(markerActions), len(traceevent.MarkerActions()))
	}
}
