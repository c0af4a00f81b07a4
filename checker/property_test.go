package checker_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/anishathalye/porcupine"
	"pgregory.net/rapid"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/checker/simulate"
)

// rapidSource feeds the simulator from rapid, so a failing history shrinks to a
// small one with few faults.
type rapidSource struct{ t *rapid.T }

func (s rapidSource) IntN(n int) int {
	if n <= 1 {
		return 0
	}
	return rapid.IntRange(0, n-1).Draw(s.t, "choice")
}

func drawConfig(t *rapid.T, pause bool) simulate.Config {
	probs := rapid.SampledFrom([]float64{0, 0.05, 0.2})
	cfg := simulate.Config{
		Clients: rapid.IntRange(1, 5).Draw(t, "clients"),
		Paths:   rapid.IntRange(1, 3).Draw(t, "paths"),
		Ops:     rapid.IntRange(5, 60).Draw(t, "ops"),
		Unknown: probs.Draw(t, "unknown"),
		TryLock: probs.Draw(t, "trylock"),
		Loss:    probs.Draw(t, "loss"),
	}
	cfg.RWPaths = rapid.IntRange(0, cfg.Paths).Draw(t, "rwpaths")
	if pause {
		cfg.Pause = rapid.SampledFrom([]float64{0.05, 0.2, 0.5}).Draw(t, "pause")
	}
	return cfg
}

func report(res *checker.Result) string {
	var b strings.Builder
	_ = res.WriteReport(&b)
	return b.String()
}

func dump(h checker.History) string {
	var b strings.Builder
	_, _ = h.WriteTo(&b)
	return b.String()
}

// Histories of a correct lock pass, whatever the faults. Without pauses nothing at
// all is found; with them, findings are excused by the pauses.
func TestPropertyCorrectHistoriesPass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pause := rapid.Bool().Draw(t, "with pauses")
		cfg := drawConfig(t, pause)
		sim := simulate.Run(cfg, rapidSource{t})
		res, err := checker.Check(sim.History, checker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != checker.VerdictPass || (!pause && len(res.Findings) > 0) {
			t.Fatalf("correct history rejected:\n%s\n%s", report(res), dump(sim.History))
		}
	})
}

// With pauses and no fence, the check fails exactly when the resource accepted a
// stale write: certainly when that write followed a higher one in real time, never
// when no stale write was accepted.
func TestPropertyNoFenceCaughtExactly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := drawConfig(t, true)
		cfg.NoFence = true
		sim := simulate.Run(cfg, rapidSource{t})
		res, err := checker.Check(sim.History, checker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		stale := false
		for _, f := range res.Violations() {
			stale = stale || f.Check == checker.CheckStaleWrite
		}
		switch {
		case sim.StaleObservable > 0 && (res.Verdict != checker.VerdictFail || !stale):
			t.Fatalf("%d observable stale writes accepted, not caught:\n%s\n%s", sim.StaleObservable, report(res), dump(sim.History))
		case sim.StaleAccepted == 0 && res.Verdict != checker.VerdictPass:
			t.Fatalf("no stale write accepted, yet:\n%s\n%s", report(res), dump(sim.History))
		}
	})
}

// A mutation breaks a correct history in one way and names the checks that must
// catch it: porcupine's model of the partition, and a direct check.
type mutation struct {
	name   string
	model  string // "lock" or "register": the kind of partition that must be Illegal
	direct checker.CheckName
	apply  func(t *rapid.T, h checker.History) (checker.History, string, bool) // history, key, applied
}

var mutations = []mutation{
	{"double grant", "lock", checker.CheckOverlap, doubleGrant(false)},
	{"double grant hidden among unknown outcomes", "lock", checker.CheckOverlap, doubleGrant(true)},
	{"loss never signalled", "lock", checker.CheckOverlap, dropLoss},
	{"tokens swapped", "lock", checker.CheckTokenOrder, swapTokens},
	{"stale write accepted", "register", checker.CheckStaleWrite, staleWrite},
	{"node left behind", "", checker.CheckLeftover, leaveNode},
}

func TestPropertyMutationsRejected(t *testing.T) {
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			runs, applied := 0, 0
			rapid.Check(t, func(t *rapid.T) {
				runs++
				// A history may offer nothing to break (no loss, no succession):
				// draw another rather than count a run that checked nothing, so
				// that the quota below does not depend on luck.
				var (
					h   checker.History
					key string
					ok  bool
				)
				for attempt := 0; attempt < 8 && !ok; attempt++ {
					cfg := drawConfig(t, false)
					cfg.Clients = max(cfg.Clients, 2)
					cfg.Ops = max(cfg.Ops, 30)
					if m.name == "loss never signalled" {
						cfg.Loss = 0.3
					}
					sim := simulate.Run(cfg, rapidSource{t})
					h, key, ok = m.apply(t, sim.History)
				}
				if !ok {
					return
				}
				applied++
				res, err := checker.Check(h, checker.Options{})
				if err != nil {
					t.Fatal(err)
				}
				illegal := m.model == ""
				for _, r := range res.Models {
					if r.Key == key && r.Result == porcupine.Illegal {
						illegal = true
					}
				}
				direct := false
				for _, f := range res.Violations() {
					direct = direct || f.Check == m.direct
				}
				if res.Verdict != checker.VerdictFail || !illegal || !direct {
					t.Fatalf("%s on %s not caught by both the %s model and the %s check:\n%s\n%s",
						m.name, key, m.model, m.direct, report(res), dump(h))
				}
			})
			// The property must have checked something: most runs, not a few.
			if applied*2 < runs {
				t.Fatalf("the mutation applied to only %d of %d histories", applied, runs)
			}
		})
	}
}

// lease is a successful acquire of a simulated history and the record ending it.
type lease struct {
	acq, end int
	path     string
	client   string
	token    int64
	writer   bool
	start    int64
	stop     int64
}

func leasesOf(h checker.History) []lease {
	var ls []lease
	for i, r := range h {
		if r.Kind == checker.KindAcquire && r.Outcome == checker.OutcomeOK {
			ls = append(ls, lease{acq: i, end: -1, path: r.Path, client: r.Client, token: r.Token,
				writer: r.Mode != checker.ModeRead, start: r.Return})
		}
	}
	for i, r := range h {
		if r.Kind != checker.KindRelease && r.Kind != checker.KindLost {
			continue
		}
		for j := range ls {
			if ls[j].path == r.Path && ls[j].token == r.Token {
				ls[j].end = i
				ls[j].stop = r.Call
				if r.Kind == checker.KindLost {
					ls[j].stop = r.Return
				}
			}
		}
	}
	return ls
}

// successions lists pairs (a, b) of conflicting leases on one path where a's
// tenure ended before b's began.
func successions(ls []lease, endKind checker.Kind, h checker.History) [][2]lease {
	var pairs [][2]lease
	for _, a := range ls {
		if a.end < 0 || (endKind != "" && h[a.end].Kind != endKind) {
			continue
		}
		for _, b := range ls {
			if a.path == b.path && a.acq != b.acq && (a.writer || b.writer) && a.stop <= b.start && b.stop > b.start {
				pairs = append(pairs, [2]lease{a, b})
			}
		}
	}
	return pairs
}

func clone(h checker.History) checker.History { return append(checker.History(nil), h...) }

// doubleGrant makes a's tenure end only after b's acquire returned.
func doubleGrant(noise bool) func(*rapid.T, checker.History) (checker.History, string, bool) {
	return func(t *rapid.T, h checker.History) (checker.History, string, bool) {
		pairs := successions(leasesOf(h), "", h)
		if len(pairs) == 0 {
			return nil, "", false
		}
		p := rapid.SampledFrom(pairs).Draw(t, "pair")
		a, b := p[0], p[1]
		h = clone(h)
		bRet := h[b.acq].Return
		e := &h[a.end]
		e.Call = bRet + 1
		e.Return = max(e.Return, e.Call+1)
		if noise {
			// Unknown outcomes that must not explain the overlap away: releases of
			// a's token by other clients, releases of other tokens by a's client,
			// cut-off acquires, all before b's acquire returned.
			n := rapid.IntRange(1, 6).Draw(t, "noise")
			for i := 0; i < n; i++ {
				call := rapid.Int64Range(h[a.acq].Return, bRet).Draw(t, "noise call")
				switch rapid.IntRange(0, 2).Draw(t, "noise kind") {
				case 0:
					h = append(h, checker.Record{Kind: checker.KindRelease, Client: "intruder", Path: a.path,
						Call: call, Return: call, Outcome: checker.OutcomeUnknown, Token: a.token})
				case 1:
					h = append(h, checker.Record{Kind: checker.KindRelease, Client: a.client, Path: a.path,
						Call: call, Return: call, Outcome: checker.OutcomeUnknown, Token: a.token + 1000000})
				default:
					h = append(h, checker.Record{Kind: checker.KindAcquire, Client: a.client, Path: a.path,
						Mode: h[a.acq].Mode, Call: call, Return: call, Outcome: checker.OutcomeUnknown})
				}
			}
		}
		return h, a.path, true
	}
}

// dropLoss removes the lost record of a lease that a successor followed: the holder
// never learns, as with go-zookeeper's zk.Lock.
func dropLoss(t *rapid.T, h checker.History) (checker.History, string, bool) {
	pairs := successions(leasesOf(h), checker.KindLost, h)
	if len(pairs) == 0 {
		return nil, "", false
	}
	a := rapid.SampledFrom(pairs).Draw(t, "pair")[0]
	out := clone(h[:a.end])
	return append(out, h[a.end+1:]...), a.path, true
}

// swapTokens exchanges the tokens of two successive conflicting leases.
func swapTokens(t *rapid.T, h checker.History) (checker.History, string, bool) {
	pairs := successions(leasesOf(h), "", h)
	if len(pairs) == 0 {
		return nil, "", false
	}
	p := rapid.SampledFrom(pairs).Draw(t, "pair")
	a, b := p[0], p[1]
	if a.token > b.token {
		return nil, "", false // the pair was not in token order to begin with
	}
	h = clone(h)
	for i := range h {
		if h[i].Path != a.path || h[i].Kind == checker.KindFault || h[i].Kind == checker.KindLeftover {
			continue
		}
		switch h[i].Token {
		case a.token:
			h[i].Token = b.token
		case b.token:
			h[i].Token = a.token
		}
	}
	return h, a.path, true
}

// staleWrite adds a write the register accepts with a token below one it accepted
// earlier.
func staleWrite(t *rapid.T, h checker.History) (checker.History, string, bool) {
	var oks []int
	for i, r := range h {
		if r.Kind == checker.KindWrite && r.Outcome == checker.OutcomeOK {
			oks = append(oks, i)
		}
	}
	var pairs [][2]int
	for _, i := range oks {
		for _, j := range oks {
			if h[i].Register == h[j].Register && h[i].Token > h[j].Token {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	if len(pairs) == 0 {
		return nil, "", false
	}
	p := rapid.SampledFrom(pairs).Draw(t, "pair")
	hi, lo := h[p[0]], h[p[1]]
	w := lo
	w.Call, w.Return, w.Value = hi.Return+1, hi.Return+2, fmt.Sprintf("stale %d", lo.Token)
	return append(clone(h), w), hi.Register, true
}

// leaveNode reports the node of a finished lease as still present at the end.
func leaveNode(t *rapid.T, h checker.History) (checker.History, string, bool) {
	ls := leasesOf(h)
	if len(ls) == 0 {
		return nil, "", false
	}
	l := rapid.SampledFrom(ls).Draw(t, "lease")
	h = clone(h)
	for i := range h {
		if h[i].Kind == checker.KindLeftover && h[i].Path == l.path {
			h[i].Nodes = append(append([]string(nil), h[i].Nodes...), h[l.acq].Node)
			return h, l.path, true
		}
	}
	return nil, "", false
}
