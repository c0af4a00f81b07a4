package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zklock/zklock/checker"
)

// TestSemaphoreSummary: a semaphore's leases, its max and the most held at
// once are counted on the terminal and on the page.
func TestSemaphoreSummary(t *testing.T) {
	c := campaign(t, false)
	for i, cl := range []string{"s1", "s2"} {
		c.History = append(c.History,
			checker.Record{Kind: checker.KindAcquire, Client: cl, Session: "0x" + cl, Path: "/sem/a",
				Mode: checker.ModeExclusive, Max: 2, Call: sec, Return: sec + int64(i+1)*sec/10,
				Outcome: checker.OutcomeOK, Token: int64(20 + i), Node: "/sem/a/leases/n" + cl},
			checker.Record{Kind: checker.KindRelease, Client: cl, Session: "0x" + cl, Path: "/sem/a",
				Call: 2 * sec, Return: 2*sec + sec/10, Outcome: checker.OutcomeOK, Token: int64(20 + i)})
	}
	res, err := checker.Check(c.History, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.Result = res
	s := Summarize(c)
	if s.Semaphore == nil || s.Semaphore.Leases != 2 || s.Semaphore.MostHeld != 2 {
		t.Fatalf("semaphore summary: %+v", s.Semaphore)
	}
	var b bytes.Buffer
	s.WriteText(&b, c)
	if !strings.Contains(b.String(), "semaphore: 2 leases, max 2, at most 2 believed held at once") {
		t.Errorf("summary lacks the semaphore:\n%s", b.String())
	}
	var page bytes.Buffer
	if err := Write(&page, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `id="semaphore"`) {
		t.Error("the page lacks the semaphore's row")
	}
}
