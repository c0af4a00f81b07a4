package report

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	camp "github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/nemesis"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/validate"
)

// Report is report.json: everything an operator needs to judge a campaign
// without reading the history.
type Report struct {
	Verdict     string                 `json:"verdict"` // pass, fail, unknown, or error
	ExitCode    int                    `json:"exit_code"`
	Started     time.Time              `json:"started"`
	Elapsed     string                 `json:"elapsed"`
	Config      *camp.Config           `json:"config"`
	Seed        int64                  `json:"seed"`
	Replay      string                 `json:"replay"` // the command line that replays the schedule
	Target      string                 `json:"target"`
	Root        string                 `json:"zookeeper_root"`
	Interrupted bool                   `json:"interrupted,omitempty"`
	Schedule    []schedule.Fault       `json:"schedule"`
	Faults      []nemesis.Event        `json:"faults"`
	FaultCounts []FaultCount           `json:"fault_counts"`
	Intruder    *Intrusions            `json:"intruder,omitempty"` // what the intruder faults tried and the servers answered
	Operations  []validate.OpCount     `json:"operations"`
	Sessions    int64                  `json:"sessions"`
	Check       *validate.CheckSummary `json:"check,omitempty"`
	Trace       *validate.TraceSummary `json:"trace,omitempty"`           // zklock's steps replayed in the model
	Untraced    string                 `json:"trace_skipped,omitempty"`   // why the trace was not replayed
	Live        []string               `json:"live_violations,omitempty"` // what the monitor saw during the run
	Summary     *Summary               `json:"summary,omitempty"`         // the campaign in numbers (report.html's top)
	Page        *Campaign              `json:"-"`                         // report.html's campaign, for WriteTable
	Errors      []string               `json:"errors,omitempty"`
	Files       map[string]any         `json:"files"`
}

// FaultCount is what became of the planned faults of one kind.
type FaultCount struct {
	Kind     schedule.Kind `json:"kind"`
	Planned  int           `json:"planned"`
	Injected int           `json:"injected"`
	Skipped  int           `json:"skipped"`
}

// CountFaults tallies the schedule and what became of it, by kind.
func CountFaults(sched []schedule.Fault, events []nemesis.Event) []FaultCount {
	byKind := map[schedule.Kind]*FaultCount{}
	var order []schedule.Kind
	get := func(k schedule.Kind) *FaultCount {
		if byKind[k] == nil {
			byKind[k] = &FaultCount{Kind: k}
			order = append(order, k)
		}
		return byKind[k]
	}
	for _, f := range schedule.All {
		for _, p := range sched {
			if p.Kind == f.Kind {
				get(f.Kind)
				break
			}
		}
	}
	for _, p := range sched {
		get(p.Kind).Planned++
	}
	for _, e := range events {
		if e.Skipped != "" {
			get(e.Kind).Skipped++
		} else {
			get(e.Kind).Injected++
		}
	}
	out := make([]FaultCount, len(order))
	for i, k := range order {
		out[i] = *byKind[k]
	}
	return out
}

// Intrusions is what a campaign's intruder faults tried and what the servers
// answered: refused (NoAuth), succeeded, or failed otherwise (the node was
// already gone, the lock path not empty).
type Intrusions struct {
	Faults    int             `json:"faults"` // intruder faults injected
	Attempts  int             `json:"attempts"`
	Refused   int             `json:"refused"`
	Succeeded int             `json:"succeeded"`
	Failed    int             `json:"failed"`
	ByKind    []IntrusionKind `json:"by_kind"`
}

// IntrusionKind counts one kind of attempt (nemesis.AttemptOverwriteNode, ...).
type IntrusionKind struct {
	What      string `json:"what"`
	Attempts  int    `json:"attempts"`
	Refused   int    `json:"refused"`
	Succeeded int    `json:"succeeded"`
	Failed    int    `json:"failed"`
}

// CountIntrusions tallies the attempts of the intruder faults among events,
// by kind in the order they were first made; nil when no intruder fault
// was injected.
func CountIntrusions(events []nemesis.Event) *Intrusions {
	var t *Intrusions
	index := map[string]int{}
	for _, e := range events {
		if e.Kind != schedule.Intruder || e.Skipped != "" {
			continue
		}
		if t == nil {
			t = &Intrusions{ByKind: []IntrusionKind{}}
		}
		t.Faults++
		for _, a := range e.Attempts {
			i, ok := index[a.What]
			if !ok {
				i = len(t.ByKind)
				index[a.What] = i
				t.ByKind = append(t.ByKind, IntrusionKind{What: a.What})
			}
			k := &t.ByKind[i]
			k.Attempts++
			t.Attempts++
			switch a.Outcome {
			case nemesis.Refused:
				k.Refused++
				t.Refused++
			case nemesis.Succeeded:
				k.Succeeded++
				t.Succeeded++
			default:
				k.Failed++
				t.Failed++
			}
		}
	}
	return t
}

// Text is the counts on one line, for the summary.
func (t *Intrusions) Text() string {
	s := fmt.Sprintf("%d attempts in %d faults: %d refused (NoAuth), %d succeeded, %d failed otherwise",
		t.Attempts, t.Faults, t.Refused, t.Succeeded, t.Failed)
	var ok []string
	for _, k := range t.ByKind {
		if k.Succeeded > 0 {
			ok = append(ok, fmt.Sprintf("%s %d", k.What, k.Succeeded))
		}
	}
	if len(ok) > 0 {
		s += " (succeeded: " + strings.Join(ok, ", ") + ")"
	}
	return s
}

// WriteJSON writes v to path as indented JSON.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReplayCommand is the command line that runs the same schedule again.
func ReplayCommand(c *camp.Config) string {
	args := []string{"go run ./cmd/chaos",
		"--duration " + c.Duration.String(),
		fmt.Sprintf("--clients %d", c.Clients),
		fmt.Sprintf("--locks %d", c.Locks),
		fmt.Sprintf("--rw-ratio %g", c.RWRatio),
		fmt.Sprintf("--seed %d", c.Seed),
		"--faults " + schedule.KindsArg(c.Faults),
		"--fault-interval " + c.FaultInterval.String(),
		"--session-timeout " + c.SessionTimeout.String(),
		"--lock " + c.Lock,
	}
	if c.Max > 0 {
		args = append(args, fmt.Sprintf("--max %d", c.Max))
	}
	if c.JudgeMax > 0 {
		args = append(args, fmt.Sprintf("--judge-max %d", c.JudgeMax))
	}
	if c.NoFence {
		args = append(args, "--no-fence")
	}
	if c.NoACL {
		args = append(args, "--no-acl")
	}
	if c.Pin {
		args = append(args, "--pin")
	}
	if c.PinFollowers {
		args = append(args, "--pin-followers")
	}
	if c.TLS {
		args = append(args, "--tls")
	}
	if c.SyncLimit != 5 {
		args = append(args, fmt.Sprintf("--sync-limit %d", c.SyncLimit))
	}
	if len(c.Servers) > 0 {
		args = append(args, "--tick-time "+c.TickTime.String())
	}
	if c.IdleHold > 0 {
		args = append(args, "--idle-hold "+c.IdleHold.String())
	}
	if len(c.Servers) > 0 {
		args = append(args, "--servers "+strings.Join(c.Servers, ","))
	}
	if c.KillCmd != "" {
		args = append(args, fmt.Sprintf("--kill-cmd %q", c.KillCmd))
	}
	return strings.Join(args, " ")
}
