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
