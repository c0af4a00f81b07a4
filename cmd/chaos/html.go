package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/zklock/zklock/checker"
	htmlreport "github.com/zklock/zklock/internal/chaos/report"
)

// pageOf is the campaign as the HTML report and the summary see it.
func pageOf(r *report, h checker.History, res *checker.Result) *htmlreport.Campaign {
	cfg := r.Config
	fence := "fenced"
	if cfg.NoFence {
		fence = "not fenced"
	}
	c := &htmlreport.Campaign{
		Title: fmt.Sprintf("lock %s, writes %s; %d clients, %d locks (%d read/write); seed %d",
			cfg.Lock, fence, cfg.Clients, cfg.Locks, cfg.RWLocks, r.Seed),
		Verdict: r.Verdict, ExitCode: r.ExitCode, Started: r.Started, Elapsed: r.Elapsed,
		Server: r.Target, Control: controlText(cfg), Replay: r.Replay, Root: r.Root, Errors: r.Errors,
		History: h, Result: res, ModelHTML: map[string]string{},
	}
	if r.Check != nil {
		for _, m := range r.Check.Models {
			if m.HTML != "" {
				c.ModelHTML[m.Key] = m.HTML
			}
		}
	}
	if t := r.Trace; t != nil {
		c.Trace = &htmlreport.Trace{Verdict: string(t.Verdict), Steps: t.Events, Sessions: t.Sessions,
			Elapsed: t.Elapsed, Report: t.Report}
	}
	return c
}

// controlText says what a control campaign controls; empty for a campaign
// that must pass.
func controlText(cfg *config) string {
	switch {
	case cfg.Control != "":
		return cfg.Control
	case cfg.Lock == lockZk:
		return "go-zookeeper's zk.Lock, which grants twice after a session expiry"
	case cfg.NoFence:
		return "critical sections without fencing tokens"
	}
	return ""
}

// writeHTML writes report.html.
func writeHTML(path string, page *htmlreport.Campaign) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := htmlreport.Write(w, page); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
