package checker

import (
	"fmt"
	"strings"
	"time"
)

// CheckName names a direct check.
type CheckName string

// The direct checks that run beside porcupine.
const (
	// CheckOverlap: two tenures on one path overlap in real time (two writers, or a
	// writer and a reader, on a read/write path).
	CheckOverlap CheckName = "overlap"
	// CheckTokenOrder: tokens do not increase in grant order, or one token was
	// handed out twice.
	CheckTokenOrder CheckName = "token-order"
	// CheckStaleWrite: a register accepted a write whose token is below one it had
	// already accepted.
	CheckStaleWrite CheckName = "stale-write"
	// CheckLeftover: a lock node was present at the end that no live lease holds.
	CheckLeftover CheckName = "leftover"
)

// A Finding is one problem a direct check found.
type Finding struct {
	Check    CheckName // the check that found it
	Path     string    // lock path, when the finding is about a lock
	Register string    // register, when the finding is about a register
	Clients  []string  // the clients involved, in the order Text names them
	Tokens   []int64   // their tokens, in the same order
	// Start and End bound the offending interval (equal for an instant). End is the
	// history's horizon when the interval never ended.
	Start, End int64
	// Records are the indices of the history records involved.
	Records []int
	// Excuse is empty for a violation. Otherwise the finding is expected physics,
	// not a bug: it names the injected process pause that explains it.
	Excuse string
	// Faults are the indices of the fault records named by Excuse.
	Faults []int
	Text   string // one sentence for the report
}

// Violation reports whether the finding fails the check.
func (f *Finding) Violation() bool { return f.Excuse == "" }

// String renders the finding on one line.
func (f *Finding) String() string {
	var b strings.Builder
	if f.Violation() {
		b.WriteString("VIOLATION ")
	} else {
		b.WriteString("expected  ")
	}
	fmt.Fprintf(&b, "%s: %s", f.Check, f.Text)
	if f.Excuse != "" {
		fmt.Fprintf(&b, " (excused: %s)", f.Excuse)
	}
	return b.String()
}

// fmtTime renders a history time for people: the time since the start of the run.
func fmtTime(t int64) string {
	if t == never {
		return "end"
	}
	return time.Duration(t).String()
}

// collector keeps the first few findings of each check and key and counts the rest,
// so a badly broken history yields a readable report in bounded memory. Suppressed
// violations still fail the verdict.
type collector struct {
	max                  int
	count                map[string]int
	findings             []Finding
	suppressed           int
	suppressedViolations int
	// excuse, when set, may excuse a finding as it is added (operator.go:
	// token order across a wipe).
	excuse func(*Finding)
}

func newCollector(max int) *collector {
	return &collector{max: max, count: make(map[string]int)}
}

func (c *collector) add(f Finding) {
	if c.excuse != nil && f.Excuse == "" {
		c.excuse(&f)
	}
	// Violations and excused findings are capped apart, so a flood of expected
	// findings never hides a violation from the report.
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%t", f.Check, f.Path, f.Register, f.Violation())
	if c.count[key] >= c.max {
		c.suppressed++
		if f.Violation() {
			c.suppressedViolations++
		}
		return
	}
	c.count[key]++
	c.findings = append(c.findings, f)
}
