package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble"
)

// A stall is a gap of more than stallAfter between two consecutive grants
// of one contended run: with a hand-off of a millisecond or two, every
// client of the run waited that long behind one node. Whatever the medians
// say, a stall needs an explanation: a lost wake-up in a lock is a liveness
// bug. So while a gap is open, the stall monitor looks at the queue and the
// servers, and the report says what the queue waited on and why.
const stallAfter = time.Second

// What a bench client is doing, for a stall's diagnosis.
const (
	phaseIdle int32 = iota
	phaseAcquiring
	phaseHolding
	phaseReleasing
)

var phaseName = [...]string{"idle", "acquiring", "holding", "releasing"}

// clientState is one client's phase and since when (run clock).
type clientState struct {
	phase atomic.Int32
	since atomic.Int64
}

func (c *clientState) set(phase int32, at int64) {
	c.since.Store(at)
	c.phase.Store(phase)
}

// stall is one gap between grants over stallAfter, with what the monitor saw
// while it was open. Times are from the start of the measured window.
type stall struct {
	Start  time.Duration // the grant before the gap
	Length time.Duration // to the grant after it, or to the end of the run
	Ended  bool          // a grant ended it before the run did
	NextBy int           // the client granted at its end (-1: none)

	Probed     bool          // the monitor looked while the gap was open
	ProbeAt    time.Duration // when, from the gap's start
	ProbeRTT   time.Duration // the monitor's own sync + getChildren + exists, on its own session
	ProbeErr   string        // the probe's error, if any
	Queue      int           // contenders in the queue
	Head       string        // the node first in line
	HeadOwner  int           // the client whose session owns it (-1: none of this run's)
	HeadPhase  string        // what that client was doing
	HeadFor    time.Duration // and for how long
	HeadServer string        // the server that client was connected to
	Phases     string        // how many clients were in each phase
	Servers    []serverProbe // each server's answer to srvr, timed
	ServerLog  []string      // WARN and ERROR lines the servers logged during the gap
}

// serverProbe is one server's answer to the srvr four-letter word.
type serverProbe struct {
	Addr        string
	Took        time.Duration
	Mode        string
	Outstanding int64
	Err         string
}

// stallMonitor watches one contended run's grants.
type stallMonitor struct {
	cfg     config
	path    string
	clients []lockClient
	states  []clientState
	since   func() int64 // run clock, ns
	from    int64        // start of the measured window, run clock
	base    time.Time    // wall clock at run clock 0

	lastGrant atomic.Int64
	mu        sync.Mutex
	stalls    []stall // ended gaps, Start relative to the run clock until finish
	probes    map[int64]stall
}

func newStallMonitor(cfg config, path string, clients []lockClient, since func() int64, from int64, base time.Time) *stallMonitor {
	return &stallMonitor{cfg: cfg, path: path, clients: clients, states: make([]clientState, len(clients)),
		since: since, from: from, base: base, probes: map[int64]stall{}}
}

// granted records a grant to client id at run-clock time at.
func (m *stallMonitor) granted(id int, at int64) {
	prev := m.lastGrant.Swap(at)
	if time.Duration(at-prev) > stallAfter {
		m.mu.Lock()
		m.stalls = append(m.stalls, stall{Start: time.Duration(prev), Length: time.Duration(at - prev), Ended: true, NextBy: id})
		m.mu.Unlock()
	}
}

// watch probes every gap that stays open past stallAfter, once, until ctx
// ends.
func (m *stallMonitor) watch(ctx context.Context) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	probed := int64(-1)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		last := m.lastGrant.Load()
		if last == probed || time.Duration(m.since()-last) <= stallAfter {
			continue
		}
		probed = last
		s := m.probe(ctx)
		s.ProbeAt = time.Duration(m.since() - last)
		m.mu.Lock()
		m.probes[last] = s
		m.mu.Unlock()
	}
}

// probe looks at the queue, its head's owner and the servers.
func (m *stallMonitor) probe(ctx context.Context) stall {
	s := stall{Probed: true, HeadOwner: -1}
	now := m.since()
	counts := make([]int, len(phaseName))
	for i := range m.states {
		counts[m.states[i].phase.Load()]++
	}
	var parts []string
	for p, n := range counts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, phaseName[p]))
		}
	}
	s.Phases = strings.Join(parts, ", ")
	s.Servers = probeServers(ctx, m.cfg.servers)
	t0 := time.Now()
	head, n, owner, err := queueHead(m.cfg.admin, m.path)
	s.ProbeRTT = time.Since(t0)
	s.Queue, s.Head = n, head
	if err != nil {
		s.ProbeErr = err.Error()
		return s
	}
	for id, c := range m.clients {
		if owner != 0 && c.sessionID() == owner {
			s.HeadOwner = id
			st := &m.states[id]
			s.HeadPhase = phaseName[st.phase.Load()]
			s.HeadFor = time.Duration(now - st.since.Load())
			s.HeadServer = c.server()
		}
	}
	return s
}

// queueHead syncs the admin session with the leader, lists the lock path
// and reads the first contender's owner (0 when the queue is empty).
func queueHead(admin *zk.Conn, path string) (head string, n int, owner int64, err error) {
	if _, err := admin.Sync(path); err != nil {
		return "", 0, 0, fmt.Errorf("sync: %w", err)
	}
	names, _, err := admin.Children(path)
	if err != nil {
		return "", 0, 0, fmt.Errorf("getChildren: %w", err)
	}
	if len(names) == 0 {
		return "", 0, 0, nil
	}
	// Sequence numbers are the last ten characters of every contender.
	seq := func(s string) string { return s[max(0, len(s)-10):] }
	head = slices.MinFunc(names, func(a, b string) int { return strings.Compare(seq(a), seq(b)) })
	ok, st, err := admin.Exists(path + "/" + head)
	if err != nil || !ok {
		return head, len(names), 0, err // gone meanwhile: owner unknown
	}
	return head, len(names), st.EphemeralOwner, nil
}

// probeServers asks every server for srvr at once, each with its own
// timeout, and times the answers: a server that takes long to answer a
// four-letter word is itself stalled (a pause, a starved JVM).
func probeServers(ctx context.Context, servers []string) []serverProbe {
	out := make([]serverProbe, len(servers))
	var wg sync.WaitGroup
	for i, addr := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			t0 := time.Now()
			txt, err := ensemble.FourLetterWord(c, addr, "srvr")
			p := serverProbe{Addr: addr, Took: time.Since(t0)}
			if err == nil {
				var st ensemble.Stat
				if st, err = ensemble.ParseSrvr(txt); err == nil {
					p.Mode, p.Outstanding = string(st.Mode), st.Outstanding
				}
			}
			if err != nil {
				p.Err = err.Error()
			}
			out[i] = p
		}()
	}
	wg.Wait()
	return out
}

// finish returns the run's stalls that overlap its measured window [from,
// end), each with its probe, times made relative to the window's start;
// open is a gap still open when the run ended.
func (m *stallMonitor) finish(end int64) []stall {
	m.mu.Lock()
	defer m.mu.Unlock()
	all := slices.Clone(m.stalls)
	if last := m.lastGrant.Load(); time.Duration(end-last) > stallAfter {
		all = append(all, stall{Start: time.Duration(last), Length: time.Duration(end - last), NextBy: -1})
	}
	var out []stall
	for _, s := range all {
		start := int64(s.Start)
		if start >= end || start+int64(s.Length) <= m.from {
			continue
		}
		if p, ok := m.probes[start]; ok {
			p.Start, p.Length, p.Ended, p.NextBy = s.Start, s.Length, s.Ended, s.NextBy
			s = p
		} else {
			s.HeadOwner = -1
		}
		s.ServerLog = serverLog(m.cfg.serverLogs, m.base.Add(s.Start), m.base.Add(s.Start+s.Length))
		s.Start -= time.Duration(m.from)
		out = append(out, s)
	}
	return out
}

// serverLog returns the servers' WARN and ERROR lines stamped within
// [from, to] (the servers stamp HH:mm:ss.SSS in local time), leaving out
// the one warning every go-zookeeper connection causes.
func serverLog(paths []string, from, to time.Time) []string {
	const maxLines = 4
	var out []string
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if !strings.Contains(line, " WARN ") && !strings.Contains(line, " ERROR ") ||
				strings.Contains(line, "Connection request from old client") || len(line) < 12 {
				continue
			}
			tod, err := time.ParseInLocation("15:04:05.000", line[:12], time.Local)
			if err != nil {
				continue
			}
			y, mo, d := from.Local().Date()
			at := time.Date(y, mo, d, tod.Hour(), tod.Minute(), tod.Second(), tod.Nanosecond(), time.Local)
			if at.Before(from.Add(-50*time.Millisecond)) || at.After(to.Add(50*time.Millisecond)) {
				continue
			}
			if len(out) < maxLines {
				out = append(out, fmt.Sprintf("server %d: %s", i+1, trim(line, 200)))
			}
		}
		f.Close()
	}
	return out
}

func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// verdict says what the queue waited on during the stall and why, from
// what the monitor saw.
func (s stall) verdict() (waitedOn, why string) {
	switch {
	case !s.Probed:
		waitedOn = "not probed (the gap closed between two looks of the monitor)"
	case s.ProbeErr != "":
		waitedOn = "unknown: the monitor's own probe failed (" + s.ProbeErr + ")"
	case s.Queue == 0:
		waitedOn = "nothing: no node queued (" + s.Phases + ")"
	case s.HeadOwner < 0:
		waitedOn = fmt.Sprintf("%s, owned by no client of this run", s.Head)
	default:
		what := map[string]string{
			"releasing": "its release (the delete of its node) to be answered",
			"acquiring": "its grant: its node was first, its Lock call had not returned (listing or notification in flight)",
			"holding":   "it to start its release: granted, but its goroutine had not run on",
			"idle":      "it: its node was first while the client was between calls",
		}[s.HeadPhase]
		waitedOn = fmt.Sprintf("client %d (%s for %v, on %s): %s", s.HeadOwner, s.HeadPhase,
			s.HeadFor.Round(time.Millisecond), s.HeadServer, what)
	}
	var whys []string
	if s.Probed && s.ProbeErr == "" {
		whys = append(whys, fmt.Sprintf("the monitor's own sync+getChildren+exists took %v", s.ProbeRTT.Round(time.Millisecond)))
	}
	for _, p := range s.Servers {
		switch {
		case p.Err != "":
			whys = append(whys, fmt.Sprintf("%s did not answer srvr (%s)", p.Addr, trim(p.Err, 80)))
		case p.Took > 200*time.Millisecond || p.Outstanding > 0:
			whys = append(whys, fmt.Sprintf("%s (%s) answered srvr in %v with %d requests outstanding",
				p.Addr, p.Mode, p.Took.Round(time.Millisecond), p.Outstanding))
		}
	}
	switch {
	case !s.Ended:
		whys = append(whys, "no grant ended it before the run did")
	case s.NextBy == s.HeadOwner && s.HeadPhase == "acquiring":
		whys = append(whys, fmt.Sprintf("it ended with client %d's grant: the wake-up came late, it was not lost", s.NextBy))
	default:
		whys = append(whys, fmt.Sprintf("it ended with client %d's grant", s.NextBy))
	}
	whys = append(whys, s.ServerLog...)
	return waitedOn, strings.Join(whys, "; ")
}
