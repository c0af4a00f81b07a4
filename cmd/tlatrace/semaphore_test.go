package main

import (
	"testing"

	"github.com/zklock/zklock/model/trace"
	"github.com/zklock/zklock/traceevent"
)

// semQuickTrace is the semaphore's trace `make verify` checks with TLC
// (SemaphoreTrace.tla): impl/zklock's TestSemaphoreHolderPausedFenced at
// max 2, in which a holder's process is paused past its session's expiry
// (silent PauseClient, ExpireSession, ResumeClient), a second holds, and a
// waiter that listed three leases is woken by the expiry and holds. Its
// internal mutex's events (on P/locks) are a Mutex trace, checked too. The
// other impl_sem_ traces are in the TLATRACE_ALL set.
const semQuickTrace = "testdata/impl_sem_holder_paused.jsonl"

// semHeldBeyondMax makes the first semaphore listing that shows more than
// max leases say "held" (a lease granted with max others ahead: max+1 held
// at once) and drops that acquisition's wake-up and listing again. It
// keeps the semaphore's events only (and the clients' LearnExpiry): the
// internal mutex's, on P/locks, are another lock, replayed on its own,
// and would cost TLC a run for nothing the corruption touches.
func semHeldBeyondMax(t *testing.T, evs []trace.Event) []trace.Event {
	t.Helper()
	sem, req, line := "", "", 0
	for _, e := range evs {
		if e.Action == traceevent.ListLeases && e.Result == traceevent.ResultWait && len(e.Children) > e.Max {
			sem, req, line = e.Lock, e.Request, e.Line
			break
		}
	}
	if sem == "" {
		t.Fatal("no semaphore listing with more than max leases")
	}
	var out []trace.Event
	for _, e := range evs {
		switch {
		case e.Lock != sem && e.Action != traceevent.LearnExpiry:
			continue // the internal mutex's events
		case e.Line == line:
			e.Result = traceevent.ResultHeld
		case e.Request == req && (e.Action == traceevent.LeasesChanged || e.Action == traceevent.ListLeases):
			continue // it never waits
		}
		out = append(out, e)
	}
	return out
}
