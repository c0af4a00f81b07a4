package checker

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
)

// DefaultPauseGrace is the default for [Options.PauseGrace].
const DefaultPauseGrace = time.Second

// DefaultMaxFindings is the default for [Options.MaxFindings].
const DefaultMaxFindings = 20

// Options tune [Check]. The zero value is ready to use.
type Options struct {
	// Timeout bounds the porcupine searches together (0: no bound). A partition the
	// search could not decide in time is reported as porcupine.Unknown and makes
	// the verdict VerdictUnknown, never a pass.
	Timeout time.Duration
	// HTMLDir is where porcupine's visualisation of each partition that is not
	// linearizable is written, annotated with the faults and findings. Empty: none.
	HTMLDir string
	// PauseGrace is how long after a process pause ends the paused client may take
	// to notice that its lease is gone before a finding stops being excused by the
	// pause (0: DefaultPauseGrace).
	PauseGrace time.Duration
	// MaxFindings caps the findings kept per check and lock path or register,
	// violations and excused ones apart (0: DefaultMaxFindings). The rest are
	// counted in Result.Suppressed and still decide the verdict.
	MaxFindings int
	// Parallelism is how many partitions are searched at once (0: GOMAXPROCS).
	Parallelism int
	// NotifyGrace is how long after an operator deleted a holder's node
	// (operator-delete, operator-replace) the holder may go on believing
	// (0: DefaultNotifyGrace); RewindGrace how long after a wipe ended
	// (0: DefaultRewindGrace). See operator.go.
	NotifyGrace, RewindGrace time.Duration
}

// Verdict is the overall outcome of [Check].
type Verdict string

// The verdicts.
const (
	VerdictPass Verdict = "pass"
	// VerdictFail: a model found a partition not linearizable, or a direct check
	// found a violation.
	VerdictFail Verdict = "fail"
	// VerdictUnknown: nothing failed, but a search timed out.
	VerdictUnknown Verdict = "unknown"
)

// ModelResult is porcupine's verdict on one partition.
type ModelResult struct {
	Model      string                // ModelMutex, ModelRWMutex or ModelRegister
	Key        string                // lock path or register
	Operations int                   // operations in the partition
	Unknown    int                   // operations with an unknown outcome
	Result     porcupine.CheckResult // Ok, Illegal, or Unknown when the search timed out
	Elapsed    time.Duration         // time the search took
	// HTML is the visualisation written for an Illegal partition when
	// Options.HTMLDir is set; VisualizeErr says why it could not be.
	HTML         string
	VisualizeErr error
}

// Result is the outcome of [Check].
type Result struct {
	Verdict  Verdict       // pass, fail or unknown
	Models   []ModelResult // porcupine's verdict per partition
	Findings []Finding     // the direct checks' findings, violations first
	// Suppressed counts findings beyond Options.MaxFindings, and
	// SuppressedViolations those of them that are violations.
	Suppressed           int
	SuppressedViolations int
	// Operations counts the operation records checked, Unknown those with an
	// unknown outcome, Faults the fault records.
	Operations int
	Unknown    int
	Faults     int
	// Horizon is where unknown outcomes return: after every time in the history.
	Horizon int64
	Elapsed time.Duration // time Check took
	// Election counts the leaderships, proclaims and observer reports; nil
	// for a history without an election.
	Election *ElectionSummary
	// Semaphore counts a semaphore's leases and the most held at once; nil
	// for a history without one.
	Semaphore *SemaphoreSummary
}

// Violations returns the findings that fail the check.
func (r *Result) Violations() []Finding {
	var v []Finding
	for _, f := range r.Findings {
		if f.Violation() {
			v = append(v, f)
		}
	}
	return v
}

// HTML returns the paths of the visualisations written.
func (r *Result) HTML() []string {
	var paths []string
	for _, m := range r.Models {
		if m.HTML != "" {
			paths = append(paths, m.HTML)
		}
	}
	return paths
}

// Check checks a history: porcupine's models on every lock path and register, and
// the direct checks (overlapping tenures, token order, stale writes, leftover
// nodes, an election's observer reports). The error is for a history that is
// not valid (a *RecordError); every problem with the lock is in the Result.
func Check(h History, opts Options) (*Result, error) {
	start := time.Now()
	if err := h.Validate(); err != nil {
		return nil, err
	}
	if opts.PauseGrace <= 0 {
		opts.PauseGrace = DefaultPauseGrace
	}
	if opts.MaxFindings <= 0 {
		opts.MaxFindings = DefaultMaxFindings
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = runtime.GOMAXPROCS(0)
	}
	if opts.NotifyGrace <= 0 {
		opts.NotifyGrace = DefaultNotifyGrace
	}
	if opts.RewindGrace <= 0 {
		opts.RewindGrace = DefaultRewindGrace
	}

	res := &Result{Horizon: horizonOf(h), Election: summarizeElection(h)}
	for i := range h {
		switch {
		case h[i].isOperation():
			res.Operations++
			if h[i].outcome() == OutcomeUnknown {
				res.Unknown++
			}
		case h[i].Kind == KindFault:
			res.Faults++
		}
	}

	ls := buildLeases(h)
	ps := buildPauses(h, int64(opts.PauseGrace))
	ps.notify, ps.rewind = int64(opts.NotifyGrace), int64(opts.RewindGrace)
	out := newCollector(opts.MaxFindings)
	ws := findWipes(h)
	out.excuse = ws.excuse()
	checkOverlaps(ls, ps, res.Horizon, out)
	checkSemaphoreOverlaps(ls, ps, res.Horizon, out)
	res.Semaphore = summarizeSemaphore(ls)
	checkTokens(ls, ps, out)
	checkTokensSaid(ls, ws, out)
	checkRewindBeliefs(ls, ws, int64(opts.RewindGrace), res.Horizon, out)
	checkStaleWrites(h, out)
	checkLeftovers(h, ls, out)
	checkElection(h, out)
	sortFindings(out.findings)
	res.Findings = out.findings
	res.Suppressed, res.SuppressedViolations = out.suppressed, out.suppressedViolations

	parts := partitions(h, ls, ps, res.Horizon)
	res.Models = runModels(h, parts, res, opts, start)

	res.Verdict = VerdictPass
	for _, m := range res.Models {
		if m.Result == porcupine.Unknown {
			res.Verdict = VerdictUnknown
		}
	}
	for _, m := range res.Models {
		if m.Result == porcupine.Illegal {
			res.Verdict = VerdictFail
		}
	}
	if len(res.Violations()) > 0 || res.SuppressedViolations > 0 {
		res.Verdict = VerdictFail
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Violation() != fs[j].Violation() {
			return fs[i].Violation()
		}
		a, b := &fs[i], &fs[j]
		switch {
		case a.Check != b.Check:
			return a.Check < b.Check
		case a.Start != b.Start:
			return a.Start < b.Start
		case a.Path != b.Path:
			return a.Path < b.Path
		case a.Register != b.Register:
			return a.Register < b.Register
		}
		return a.Text < b.Text
	})
}

// runModels searches the partitions, largest first so the longest search does not
// start last, at most opts.Parallelism at a time.
func runModels(h History, parts []Partition, res *Result, opts Options, start time.Time) []ModelResult {
	results := make([]ModelResult, len(parts))
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return len(parts[order[a]].Operations) > len(parts[order[b]].Operations)
	})
	deadline := start.Add(opts.Timeout)
	budget := func() (time.Duration, bool) {
		if opts.Timeout <= 0 {
			return 0, true // porcupine reads 0 as no limit
		}
		left := time.Until(deadline)
		return left, left > 0
	}

	sem := make(chan struct{}, opts.Parallelism)
	var wg sync.WaitGroup
	for _, i := range order {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			p := &parts[i]
			mr := ModelResult{Model: p.Model, Key: p.Key, Operations: len(p.Operations), Unknown: p.Unknown}
			left, ok := budget()
			if !ok {
				mr.Result = porcupine.Unknown
				results[i] = mr
				return
			}
			t0 := time.Now()
			model := p.PorcupineModel()
			mr.Result = porcupine.CheckOperationsTimeout(model, p.Operations, left)
			mr.Elapsed = time.Since(t0)
			if mr.Result == porcupine.Illegal && opts.HTMLDir != "" {
				// The fast search keeps no partial linearizations; search again,
				// verbosely, only for what must be drawn.
				left, ok = budget()
				if !ok {
					left = max(time.Second, 2*mr.Elapsed)
				}
				_, info := porcupine.CheckOperationsVerbose(model, p.Operations, left)
				mr.HTML, mr.VisualizeErr = visualize(h, p, model, info, res, opts.HTMLDir)
			}
			results[i] = mr
		}(i)
	}
	wg.Wait()
	return results
}

// String summarises the result in one line.
func (r *Result) String() string {
	illegal, unknown := 0, 0
	for _, m := range r.Models {
		switch m.Result {
		case porcupine.Illegal:
			illegal++
		case porcupine.Unknown:
			unknown++
		}
	}
	return fmt.Sprintf("%s: %d operations (%d unknown outcomes, %d faults) in %d partitions, %d not linearizable, %d undecided; %d violations, %d expected findings; %s",
		r.Verdict, r.Operations, r.Unknown, r.Faults, len(r.Models), illegal, unknown,
		len(r.Violations())+r.SuppressedViolations, len(r.Findings)-len(r.Violations())+r.Suppressed-r.SuppressedViolations,
		r.Elapsed.Round(time.Millisecond))
}
