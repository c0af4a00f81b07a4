package tlc

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// TLC message codes (tlc2.output.EC) that Parse interprets.
const (
	codeInvariantViolatedInitial  = 2107
	codeInvariantViolatedBehavior = 2110
	codeActionPropertyViolated    = 2112
	codeDeadlock                  = 2114
	codeTemporalViolated          = 2116
	codeBehaviorUpToHere          = 2121
	codeBackToState               = 2122
	codeFinished                  = 2186
	codeSuccess                   = 2193
	codeSearchDepth               = 2194
	codeStats                     = 2199
	codeProgress                  = 2200
	codeStatePrint                = 2217
	codeStuttering                = 2218
	codeVersion                   = 2262
	codeCounterExample            = 2264
	codeCoverageNext              = 2772
	codePropertyViolatedInitial   = 2108
)

// Message classes (tlc2.output.MP): the number after the colon in STARTMSG.
const (
	classError  = 1
	classTLCBug = 2
)

var (
	startRE    = regexp.MustCompile(`^@!@!@STARTMSG (\d+):(\d+) @!@!@$`)
	endRE      = regexp.MustCompile(`^@!@!@ENDMSG (\d+) @!@!@$`)
	statsRE    = regexp.MustCompile(`^([\d,]+) states generated, ([\d,]+) distinct states found`)
	depthRE    = regexp.MustCompile(`depth of the complete state graph search is (\d+)`)
	progressRE = regexp.MustCompile(`^Progress\((\d+)\)`)
	finishedRE = regexp.MustCompile(`^Finished in (.+?) at \(`)
	durPartRE  = regexp.MustCompile(`(\d+)(ms|s|min|h|d)`)
	invRE      = regexp.MustCompile(`^Invariant (\S+) is violated`)
	actPropRE  = regexp.MustCompile(`^Action property (\S+) is violated`)
	propRE     = regexp.MustCompile(`^(?:Temporal )?[Pp]roperty (\S+) is violated`)
	// "<Name line 1, col 2 to line 3, col 4 of module M>" optionally followed
	// by " (a b c d)" inside the brackets when TLC names an action by context.
	actionRE   = regexp.MustCompile(`^<(\S+) line (\d+), col \d+ to line \d+, col \d+ of module (\S+?)(?: \([\d ]+\))?>: (\d+):(\d+)$`)
	stateHdrRE = regexp.MustCompile(`^(\d+): (?:Back to state: )?<(.*)>$`)
)

type message struct {
	code, class int
	body        []string
}

// Parse reads the output of TLC run with -tool and returns what it reports.
// It returns an error only when the output is not TLC -tool output at all
// (no message markers); a run that TLC itself reports as failed yields a
// Result with Verdict Error and the messages in Errors.
func Parse(r io.Reader) (*Result, error) {
	res := &Result{TraceLoop: -1}
	var (
		cur      *message
		loose    []string // text outside of messages (SANY's reports)
		sawMsg   bool
		success  bool
		violated bool
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1024*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if m := startRE.FindStringSubmatch(line); m != nil {
			code, _ := strconv.Atoi(m[1])
			class, _ := strconv.Atoi(m[2])
			cur = &message{code: code, class: class}
			sawMsg = true
			continue
		}
		if endRE.MatchString(line) {
			if cur == nil {
				return nil, fmt.Errorf("tlc: ENDMSG without STARTMSG: %q", line)
			}
			if err := res.apply(cur, &success, &violated); err != nil {
				return nil, err
			}
			cur = nil
			continue
		}
		if cur != nil {
			cur.body = append(cur.body, line)
		} else {
			loose = append(loose, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tlc: reading output: %w", err)
	}
	if !sawMsg {
		return nil, fmt.Errorf("tlc: no TLC -tool messages in output (%d lines)", len(loose))
	}
	if cur != nil {
		res.Errors = append(res.Errors, fmt.Sprintf("output ends inside message %d", cur.code))
	}
	if len(res.Errors) > 0 {
		// SANY reports parse and semantic errors as plain text, followed by
		// an empty error message; keep the plain text for the reader.
		if sany := sanyErrors(loose); sany != "" {
			res.Errors = append([]string{sany}, res.Errors...)
		}
		res.Verdict = Error
		res.Property = ""
		return res, nil
	}
	switch {
	case violated:
		// Verdict and Property were set by apply.
	case success:
		res.Verdict = Pass
	default:
		res.Verdict = Error
		res.Errors = append(res.Errors, "TLC reported neither success nor a violation (killed or crashed?)")
	}
	return res, nil
}

// apply folds one message into the result: the message codes fall into a
// violation, the counterexample's trace, statistics and the errors, each
// read by its own method.
func (res *Result) apply(m *message, success, violated *bool) error {
	first := ""
	if len(m.body) > 0 {
		first = strings.TrimSpace(m.body[0])
	}
	switch m.code {
	case codeVersion:
		res.Version = first
	case codeSuccess:
		*success = true
	case codeInvariantViolatedBehavior, codeInvariantViolatedInitial, codePropertyViolatedInitial,
		codeActionPropertyViolated, codeTemporalViolated, codeDeadlock:
		*violated = true
		return res.applyViolation(m, first)
	case codeBehaviorUpToHere, codeCounterExample, codeStatePrint, codeStuttering, codeBackToState:
		return res.applyTrace(m, first)
	case codeStats, codeSearchDepth, codeProgress, codeFinished, codeCoverageNext:
		return res.applyStats(m, first)
	default:
		res.applyError(m)
	}
	return nil
}

// applyViolation reads the verdict and the property violated from a
// violation's headline; a violation in an initial state carries the state.
func (res *Result) applyViolation(m *message, first string) error {
	switch m.code {
	case codeInvariantViolatedBehavior, codeInvariantViolatedInitial, codePropertyViolatedInitial:
		res.Verdict = InvariantViolated
		if m.code == codePropertyViolatedInitial {
			res.Verdict = TemporalViolated
		}
		if mm := invRE.FindStringSubmatch(first); mm != nil {
			res.Property = mm[1]
		} else if mm := propRE.FindStringSubmatch(first); mm != nil {
			res.Property = mm[1]
		}
		if m.code != codeInvariantViolatedBehavior && len(m.body) > 1 {
			// The initial state follows the headline in the same message.
			step, err := parseState("1: <Initial predicate>", m.body[1:])
			if err != nil {
				return err
			}
			res.Trace = append(res.Trace, step)
		}
	case codeActionPropertyViolated:
		res.Verdict = ActionPropertyViolated
		// A named property's name; a subformula of a specification (as
		// in PROPERTY Refinement, a refinement's [][Next]_vars) is named
		// by its location, "line L, col C to ...": left unnamed.
		if mm := actPropRE.FindStringSubmatch(first); mm != nil && mm[1] != "line" {
			res.Property = mm[1]
		}
	case codeTemporalViolated:
		res.Verdict = TemporalViolated
	case codeDeadlock:
		res.Verdict = Deadlock
	}
	return nil
}

// applyTrace reads the counterexample: its states, and where a liveness
// counterexample loops back (or stutters).
func (res *Result) applyTrace(m *message, first string) error {
	switch m.code {
	case codeBehaviorUpToHere, codeCounterExample:
		// Headlines of the trace that follows.
	case codeStatePrint:
		if len(m.body) == 0 {
			return fmt.Errorf("tlc: empty state message")
		}
		step, err := parseState(m.body[0], m.body[1:])
		if err != nil {
			return err
		}
		res.Trace = append(res.Trace, step)
	case codeStuttering:
		res.TraceStutters = true
	case codeBackToState:
		mm := stateHdrRE.FindStringSubmatch(first)
		if mm == nil {
			return fmt.Errorf("tlc: cannot parse back-to-state line %q", first)
		}
		n, _ := strconv.Atoi(mm[1])
		res.TraceLoop = n - 1
	}
	return nil
}

// applyStats reads the numbers conformance compares (states, depth) and
// the ones reported (duration, action coverage).
func (res *Result) applyStats(m *message, first string) error {
	switch m.code {
	case codeStats:
		mm := statsRE.FindStringSubmatch(first)
		if mm == nil {
			return fmt.Errorf("tlc: cannot parse statistics %q", first)
		}
		res.StatesGenerated = atoi64(mm[1])
		res.DistinctStates = atoi64(mm[2])
	case codeSearchDepth:
		if mm := depthRE.FindStringSubmatch(first); mm != nil {
			res.Depth, _ = strconv.Atoi(mm[1])
		}
	case codeProgress:
		// "Progress(12) at ...": the depth reached so far. A run that checks
		// liveness reports no final depth message, so the last progress
		// report stands in for it (the final message, if any, wins: it
		// comes after).
		if mm := progressRE.FindStringSubmatch(first); mm != nil {
			res.Depth, _ = strconv.Atoi(mm[1])
		}
	case codeFinished:
		if mm := finishedRE.FindStringSubmatch(first); mm != nil {
			d, err := parseDuration(mm[1])
			if err != nil {
				return err
			}
			res.Duration = d
		}
	case codeCoverageNext:
		mm := actionRE.FindStringSubmatch(first)
		if mm == nil {
			return fmt.Errorf("tlc: cannot parse action coverage %q", first)
		}
		line, _ := strconv.Atoi(mm[2])
		c := ActionCoverage{
			Name: mm[1], Module: mm[3], Line: line,
			Distinct: atoi64(mm[4]), Total: atoi64(mm[5]),
		}
		// A run longer than a minute prints coverage every minute; a later
		// report supersedes an earlier one (an action not yet taken in the
		// first report may be taken by the end).
		for i, old := range res.Coverage {
			if old.Name == c.Name && old.Module == c.Module && old.Line == c.Line {
				res.Coverage[i] = c
				return nil
			}
		}
		res.Coverage = append(res.Coverage, c)
	}
	return nil
}

// applyError keeps the text of any other message of the error classes.
func (res *Result) applyError(m *message) {
	if m.class == classError || m.class == classTLCBug {
		text := strings.TrimSpace(strings.Join(m.body, "\n"))
		if text == "" {
			text = fmt.Sprintf("TLC error message %d", m.code)
		}
		res.Errors = append(res.Errors, text)
	}
}

// parseState parses one state of a trace: a header such as
// "3: <CreateOk line 213, col 5 to line 223, col 79 of module PredecessorLock>"
// or "1: <Initial predicate>", then "/\ var = value" lines (a value may
// continue on the following lines), or a single "var = value" when the spec
// has one variable.
func parseState(header string, lines []string) (Step, error) {
	mm := stateHdrRE.FindStringSubmatch(strings.TrimSpace(header))
	if mm == nil {
		return Step{}, fmt.Errorf("tlc: cannot parse state header %q", header)
	}
	step := Step{State: map[string]string{}}
	label := mm[2]
	if label == "Initial predicate" {
		step.Action = "Init"
	} else {
		name, loc, _ := strings.Cut(label, " ")
		step.Action = name
		step.Location = loc
	}
	var name string
	var val []string
	flush := func() {
		if name != "" {
			step.State[name] = strings.Join(val, "\n")
		}
		name, val = "", nil
	}
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		body, isConj := strings.CutPrefix(l, "/\\ ")
		if isConj || (name == "" && !strings.HasPrefix(l, " ")) {
			flush()
			n, v, ok := strings.Cut(body, " = ")
			if !ok {
				return Step{}, fmt.Errorf("tlc: cannot parse state line %q", l)
			}
			name, val = n, []string{v}
			continue
		}
		if name == "" {
			return Step{}, fmt.Errorf("tlc: value continuation without a variable: %q", l)
		}
		val = append(val, strings.TrimSpace(l))
	}
	flush()
	return step, nil
}

// sanyErrors extracts SANY's parse/semantic error report from the text
// outside of the -tool messages.
func sanyErrors(loose []string) string {
	var out []string
	keep := false
	for _, l := range loose {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "Parsing file") || strings.HasPrefix(t, "Semantic processing") {
			continue
		}
		if strings.Contains(t, "***") || strings.Contains(t, "Error") || strings.Contains(t, "error") {
			keep = true
		}
		if keep && t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// parseDuration parses TLC's "Finished in" durations: "511ms", "05s",
// "01min 05s", "02h 01min".
func parseDuration(s string) (time.Duration, error) {
	parts := durPartRE.FindAllStringSubmatch(s, -1)
	if parts == nil {
		return 0, fmt.Errorf("tlc: cannot parse duration %q", s)
	}
	var d time.Duration
	for _, p := range parts {
		n, _ := strconv.Atoi(p[1])
		switch p[2] {
		case "ms":
			d += time.Duration(n) * time.Millisecond
		case "s":
			d += time.Duration(n) * time.Second
		case "min":
			d += time.Duration(n) * time.Minute
		case "h":
			d += time.Duration(n) * time.Hour
		case "d":
			d += time.Duration(n) * 24 * time.Hour
		}
	}
	return d, nil
}

func atoi64(s string) int64 {
	n, _ := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	return n
}
