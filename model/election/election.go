// Package election is the Go mirror of spec/tla/Election.tla: leader
// election on the lock. Candidates are PredecessorLock's clients and take
// its steps unchanged (State embeds predlock.State, Spec embeds
// *predlock.Spec); the module adds the leader's data (Proclaim, a version
// per lock node), observers that report who leads (ObserveList,
// ObserveWatch, ObserveNotified; ObserverSessionLost with WithObserverLoss), the history the properties need, and the
// mutants' steps (PredecessorGoneIsGrant through predlock's NotifyIsGrant
// variant, ResignKeepNode). Election's candidate steps carry the lock's
// action names, so a label of a candidate step is predlock's label.
// spec/tla/README.md is the contract.
package election

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// Module says which specification of Election the Spec follows.
type Module uint8

// The specifications.
const (
	// Base is Spec and FairSpec: the lock's candidate steps.
	Base Module = iota
	// Notify is NotifySpec: PredecessorGoneIsGrant replaces PredecessorGone
	// and GrantOnHeadGone (the lock's NotifyIsGrant mutant).
	Notify
	// Keep is KeepSpec and KeepFairSpec: ResignKeepNode replaces Release.
	Keep
	// HandOff is HandOffSpec: HandOffOnDataChange replaces DataChanged.
	HandOff
)

// Constants are Election's constants beyond PredecessorLock's.
type Constants struct {
	Observers     []string // observer model values, in TLC's order
	MaxProclaims  int      // bound on a node's value version
	WatchVacancy  bool     // an observer that lists no candidate arms a child watch
	LeadersResign bool     // fairness: a leader eventually resigns
	HeadBySeq     bool     // the head is the listed node of the smallest seq (false: the mutant, any)
	// WithObserverLoss: an observer's session may be lost (ObserverSessionLost).
	WithObserverLoss bool
	// NextOnDelete: an observer advances to its listed successor only when
	// its head's node is gone (false: the mutant, on any event).
	NextOnDelete bool
	// ReportFilter: an observer reports a head only if newer than the last
	// it reported (false: the mutant, every read).
	ReportFilter bool
}

// OPC is an observer's control state (spec: OPCs).
type OPC uint8

// The observer control states.
const (
	OList     OPC = iota // about to list the candidates
	OWatch               // about to read the head with a data watch
	OWatching            // data watch armed on the head
	OVacant              // no candidate listed: child watch armed (or none, the mutant)
	OLost                // its session lost: stopped for good (ObserverSessionLost)
)

var opcNames = [...]string{"list", "watch", "watching", "vacant", "lost"}

// String is the control state's name in the spec.
func (p OPC) String() string { return opcNames[p] }

// NoWatch is omark of an observer with no watch armed (spec: NoWatch).
const NoWatch = -1

// Report is a report <<epoch, version>>; the zero Report is Vacancy.
type Report struct{ Epoch, Version int }

// Vacancy is the report "nobody leads" (spec: Vacancy == <<0, 0>>).
var Vacancy = Report{}

// newer is Newer(a, b): a's epoch is newer, or the same with a newer version.
func newer(a, b Report) bool {
	return a.Epoch > b.Epoch || a.Epoch == b.Epoch && a.Version > b.Version
}

func reportLess(a, b Report) bool { return newer(b, a) }

// NewerThan is Newer(r, b): r's epoch is newer than b's, or the same with
// a newer version.
func (r Report) NewerThan(b Report) bool { return newer(r, b) }

// Event is a fired data watch [node, req] (spec: an element of dataEvents).
type Event = zk.Watch[zk.NoKind]

// eventLess orders dataEvents by node, then request.
func eventLess(a, b Event) bool {
	return a.Node.Seq < b.Node.Seq || a.Node.Seq == b.Node.Seq && zk.UuidLess(a.Req, b.Req)
}

// State is one state of Election: PredecessorLock's variables and the
// module's own. Value is indexed by seq (the spec's value[seq + 1]); the
// per-observer slices by observer index.
type State struct {
	predlock.State
	Value      []int    // version of each node's data
	Proclaimed []Report // every Proclaim's <<epoch, version>>, sorted
	DataEvents []Event  // NodeDataChanged events delivered to candidates, not taken, sorted
	OPC        []OPC    // observer control state
	OHead      []int    // seq of the head read or watched, NoNode if none
	ONext      [][]int  // the seqs listed after that head, ascending, read in turn by ObserveNext (never written in place)
	ORefresh   []bool   // the head was read without a listing: list once more (ObserveRefresh)
	OMark      []int    // watching: the version read; vacant: nextSeq at the listing; else NoWatch
	Report     []Report // the last report
	Known      []Report // the last leader reported
}

// Spec is Election's state machine with its constants.
type Spec struct {
	*predlock.Spec
	Constants
	Module Module
}

// New checks the constants and returns the Spec of module m.
func New(k predlock.Constants, e Constants, m Module) (*Spec, error) {
	if m > HandOff {
		return nil, fmt.Errorf("election: unknown module %d", m)
	}
	v := predlock.Base
	if m == Notify {
		v = predlock.NotifyIsGrant
	}
	if k.GrantRule != predlock.GrantReread {
		return nil, fmt.Errorf("election: the epoch is the token read at Grant: GrantRule must be \"reread\"")
	}
	inner, err := predlock.New(k, v)
	if err != nil {
		return nil, err
	}
	if k.MaxSeq == predlock.Unbounded {
		return nil, fmt.Errorf("election: MaxSeq must be bounded (value is per seq)")
	}
	return &Spec{Spec: inner, Constants: e, Module: m}, nil
}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	n := len(sp.Observers)
	s := State{State: sp.Spec.Init(), Value: make([]int, sp.MaxSeq),
		OPC: make([]OPC, n), OHead: make([]int, n), ONext: make([][]int, n), ORefresh: make([]bool, n), OMark: make([]int, n),
		Report: make([]Report, n), Known: make([]Report, n)}
	for o := range n {
		s.OHead[o], s.OMark[o] = zk.NoNode, NoWatch
	}
	return s
}

// AppendEncoding appends the canonical encoding of s: PredecessorLock's,
// then the values, the history, the data events and the observers'. Two states are equal
// iff their encodings are.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = s.State.AppendEncoding(b)
	for _, x := range s.Value {
		b = v(b, int64(x))
	}
	b = v(b, int64(len(s.Proclaimed)))
	for _, r := range s.Proclaimed {
		b = v(v(b, int64(r.Epoch)), int64(r.Version))
	}
	b = v(b, int64(len(s.DataEvents)))
	for _, e := range s.DataEvents {
		b = v(v(v(b, int64(e.Node.Seq)), int64(e.Req.C)), int64(e.Req.R))
	}
	for o := range s.OPC {
		refresh := byte(0)
		if s.ORefresh[o] {
			refresh = 1
		}
		b = binary.AppendUvarint(append(b, byte(s.OPC[o]), refresh), uint64(len(s.ONext[o])))
		for _, q := range s.ONext[o] {
			b = v(b, int64(q))
		}
		b = v(v(v(b, int64(s.OHead[o])), int64(s.OMark[o])), int64(s.Report[o].Epoch))
		b = v(v(v(b, int64(s.Report[o].Version)), int64(s.Known[o].Epoch)), int64(s.Known[o].Version))
	}
	return b
}

func (r Report) tla() tla.Value { return tla.Tuple{tla.Int(r.Epoch), tla.Int(r.Version)} }

// TLA returns the state's variables as TLC prints them: PredecessorLock's,
// then value, proclaimed, dataEvents, opc, ohead, onext, orefresh, omark,
// report, known.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[zk.NoKind]{Clients: sp.Observers}
	lock := zk.Printer[zk.NoKind]{Clients: sp.Clients}
	value := tla.Tuple{}
	for _, x := range s.Value {
		value = append(value, tla.Int(x))
	}
	proclaimed := tla.Set{}
	for _, r := range s.Proclaimed {
		proclaimed = append(proclaimed, r.tla())
	}
	events := tla.Set{}
	for _, e := range s.DataEvents {
		events = append(events, lock.Watch(e))
	}
	reports := func(rs []Report) tla.Value {
		return p.PerClient(func(o int) tla.Value { return rs[o].tla() })
	}
	return append(sp.Spec.TLA(&s.State),
		tla.Binding{Name: "value", Value: value},
		tla.Binding{Name: "proclaimed", Value: proclaimed},
		tla.Binding{Name: "dataEvents", Value: events},
		tla.Binding{Name: "opc", Value: p.PerClient(func(o int) tla.Value { return tla.Str(opcNames[s.OPC[o]]) })},
		tla.Binding{Name: "ohead", Value: p.Ints(s.OHead)},
		tla.Binding{Name: "onext", Value: p.PerClient(func(o int) tla.Value { return seqSet(s.ONext[o]) })},
		tla.Binding{Name: "orefresh", Value: p.PerClient(func(o int) tla.Value { return tla.Bool(s.ORefresh[o]) })},
		tla.Binding{Name: "omark", Value: p.Ints(s.OMark)},
		tla.Binding{Name: "report", Value: reports(s.Report)},
		tla.Binding{Name: "known", Value: reports(s.Known)})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }

// seqSet is a set of seqs (ascending) as TLC prints it.
func seqSet(seqs []int) tla.Value {
	set := tla.Set{}
	for _, q := range seqs {
		set = append(set, tla.Int(q))
	}
	return set
}
