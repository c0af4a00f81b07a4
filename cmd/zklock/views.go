package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/zklock/zklock/impl/zklock"
)

// pathView is one path as its kind reads it: exactly one field is set.
type pathView struct {
	lock      *zklock.LockView
	election  *zklock.ElectionView
	semaphore *zklock.SemaphoreView
}

// inspectPath tells p's kind from its children's names and reads it so.
func inspectPath(ctx context.Context, s *zklock.Session, p string) (pathView, error) {
	kind, err := zklock.InspectKind(ctx, s, p)
	if err != nil {
		return pathView{}, err
	}
	var v pathView
	switch kind {
	case zklock.KindElection:
		v.election, err = zklock.InspectElection(ctx, s, p)
	case zklock.KindSemaphore:
		v.semaphore, err = zklock.InspectSemaphore(ctx, s, p)
	default:
		v.lock, err = zklock.Inspect(ctx, s, p)
	}
	return v, err
}

func (v pathView) write(w io.Writer, live liveness, now time.Time) {
	switch {
	case v.election != nil:
		writeElection(w, v.election, live, now)
	case v.semaphore != nil:
		writeSemaphore(w, v.semaphore, live, now)
	default:
		writeView(w, v.lock, live, now)
	}
}

// writeView prints one lock path for people: a line per contender, head
// first, saying who holds and what each waiter waits for.
func writeView(w io.Writer, v *zklock.LockView, live liveness, now time.Time) {
	fmt.Fprintf(w, "%s: %d contender(s)", v.Path, len(v.Nodes))
	if v.Zxid == 0 {
		fmt.Fprint(w, " (no lock path)")
	}
	fmt.Fprintln(w)
	writeNodes(w, v.Nodes, true, live, now, "HOLDS", "holds")
	if len(v.Other) > 0 {
		fmt.Fprintf(w, "  not contenders: %s\n", strings.Join(v.Other, ", "))
	}
}

// writeElection prints an election: who leads, with its value, epoch and
// since when, then the candidates in line.
func writeElection(w io.Writer, v *zklock.ElectionView, live liveness, now time.Time) {
	fmt.Fprintf(w, "%s: election, %d candidate(s)\n", v.Path, len(v.Candidates))
	if l := v.Leader; l != nil {
		fmt.Fprintf(w, "  leader: #1  value %s  epoch 0x%x  since %s UTC (%s ago)\n", value(l.Value), l.Epoch,
			l.Since.UTC().Format(time.DateTime), now.Sub(l.Since).Round(100*time.Millisecond))
	} else {
		fmt.Fprintln(w, "  leader: none")
	}
	writeNodes(w, v.Candidates, false, live, now, "LEADS", "leads")
	if len(v.Other) > 0 {
		fmt.Fprintf(w, "  not candidates: %s\n", strings.Join(v.Other, ", "))
	}
}

// writeSemaphore prints a semaphore: its lease holders, then the acquirers
// queued on its internal mutex.
func writeSemaphore(w io.Writer, v *zklock.SemaphoreView, live liveness, now time.Time) {
	held := 0
	for _, n := range v.Leases {
		if n.Holds {
			held++
		}
	}
	fmt.Fprintf(w, "%s: semaphore, %d lease(s) held, %d acquirer(s) on its internal lock\n", v.Path, held, len(v.Acquirers))
	fmt.Fprintf(w, "  leases (%s/leases):\n", v.Path)
	writeNodes(w, v.Leases, false, live, now, "HOLDS", "holds")
	for i, n := range v.Leases {
		if n.Name == v.Acquiring {
			fmt.Fprintf(w, "  #%d is the internal lock holder's: held once the leases are at most max\n", i+1)
		}
	}
	if len(v.LeaseOther) > 0 {
		fmt.Fprintf(w, "  not lease nodes (they count against max): %s\n", strings.Join(v.LeaseOther, ", "))
	}
	fmt.Fprintf(w, "  acquirers (%s/locks, its internal lock):\n", v.Path)
	writeNodes(w, v.Acquirers, false, live, now, "HOLDS (acquiring a lease)", "holds")
	if len(v.Other) > 0 {
		fmt.Fprintf(w, "  not the semaphore's: %s\n", strings.Join(v.Other, ", "))
	}
}

// writeNodes prints a table of nodes in line order, then their names;
// modes adds each node's mode (a lock's: an election's candidates and a
// semaphore's nodes are all exclusive); held names what a node ahead that
// holds does ("holds", "leads").
func writeNodes(w io.Writer, nodes []zklock.NodeView, modes bool, live liveness, now time.Time, holds, held string) {
	pos := map[string]int{}
	for i, n := range nodes {
		pos[n.Name] = i + 1
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	mode := func(n zklock.NodeView) string { return "" }
	if modes {
		fmt.Fprintln(tw, "  #\tmode\ttoken\tage\tsession\tconnected\tholder\tstate")
		mode = func(n zklock.NodeView) string { return n.Mode.String() + "\t" }
	} else {
		fmt.Fprintln(tw, "  #\ttoken\tage\tsession\tconnected\tholder\tstate")
	}
	for i, n := range nodes {
		fmt.Fprintf(tw, "  %d\t%s%s\t%s\t%s\t%s\t%s\t%s\n", i+1, mode(n), token(n), age(n, now), session(n), live.of(n), holder(n),
			state(n, nodes, pos, holds, held))
	}
	tw.Flush()
	if why := live.unknown(nodes); why != "" {
		fmt.Fprintf(w, "  connected: unknown for ? rows (%s)\n", why)
	}
	for i, n := range nodes {
		fmt.Fprintf(w, "  #%d %s\n", i+1, n.Name)
	}
}

// value shows a leader's value: quoted text, or its size when it is not
// printable; cut at 24 characters (a line fits 120 columns).
func value(b []byte) string {
	if !utf8.Valid(b) {
		return fmt.Sprintf("(%d bytes)", len(b))
	}
	s := []rune(string(b))
	if len(s) > 24 {
		return fmt.Sprintf("%q... (%d bytes)", string(s[:24]), len(b))
	}
	return fmt.Sprintf("%q", string(s))
}

func token(n zklock.NodeView) string {
	if n.Gone {
		return "-"
	}
	return fmt.Sprintf("0x%x", n.Token)
}

func age(n zklock.NodeView, now time.Time) string {
	if n.Gone {
		return "-"
	}
	return now.Sub(n.Created).Round(100 * time.Millisecond).String()
}

func session(n zklock.NodeView) string {
	if n.Gone {
		return "-"
	}
	return fmt.Sprintf("0x%x", n.Session)
}

func holder(n zklock.NodeView) string {
	switch {
	case n.Gone:
		return "-"
	case n.Identity != nil:
		return fmt.Sprintf("%s pid %d", n.Identity.Host, n.Identity.PID)
	case n.DataSize > 0:
		return fmt.Sprintf("(%d bytes)", n.DataSize)
	}
	return "(no data)"
}

// state says why a waiter waits: the node it waits for, by position, and
// whether that node holds (so the wait is for its release) or waits too.
func state(n zklock.NodeView, nodes []zklock.NodeView, pos map[string]int, holds, held string) string {
	switch {
	case n.Gone:
		return "gone (released while listed)"
	case n.Holds && n.Mode == zklock.ModeRead:
		return holds + " (read, shared)"
	case n.Holds:
		return holds
	case n.WaitsFor == "":
		return "acquiring"
	}
	i := pos[n.WaitsFor]
	why := "its predecessor"
	if n.Mode == zklock.ModeRead {
		why = "the last writer ahead"
	}
	if nodes[i-1].Holds {
		return fmt.Sprintf("waits for #%d (%s), which %s", i, why, held)
	}
	return fmt.Sprintf("waits for #%d (%s), which waits too", i, why)
}
