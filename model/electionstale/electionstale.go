// Package electionstale is the Go mirror of spec/tla/ElectionStaleReads.tla:
// Election (model/election) with its observers' reads answered by a server
// that lags behind the leader. The read view is model/replicas'
// (spec/tla/ZooKeeperReplicas.tla), its clients the observers: every write
// step logs the node set it leaves under its zxid (Hist), each observer
// remembers the highest zxid it has seen (Seen), and an observer's
// listing (StaleObserveList) and getData (StaleObserveWatch) are
// election's own steps run on a copy of the state whose nodes, values and
// sequence counter are a logged snapshot's (the module's Snap(v)), at or
// after Seen (SessionOrder), or any snapshot at all in the must-fail
// control. DHist, beside Hist, logs the values and the sequence counter
// per write step (the module's dhist). Every other step is election's,
// logged; the candidates read the leader, as in Election.
//
// Step names are the module's: "L" before election's name of a step that
// reads no snapshot (LRequestLock, LProclaim, LObserveNotified,
// LObserveNext), "Stale"
// before a read (StaleObserveList, StaleObserveWatch). A read's
// model.Label.Arg is the snapshot's zxid.
package electionstale

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// Module is the TLA+ module this package mirrors.
const Module = "ElectionStaleReads"

// Data is one entry of dhist: the values and the sequence counter after
// the write step whose last zxid is Zxid (dhist[Zxid] = <<value, nextSeq>>).
type Data struct {
	Zxid    int
	Value   []int
	NextSeq int
}

// State is one state of ElectionStaleReads: Election's variables, then
// hist and seen (the read view, Seen by observer index; Dupes stays empty:
// observers create nothing), then dhist (sorted by zxid).
type State struct {
	E     election.State
	V     replicas.View[zk.NoKind]
	DHist []Data
}

// Spec is the state machine with its constants.
type Spec struct {
	E *election.Spec
	// SessionOrder: an observer's read is answered from a snapshot at or
	// after what it has seen (false: the must-fail control).
	SessionOrder bool
}

// ErrAssume is returned by New for constants the module's ASSUME refuses:
// the stale listing takes the smallest seq for the head (HeadBySeq), and
// no observer's session is lost (~WithObserverLoss).
var ErrAssume = errors.New("HeadBySeq must be TRUE and WithObserverLoss FALSE (ASSUME)")

// New returns the Spec over Election's Base spec e.
func New(e *election.Spec, sessionOrder bool) (*Spec, error) {
	if e.Module != election.Base {
		return nil, fmt.Errorf("%s: Election's Spec only", Module)
	}
	if !e.HeadBySeq || e.WithObserverLoss {
		return nil, fmt.Errorf("%s: %w", Module, ErrAssume)
	}
	return &Spec{E: e, SessionOrder: sessionOrder}, nil
}

// server is the leader's state in s.
func server(s *election.State) *zk.Server[zk.NoKind] { return &s.State.State.Server }

// Init is StaleInit: Election's Init, hist = (0 :> {}), seen 0, dhist =
// (0 :> <<value, nextSeq>>).
func (sp *Spec) Init() State {
	e := sp.E.Init()
	return State{E: e, V: replicas.Init[zk.NoKind](len(sp.E.Observers)),
		DHist: []Data{{Zxid: 0, Value: e.Value, NextSeq: e.NextSeq}}}
}

// dataAt returns dhist[v], and false if v is not logged.
func (s *State) dataAt(v int) (Data, bool) {
	for _, d := range s.DHist {
		if d.Zxid == v {
			return d, true
		}
	}
	return Data{}, false
}

// logged is Logged for the step from s to t, whose election state t.E is
// set: hist and dhist log what it wrote if it advanced zxid (ZR!Log,
// LogData), seen is unchanged.
func (s *State) logged(t *State) {
	s.V.Log(server(&s.E), server(&t.E), &t.V)
	t.V.Seen = s.V.Seen
	t.DHist = s.DHist
	if t.E.Zxid != s.E.Zxid {
		t.DHist = cow.Append(s.DHist, Data{Zxid: t.E.Zxid, Value: t.E.Value, NextSeq: t.E.NextSeq})
	}
}

// IsRead reports whether a is one of the observers' reads (answered from a
// snapshot): ObserveList and ObserveWatch.
func IsRead(a uint8) bool {
	return a == election.ActObserveList || a == election.ActObserveWatch || a == election.ActObserveRefresh
}

// Step applies the action instance l to s, writing the successor into t. A
// read's Arg is the snapshot it is answered from.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if !IsRead(l.Action) {
		if g := sp.E.Step(&s.E, l, &t.E); g != model.Enabled {
			return g
		}
		s.logged(t)
		return model.Enabled
	}
	o, v := int(l.Client), int(l.Arg)
	if o < 0 || o >= len(sp.E.Observers) {
		return "unknown observer"
	}
	if !s.V.Readable(o, v, sp.SessionOrder) {
		return `v \in ZR!Readable(o)`
	}
	// Snap(v): Election's state with the nodes, values and sequence counter
	// as of v; the step runs on it, and the leader's are put back.
	nodes, _ := s.V.At(v)
	d, _ := s.dataAt(v)
	u := s.E
	server(&u).Nodes, server(&u).NextSeq, u.Value = nodes, d.NextSeq, d.Value
	var g model.Guard
	switch l.Action {
	case election.ActObserveList:
		g = sp.E.ObserveList(&u, o, 0, &t.E)
	case election.ActObserveWatch:
		g = sp.E.ObserveWatch(&u, o, &t.E)
	default:
		g = sp.E.ObserveRefresh(&u, o, &t.E)
	}
	if g != model.Enabled {
		return g
	}
	server(&t.E).Nodes, server(&t.E).NextSeq, t.E.Value = s.E.Nodes, s.E.NextSeq, s.E.Value
	s.V.Read(o, v, &t.V) // ReadAt: hist unchanged, seen[o] = v
	t.DHist = s.DHist
	return model.Enabled
}

// Next calls emit with every successor of s in the order of StaleNext:
// election's candidate, environment and own candidate steps in its order,
// logged; then for each observer StaleObserveList and StaleObserveWatch
// once per readable snapshot in increasing zxid order, LObserveNotified,
// LObserveNext, and StaleObserveRefresh once per readable snapshot.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	sp.E.Next(&s.E, func(l model.Label, u *election.State) {
		if election.IsObserverAction(l.Action) {
			return // below, per snapshot
		}
		t.E = *u
		s.logged(&t)
		emit(l, &t)
	})
	try := func(l model.Label) {
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	for o := range sp.E.Observers {
		for _, a := range []uint8{election.ActObserveList, election.ActObserveWatch} {
			for _, v := range s.V.Readables(o, sp.SessionOrder) {
				try(model.Label{Action: a, Client: int16(o), Arg: int16(v)})
			}
		}
		try(model.Label{Action: election.ActObserveNotified, Client: int16(o)})
		try(model.Label{Action: election.ActObserveNext, Client: int16(o)})
		for _, v := range s.V.Readables(o, sp.SessionOrder) {
			try(model.Label{Action: election.ActObserveRefresh, Client: int16(o), Arg: int16(v)})
		}
	}
}

// ActionName returns the module's name of l's action: election's, after
// "Stale" for a read and "L" for any other step.
func ActionName(l model.Label) string {
	if IsRead(l.Action) {
		return "Stale" + election.ActionName(l)
	}
	return "L" + election.ActionName(l)
}

// LabelString renders l with its parameters under the module's name; a
// read names its snapshot.
func (sp *Spec) LabelString(l model.Label) string {
	s := "L" + sp.E.LabelString(l)
	if IsRead(l.Action) {
		s = "Stale" + sp.E.LabelString(l) + fmt.Sprintf(" from snapshot %d", l.Arg)
	}
	return s
}

// StaleTypeOK is Election's TypeOK, ZR's (hist[zxid] = nodes, no snapshot
// after zxid, seen in 0..zxid) and dhist's: logged at the zxids hist is,
// its last entry the leader's values and counter.
func (sp *Spec) StaleTypeOK(s *State) bool {
	if !sp.E.TypeOK(&s.E) || !s.V.ViewTypeOK(server(&s.E), len(sp.E.Observers)) || len(s.DHist) != len(s.V.Hist) {
		return false
	}
	for i, d := range s.DHist {
		if d.Zxid != s.V.Hist[i].Zxid {
			return false
		}
	}
	last := s.DHist[len(s.DHist)-1]
	if last.NextSeq != s.E.NextSeq || len(last.Value) != len(s.E.Value) {
		return false
	}
	for i := range last.Value {
		if last.Value[i] != s.E.Value[i] {
			return false
		}
	}
	return true
}

// AppendEncoding appends the canonical encoding of s: Election's, the
// view's, then dhist.
func (s *State) AppendEncoding(b []byte) []byte {
	b = s.V.AppendEncoding(s.E.AppendEncoding(b))
	v := binary.AppendVarint
	b = v(b, int64(len(s.DHist)))
	for _, d := range s.DHist {
		b = v(v(b, int64(d.Zxid)), int64(d.NextSeq))
		for _, x := range d.Value {
			b = v(b, int64(x))
		}
	}
	return b
}

// TLA returns the state's variables as TLC prints them: Election's, then
// hist, seen (per observer) and dhist.
func (sp *Spec) TLA(s *State) []tla.Binding {
	cand := zk.Printer[zk.NoKind]{Clients: sp.E.Clients}
	obs := zk.Printer[zk.NoKind]{Clients: sp.E.Observers}
	view := s.V.Bindings(cand) // hist, seen (by candidate names: replaced), dupes (dropped)
	dh := make(tla.Func, len(s.DHist))
	for i, d := range s.DHist {
		value := tla.Tuple{}
		for _, x := range d.Value {
			value = append(value, tla.Int(x))
		}
		dh[i] = tla.Pair{Key: tla.Int(d.Zxid), Value: tla.Tuple{value, tla.Int(d.NextSeq)}}
	}
	return append(sp.E.TLA(&s.E), view[0],
		tla.Binding{Name: "seen", Value: obs.Ints(s.V.Seen)},
		tla.Binding{Name: "dhist", Value: dh})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }
