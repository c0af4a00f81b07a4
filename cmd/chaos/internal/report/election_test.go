package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zklock/zklock/checker"
)

// TestElectionSummary: an election's leaderships, proclaims and observer
// reports are counted on the terminal and on the page.
func TestElectionSummary(t *testing.T) {
	c := campaign(t, false)
	c.History = append(c.History,
		checker.Record{Kind: checker.KindProclaim, Client: "c1", Session: "0x1", Path: "/locks/a",
			Call: 2 * sec, Return: 2*sec + sec/10, Outcome: checker.OutcomeOK, Token: 10, Value: "c1/10/1"},
		checker.Record{Kind: checker.KindObserve, Client: "c4", Session: "0x4", Path: "/locks/a",
			Call: 3 * sec, Return: 3 * sec, Outcome: checker.OutcomeOK, Token: 10, Node: "/locks/a/n", Value: "c1/10/1"})
	res, err := checker.Check(c.History, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.Result = res
	s := Summarize(c)
	if s.Election == nil || s.Election.Proclaims != 1 || s.Election.Reports != 1 {
		t.Fatalf("election summary: %+v", s.Election)
	}
	var b bytes.Buffer
	s.WriteText(&b, c)
	if !strings.Contains(b.String(), "election:  0 leaderships, 1 proclaims (1 ok), 1 observer reports") {
		t.Errorf("summary lacks the election:\n%s", b.String())
	}
	var page bytes.Buffer
	if err := Write(&page, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `id="election"`) {
		t.Error("the page lacks the election's row")
	}
}
