package report

import (
	"bufio"
	"fmt"
	"os"

	"github.com/zklock/zklock/checker"
	camp "github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

// PageOf is the campaign as the HTML report and the summary see it: r, with
// the history h and the checker's result res (nil if it could not check).
func PageOf(r *Report, h checker.History, res *checker.Result) *Campaign {
	cfg := r.Config
	fence := "fenced"
	if cfg.NoFence {
		fence = "not fenced"
	}
	c := &Campaign{
		Title: fmt.Sprintf("lock %s, writes %s; %d clients, %d locks (%d read/write); seed %d",
			cfg.Lock, fence, cfg.Clients, cfg.Locks, cfg.RWLocks, r.Seed),
		Verdict: r.Verdict, ExitCode: r.ExitCode, Started: r.Started, Elapsed: r.Elapsed,
		Server: r.Target, Control: controlText(cfg), Replay: r.Replay, Root: r.Root, Errors: r.Errors,
		History: h, Result: res, ModelHTML: map[string]string{}, Intruder: r.Intruder,
	}
	if r.Check != nil {
		for _, m := range r.Check.Models {
			if m.HTML != "" {
				c.ModelHTML[m.Key] = m.HTML
			}
		}
	}
	if r.Intruder != nil && !cfg.NoACL {
		c.Breaches = r.Intruder.Succeeded
	}
	if t := r.Trace; t != nil {
		c.Trace = &Trace{Verdict: string(t.Verdict), Steps: t.Events, Sessions: t.Sessions,
			Elapsed: t.Elapsed, Report: t.Report}
	}
	return c
}

// controlText says what a control campaign controls; empty for a campaign
// that must pass.
func controlText(cfg *camp.Config) string {
	switch {
	case cfg.Control != "":
		return cfg.Control
	case cfg.Lock == workload.LockZk:
		return "go-zookeeper's zk.Lock, which grants twice after a session expiry"
	case cfg.NoFence:
		return "critical sections without fencing tokens"
	case cfg.NoACL:
		return "lock nodes without ACLs: an intruder takes the lock"
	}
	return ""
}

// WriteHTML writes report.html of page to path.
func WriteHTML(path string, page *Campaign) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := Write(w, page); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
