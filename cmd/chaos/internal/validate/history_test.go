package validate

import (
	"testing"

	"github.com/zklock/zklock/checker"
)

func TestCountOps(t *testing.T) {
	h := checker.History{
		{Kind: checker.KindAcquire, Outcome: checker.OutcomeOK},
		{Kind: checker.KindAcquire, Outcome: checker.OutcomeFailed},
		{Kind: checker.KindLost},
		{Kind: checker.KindWrite, Outcome: checker.OutcomeUnknown},
		{Kind: checker.KindFault},
	}
	ops := CountOps(h)
	if ops[0].OK != 1 || ops[0].Failed != 1 || ops[2].OK != 1 || ops[3].Unknown != 1 {
		t.Errorf("CountOps = %+v", ops)
	}
}

// TestCountOpsElection: an election's proclaims and observer reports are
// counted, after the lock kinds, only when the history has some.
func TestCountOpsElection(t *testing.T) {
	if n := len(CountOps(checker.History{{Kind: checker.KindAcquire}})); n != 5 {
		t.Fatalf("a lock history counts %d kinds, want 5", n)
	}
	ops := CountOps(checker.History{
		{Kind: checker.KindProclaim, Outcome: checker.OutcomeOK},
		{Kind: checker.KindProclaim, Outcome: checker.OutcomeFailed},
		{Kind: checker.KindObserve, Outcome: checker.OutcomeOK},
	})
	if len(ops) != 7 || ops[5].Kind != checker.KindProclaim || ops[5].OK != 1 || ops[5].Failed != 1 || ops[6].OK != 1 {
		t.Errorf("CountOps = %+v", ops)
	}
}
