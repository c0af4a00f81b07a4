package report

import (
	"testing"

	"github.com/zklock/zklock/internal/chaos/nemesis"
	"github.com/zklock/zklock/internal/chaos/schedule"
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
