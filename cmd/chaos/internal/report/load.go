package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/load"
)

// LoadReport is report.json of a load campaign (--load): availability on a
// healthy ensemble, judged by package load.
type LoadReport struct {
	Verdict  string            `json:"verdict"` // pass, fail, or error
	ExitCode int               `json:"exit_code"`
	Started  time.Time         `json:"started"`
	Elapsed  string            `json:"elapsed"`
	Config   LoadConfig        `json:"config"`
	Target   string            `json:"target"`
	Root     string            `json:"zookeeper_root"`
	Sessions []LoadSession     `json:"sessions"`
	Waiters  []LoadSession     `json:"waiter_sessions,omitempty"`
	Rounds   []LoadRound       `json:"queue_rounds"`
	Acquires LoadAcquires      `json:"acquisitions"`
	Samples  []LoadSample      `json:"samples"`
	Findings []load.Finding    `json:"findings"`
	Errors   []string          `json:"errors,omitempty"`
	Files    map[string]string `json:"files"`
}

// LoadConfig is load.Config with durations as Go duration strings.
type LoadConfig struct {
	Duration       string `json:"duration"`
	Sessions       int    `json:"sessions"`
	Workers        int    `json:"workers"`
	GuardEvery     int    `json:"guard_every"` // one request in this many is a Guard write
	Rate           int    `json:"rate"`        // per session; 0: flat out
	Locks          int    `json:"locks_per_session"`
	Churn          string `json:"churn"`
	Recipe         string `json:"recipe"`        // what the waiters take: lock, election or semaphore
	Max            int    `json:"max,omitempty"` // a semaphore's leases
	Waiters        int    `json:"waiters"`
	WaiterSessions int    `json:"waiter_sessions"`
	AcquireBound   string `json:"acquire_bound"`
	SampleEvery    string `json:"sample_every"`
	SessionTimeout string `json:"session_timeout"`
	TickTime       string `json:"tick_time"`
	SyncLimit      int    `json:"sync_limit"`
}

// LoadSession is one session's line: the reply rate it held and its losses.
type LoadSession struct {
	load.SessionStats
	Rate      float64  `json:"replies_per_second"`
	Held      string   `json:"held"`
	LostAfter string   `json:"lost_after,omitempty"`
	LostWhen  []string `json:"leases_lost_after,omitempty"`
}

// LoadRound is one queue round, durations as strings.
type LoadRound struct {
	load.Round
	Queue   string `json:"queue_time"`
	Drain   string `json:"drain_time"`
	Slowest string `json:"slowest_hand_off"`
}

// LoadAcquires are the busy sessions' acquisitions.
type LoadAcquires struct {
	load.Acquires
	Slowest string `json:"slowest"`
}

// LoadSample is one sample, its instant as a string.
type LoadSample struct {
	load.Sample
	At string `json:"at"`
}

func dur(d time.Duration) string { return d.Round(time.Millisecond).String() }

// NewLoadReport puts a load campaign's result and findings into a report;
// the verdict is fail on any finding, error when the campaign could not
// measure (errors, or no reply at all), pass otherwise.
func NewLoadReport(cfg load.Config, res *load.Result, findings []load.Finding, started time.Time, target, root string) *LoadReport {
	r := &LoadReport{Started: started, Elapsed: dur(res.Elapsed), Target: target, Root: root,
		Findings: append([]load.Finding{}, findings...), Errors: res.Errors, Files: map[string]string{"json_report": "report.json"},
		Config: LoadConfig{Duration: cfg.Duration.String(), Sessions: cfg.Sessions, Workers: cfg.Workers, GuardEvery: cfg.GuardEvery, Rate: cfg.Rate,
			Locks: cfg.LocksPerS, Churn: cfg.Churn.String(), Recipe: cfg.Recipe, Max: semMax(cfg),
			Waiters: cfg.Waiters, WaiterSessions: cfg.WaiterSessions,
			AcquireBound: cfg.AcquireBound.String(), SampleEvery: cfg.SampleEvery.String(),
			SessionTimeout: cfg.SessionTimeout.String(), TickTime: cfg.TickTime.String(), SyncLimit: cfg.SyncLimit},
		Acquires: LoadAcquires{Acquires: res.Acquires, Slowest: dur(res.Acquires.Slowest)}}
	var replies int64
	for _, s := range res.Sessions {
		r.Sessions = append(r.Sessions, loadSession(s))
		replies += s.Replies
	}
	for _, s := range res.Waiters {
		r.Waiters = append(r.Waiters, loadSession(s))
	}
	r.Rounds = []LoadRound{}
	for _, q := range res.Rounds {
		r.Rounds = append(r.Rounds, LoadRound{Round: q, Queue: dur(q.Queue), Drain: dur(q.Drain), Slowest: dur(q.Slowest)})
	}
	for _, s := range res.Samples {
		r.Samples = append(r.Samples, LoadSample{Sample: s, At: dur(s.At)})
	}
	switch {
	case len(findings) > 0:
		r.Verdict, r.ExitCode = "fail", ExitViolation
	case len(res.Errors) > 0 || replies == 0:
		r.Verdict, r.ExitCode = "error", ExitSetup
		if replies == 0 && len(res.Errors) == 0 {
			r.Errors = append(r.Errors, "no request was answered: the campaign proves nothing")
		}
	default:
		r.Verdict, r.ExitCode = "pass", ExitPass
	}
	return r
}

// semMax is a semaphore campaign's max, 0 (left out) for the others.
func semMax(cfg load.Config) int {
	if cfg.Recipe == load.RecipeSemaphore {
		return cfg.Max
	}
	return 0
}

// waitersText says what the queue's waiters take.
func waitersText(c LoadConfig) string {
	switch c.Recipe {
	case load.RecipeElection:
		return "candidates of an election (each proclaims once, then resigns; observed from every waiter session)"
	case load.RecipeSemaphore:
		return fmt.Sprintf("acquirers of a semaphore of %d leases", c.Max)
	}
	return "waiters"
}

func loadSession(s load.SessionStats) LoadSession {
	ls := LoadSession{SessionStats: s, Rate: float64(int64(s.Rate()*10)) / 10, Held: dur(s.Held)}
	if s.SessionLost != "" {
		ls.LostAfter = dur(s.LostAfter)
	}
	for _, l := range s.Lost {
		ls.LostWhen = append(ls.LostWhen, dur(l.After))
	}
	return ls
}

// WriteLoadTable prints a load campaign's summary, sessions, queue rounds,
// samples, findings and verdict.
func WriteLoadTable(w io.Writer, r *LoadReport, outDir string) {
	c := r.Config
	fmt.Fprintf(w, "\nchaos load campaign: no faults; %s; %d busy sessions x %d workers (rate %s), %d leases each; %d %s over %d sessions; acquire bound %s\n",
		r.Elapsed, c.Sessions, c.Workers, rateText(c.Rate), c.Locks, c.Waiters, waitersText(c), c.WaiterSessions, c.AcquireBound)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "session\treplies\tguards\treplies/s\theld\tleases lost\tsession lost\t")
	for _, s := range append(append([]LoadSession{}, r.Sessions...), r.Waiters...) {
		lost := "-"
		if s.LostAfter != "" {
			lost = "after " + s.LostAfter
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%s\t%d\t%s\t\n", s.Name, s.Replies, s.Guards, s.Rate, s.Held, len(s.Lost), lost)
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t")
	fmt.Fprintln(tw, "queue round\twaiters\tqueued\tgranted\tqueue time\tdrain time\tslowest hand-off\treports\t")
	for i, q := range r.Rounds {
		reports := "-"
		if c.Recipe == load.RecipeElection {
			reports = fmt.Sprint(q.Reports)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", i+1, q.Waiters, q.Queued, q.Granted, q.Queue, q.Drain, q.Slowest, reports)
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t")
	fmt.Fprintln(tw, "sample\tat\theap MiB\tgoroutines\twatches\t\t\t")
	for _, s := range r.Samples {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%d\t%d\t\t\t\n", s.Label, s.At, float64(s.HeapBytes)/(1<<20), s.Goroutines, s.TotalWatches())
	}
	tw.Flush()
	fmt.Fprintf(w, "acquisitions: %d, slowest %s\n", r.Acquires.Count, r.Acquires.Slowest)
	for i, f := range r.Findings {
		if i == 10 {
			fmt.Fprintf(w, "  ... and %d more (report.json)\n", len(r.Findings)-i)
			break
		}
		fmt.Fprintf(w, "  FINDING %s: %s\n", f.Kind, f.Text)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	fmt.Fprintf(w, "verdict: %s (exit %d)\n", strings.ToUpper(r.Verdict), r.ExitCode)
	fmt.Fprintf(w, "report: %s\n", filepath.Join(outDir, "report.json"))
}

func rateText(rate int) string {
	if rate == 0 {
		return "flat out"
	}
	return fmt.Sprintf("%d/s per session", rate)
}
