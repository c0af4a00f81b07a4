package checker

import (
	"fmt"
	"sort"
)

// The election's checks. A leadership is recorded as an exclusive lease on
// the election path (its acquire carries the campaign's value, its token is
// the epoch), so overlap, token order and the mutex model judge leaders as
// they judge lock holders. What is the election's own is what observers
// report (KindObserve) and what leaders proclaim (KindProclaim); these
// checks judge those.
const (
	// CheckObservedOrder: one observation reported an epoch lower than one it
	// had reported, the same epoch twice without a new value, or a vacancy
	// twice in a row.
	CheckObservedOrder CheckName = "observed-order"
	// CheckObservedValue: an observer reported a value that no leader of that
	// epoch campaigned with or proclaimed, or reported it before it was
	// campaigned with or proclaimed, or a proclaim that failed (and so wrote
	// nothing).
	CheckObservedValue CheckName = "observed-value"
)

// observationKey names one observation: the reports one client received on
// one path in one session (a new session means a new Observe).
type observationKey struct{ client, session, path string }

// checkElection runs the election's checks on the observer reports of h.
func checkElection(h History, out *collector) {
	byObs := map[observationKey][]int{}
	for i := range h {
		if r := &h[i]; r.Kind == KindObserve {
			k := observationKey{r.Client, r.Session, r.Path}
			byObs[k] = append(byObs[k], i)
		}
	}
	keys := make([]observationKey, 0, len(byObs))
	for k := range byObs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return a.path < b.path || a.path == b.path && (a.client < b.client || a.client == b.client && a.session < b.session)
	})
	writes := indexElectionWrites(h)
	for _, k := range keys {
		idx := byObs[k]
		// Record order breaks ties of equal times: it is the order received.
		sort.SliceStable(idx, func(a, b int) bool { return h[idx[a]].Call < h[idx[b]].Call })
		checkObservedOrder(h, idx, out)
		for _, i := range idx {
			checkObservedValue(h, i, writes, out)
		}
	}
}

// checkObservedOrder holds one observation to Observe's promise: epochs
// never go back, an epoch comes again only with a new value, and a vacancy
// is reported only after a leader (or first). A vacancy does not lower the
// bar: the next leader must still have a higher epoch than any before.
func checkObservedOrder(h History, idx []int, out *collector) {
	var top int64
	last := -1
	for _, i := range idx {
		r := &h[i]
		bad := ""
		switch {
		case last < 0:
		case r.Token == 0 && h[last].Token == 0:
			bad = "a vacancy reported twice in a row"
		case r.Token == 0:
		case r.Token < top:
			bad = fmt.Sprintf("epoch %d reported after epoch %d", r.Token, top)
		case r.Token == top && h[last].Token != top:
			bad = fmt.Sprintf("epoch %d reported again after a vacancy", r.Token)
		case r.Token == top && h[last].Value == r.Value:
			bad = fmt.Sprintf("epoch %d with value %q reported twice", r.Token, r.Value)
		}
		if bad != "" {
			prev := &h[last]
			out.add(Finding{
				Check: CheckObservedOrder, Path: r.Path, Clients: []string{r.Client}, Tokens: []int64{prev.Token, r.Token},
				Start: prev.Call, End: r.Call, Records: []int{last, i},
				Text: fmt.Sprintf("observer %s (session %s) on %s: %s, at %s then %s",
					r.Client, r.Session, r.Path, bad, fmtTime(prev.Call), fmtTime(r.Call)),
			})
		}
		top = max(top, r.Token)
		last = i
	}
}

// electionWrites indexes, per path and value, the records that put a value
// on a candidate's node: acquires (the campaign's value) and proclaims.
// Values are unique to the candidate that wrote them.
type electionWrites map[string]map[string][]int

func indexElectionWrites(h History) electionWrites {
	ws := electionWrites{}
	for i := range h {
		r := &h[i]
		if (r.Kind != KindAcquire || r.Value == "") && r.Kind != KindProclaim {
			continue
		}
		if ws[r.Path] == nil {
			ws[r.Path] = map[string][]int{}
		}
		ws[r.Path][r.Value] = append(ws[r.Path][r.Value], i)
	}
	return ws
}

// checkObservedValue holds one report to what leaders did: its value was
// put on a node of its epoch, by a campaign or a proclaim that may have
// written it (not a failed proclaim) and that was called before the report
// arrived. A campaign that did not return its epoch (it failed or its
// outcome is unknown) may still have led for a moment: its value vouches
// for any epoch, as the value is its candidate's alone.
func checkObservedValue(h History, i int, ws electionWrites, out *collector) {
	r := &h[i]
	if r.Token == 0 {
		return
	}
	why := fmt.Sprintf("no leader campaigned with or proclaimed %q", r.Value)
	for _, j := range ws[r.Path][r.Value] {
		w := &h[j]
		switch {
		case w.Call > r.Call:
			why = fmt.Sprintf("%s's %s of it was called only at %s", w.Client, w.Kind, fmtTime(w.Call))
		case w.Kind == KindProclaim && w.Outcome == OutcomeFailed:
			why = fmt.Sprintf("%s's proclaim of it failed (wrote nothing)", w.Client)
		case w.Token != 0 && w.Token != r.Token && (w.Kind == KindProclaim || w.Outcome == OutcomeOK):
			why = fmt.Sprintf("%s wrote it as the leader of epoch %d", w.Client, w.Token)
		default:
			return
		}
	}
	out.add(Finding{
		Check: CheckObservedValue, Path: r.Path, Clients: []string{r.Client}, Tokens: []int64{r.Token},
		Start: r.Call, End: r.Call, Records: []int{i},
		Text: fmt.Sprintf("observer %s on %s reported epoch %d with value %q at %s: %s",
			r.Client, r.Path, r.Token, r.Value, fmtTime(r.Call), why),
	})
}

// ElectionSummary counts what a history's election did, for the report;
// nil for a history without observers or proclaims.
type ElectionSummary struct {
	Leaderships  int `json:"leaderships"`  // successful campaigns (acquires carrying a value)
	Proclaims    int `json:"proclaims"`    // proclaims called
	ProclaimsOK  int `json:"proclaims_ok"` // of which returned ok
	Reports      int `json:"reports"`      // observer reports received
	Vacancies    int `json:"vacancies"`    // of which said nobody led
	Observations int `json:"observations"` // observations (client, session, path) that reported
	Epochs       int `json:"epochs"`       // distinct epochs reported
}

func summarizeElection(h History) *ElectionSummary {
	s := &ElectionSummary{}
	obs := map[observationKey]bool{}
	epochs := map[string]bool{}
	for i := range h {
		r := &h[i]
		switch {
		case r.Kind == KindAcquire && r.Value != "" && r.Outcome == OutcomeOK:
			s.Leaderships++
		case r.Kind == KindProclaim:
			s.Proclaims++
			if r.Outcome == OutcomeOK {
				s.ProclaimsOK++
			}
		case r.Kind == KindObserve:
			s.Reports++
			obs[observationKey{r.Client, r.Session, r.Path}] = true
			if r.Token == 0 {
				s.Vacancies++
			} else {
				epochs[fmt.Sprintf("%s\x00%d", r.Path, r.Token)] = true
			}
		}
	}
	if s.Proclaims == 0 && s.Reports == 0 {
		return nil
	}
	s.Observations, s.Epochs = len(obs), len(epochs)
	return s
}

// String says it in one line.
func (s *ElectionSummary) String() string {
	return fmt.Sprintf("%d leaderships, %d proclaims (%d ok), %d observer reports (%d vacancies) in %d observations, %d epochs seen",
		s.Leaderships, s.Proclaims, s.ProclaimsOK, s.Reports, s.Vacancies, s.Observations, s.Epochs)
}
