package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zklock/zklock/cmd/chaos/internal/nemesis"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
)

func TestCountFaults(t *testing.T) {
	sched := []schedule.Fault{{Kind: schedule.Sever}, {Kind: schedule.Latency}, {Kind: schedule.Sever}}
	events := []nemesis.Event{{Index: 0, Kind: schedule.Sever}, {Index: 1, Kind: schedule.Latency, Skipped: "x"},
		{Index: 2, Kind: schedule.Sever}}
	got := CountFaults(sched, events)
	want := []FaultCount{{schedule.Sever, 2, 2, 0}, {schedule.Latency, 1, 0, 1}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("CountFaults = %+v, want %+v", got, want)
	}
}

func TestCountIntrusions(t *testing.T) {
	if CountIntrusions([]nemesis.Event{{Kind: schedule.Sever}, {Kind: schedule.Intruder, Skipped: "no holder"}}) != nil {
		t.Error("counts without an injected intruder fault")
	}
	events := []nemesis.Event{
		{Kind: schedule.Intruder, Attempts: []nemesis.Attempt{{What: nemesis.AttemptDeleteHolder, Outcome: nemesis.Refused},
			{What: nemesis.AttemptDeleteLock, Outcome: nemesis.Failed}}},
		{Kind: schedule.Sever},
		{Kind: schedule.Intruder, Attempts: []nemesis.Attempt{{What: nemesis.AttemptDeleteHolder, Outcome: nemesis.Succeeded}}},
	}
	got := CountIntrusions(events)
	if got == nil || got.Faults != 2 || got.Attempts != 3 || got.Refused != 1 || got.Succeeded != 1 || got.Failed != 1 ||
		len(got.ByKind) != 2 || got.ByKind[0] != (IntrusionKind{nemesis.AttemptDeleteHolder, 2, 1, 1, 0}) {
		t.Fatalf("CountIntrusions = %+v", got)
	}
	// A success on a lock with ACLs is an anomaly of its own (the control:
	// the same counts without ACLs are not).
	page := &Campaign{Intruder: got, Breaches: got.Succeeded}
	if s := Summarize(page); s.Anomalies["intruder got past the ACLs"] != 1 {
		t.Errorf("a breach is not an anomaly: %+v", s.Anomalies)
	}
	if s := Summarize(&Campaign{Intruder: got}); len(s.Anomalies) != 0 {
		t.Errorf("anomalies without a breach: %+v", s.Anomalies)
	}
	// The summary on the terminal and on the page both say it.
	c := campaign(t, false)
	c.Intruder = got
	var text, html bytes.Buffer
	Summarize(c).WriteText(&text, c)
	want := "intruder:  3 attempts in 2 faults: 1 refused (NoAuth), 1 succeeded, 1 failed otherwise (succeeded: delete-holder 1)"
	if !strings.Contains(text.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, text.String())
	}
	if err := Write(&html, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), `id="intruder">3 attempts in 2 faults`) {
		t.Error("report.html does not show the intruder's counts")
	}
}
