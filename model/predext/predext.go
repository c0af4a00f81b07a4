// Package predext is the Go mirror of the modules that EXTEND
// spec/tla/PredecessorLock.tla with a variable of their own:
// PredecessorLockGuard (Lease.Guard: the holder's writes to ZooKeeper in a
// multi that checks its lock node) with its must-fail control
// PredecessorLockGuardUnchecked, and PredecessorLockCancelInFlight (a
// create still in flight when its request is cancelled) with its
// must-fail control PredecessorLockCancelNoWait. (Connection loss, which
// adds a variable too, is model/connloss, written once for every recipe.)
//
// State embeds predlock.State and adds the module's variable; every step
// of PredecessorLock is predlock's own (Spec embeds *predlock.Spec), taken
// with the new variable unchanged (or, for flight, filtered by the
// sessions still live), as the modules' GBase and FBase say. TLC
// names those steps GBase and FBase (the conjunction with the new variable hides
// PredecessorLock's action names), and so does ActionName; LabelString
// keeps the inner name. spec/tla/README.md is the contract.
package predext

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// Module says which module's next-state relation the Spec follows.
type Module uint8

// The modules mirrored by this package.
const (
	// Guard is PredecessorLockGuard!GSpec: GuardedWrite beside PredecessorLock.
	Guard Module = iota
	// GuardUnchecked is PredecessorLockGuardUnchecked!USpec: the write
	// without the check (UnguardedWrite replaces GuardedWrite).
	GuardUnchecked
	// CancelInFlight is PredecessorLockCancelInFlight (FSpec, FFairSpec):
	// a request cancelled with its create in flight, whose clean-up waits
	// for the outcome.
	CancelInFlight
	// CancelNoWait is PredecessorLockCancelNoWait!NWFairSpec: the clean-up
	// does not wait (CancelNoWait replaces CancelInFlight).
	CancelNoWait
)

// Name returns the TLA+ module the Module mirrors.
func (m Module) Name() string {
	return [...]string{"PredecessorLockGuard", "PredecessorLockGuardUnchecked",
		"PredecessorLockCancelInFlight", "PredecessorLockCancelNoWait"}[m]
}

// guards reports whether the module has the variable guarded (else flight).
func (m Module) guards() bool { return m == Guard || m == GuardUnchecked }

// base is the name TLC gives every step of PredecessorLock in the module.
func (m Module) base() string {
	if m.guards() {
		return "GBase"
	}
	return "FBase"
}

// Flight is a create of a cancelled request, sent and not answered (an
// element of flight: [s |-> Sess, u |-> Uuid, waited |-> Waited]).
type Flight struct {
	Sess   zk.Session
	Uuid   zk.Uuid
	Waited bool // the clean-up waits for the create's outcome
}

// flightLess orders flights by uuid (a request has one create in flight
// at most), then session and Waited, so the slice is a canonical set.
func flightLess(a, b Flight) bool {
	if a.Uuid != b.Uuid {
		return zk.UuidLess(a.Uuid, b.Uuid)
	}
	if a.Sess != b.Sess {
		return zk.SessLess(a.Sess, b.Sess)
	}
	return !a.Waited && b.Waited
}

// State is one state of the module: PredecessorLock's variables and the
// module's own (guarded, [tenure |-> Guarded, version |-> Version], in the
// Guard modules, flight in the CancelInFlight ones; the others stay
// zero).
type State struct {
	predlock.State
	Guarded int      // tenure of the last guarded write the server applied
	Version int      // parity of the guarded node's data version: every write flips it
	Flight  []Flight // creates of cancelled requests in flight, sorted by flightLess
}

// Spec is the state machine of one module with its constants.
type Spec struct {
	*predlock.Spec
	Module Module
}

// New checks the constants and returns the Spec of module m.
func New(k predlock.Constants, m Module) (*Spec, error) {
	if m > CancelNoWait {
		return nil, fmt.Errorf("predext: unknown module %d", m)
	}
	inner, err := predlock.New(k, predlock.Base)
	if err != nil {
		return nil, err
	}
	return &Spec{Spec: inner, Module: m}, nil
}

// Init is the initial state (spec: GInit, FInit).
func (sp *Spec) Init() State { return State{State: sp.Spec.Init()} }

// AppendEncoding appends the canonical encoding of s: PredecessorLock's,
// then guarded and the flights. Two states are equal iff their encodings
// are.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = v(v(v(s.State.AppendEncoding(b), int64(s.Guarded)), int64(s.Version)), int64(len(s.Flight)))
	for _, f := range s.Flight {
		b = v(v(v(v(b, int64(f.Sess.C)), int64(f.Sess.K)), int64(f.Uuid.C)), int64(f.Uuid.R))
		b = append(b, boolByte(f.Waited))
	}
	return b
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// TLA returns the state's variables as TLC prints them: PredecessorLock's,
// then the module's own.
func (sp *Spec) TLA(s *State) []tla.Binding {
	bs := sp.Spec.TLA(&s.State)
	if sp.Module.guards() {
		return append(bs, tla.Binding{Name: "guarded", Value: tla.Record{
			{Name: "tenure", Value: tla.Int(s.Guarded)}, {Name: "version", Value: tla.Int(s.Version)}}})
	}
	p := zk.Printer[zk.NoKind]{Clients: sp.Clients}
	set := tla.Set{}
	for _, f := range s.Flight {
		set = append(set, tla.Record{{Name: "s", Value: p.Session(f.Sess)},
			{Name: "u", Value: p.Uuid(f.Uuid)}, {Name: "waited", Value: tla.Bool(f.Waited)}})
	}
	return append(bs, tla.Binding{Name: "flight", Value: set})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }

// Action indices (model.Label.Action) of the modules' own actions: after
// PredecessorLock's.
var (
	ActGuardedWrite   = uint8(len(predlock.ActionNames))
	ActUnguardedWrite = ActGuardedWrite + 1
	ActCancelInFlight = ActGuardedWrite + 2
	ActCancelNoWait   = ActGuardedWrite + 3
	ActFlightLands    = ActGuardedWrite + 4
	ownNames          = []string{"GuardedWrite", "UnguardedWrite", "CancelInFlight", "CancelNoWait", "FlightLands"}
)

// ActionName returns the name TLC gives l's action in the module: the
// module's own actions by name, PredecessorLock's steps as GBase or FBase.
func (sp *Spec) ActionName(l model.Label) string {
	if l.Action >= ActGuardedWrite {
		return ownNames[l.Action-ActGuardedWrite]
	}
	return sp.Module.base()
}

// LabelString renders l with its parameters; a step of PredecessorLock
// also names PredecessorLock's action ("GBase: Grant(c1)").
func (sp *Spec) LabelString(l model.Label) string {
	switch {
	case l.Action == ActFlightLands:
		return fmt.Sprintf("FlightLands(<<%s, %d>>)", sp.Clients[l.Client], l.Arg)
	case l.Action >= ActGuardedWrite:
		return fmt.Sprintf("%s(%s)", ownNames[l.Action-ActGuardedWrite], sp.Clients[l.Client])
	}
	return sp.Module.base() + ": " + sp.Spec.LabelString(l)
}

// lifted completes a step of PredecessorLock u taken from s into t: the
// module's variables unchanged, but for the flights of sessions no longer
// live (FBase: flight' = {f \in flight : f.s \in live'}).
func (sp *Spec) lifted(s *State, u *predlock.State, t *State) {
	t.State, t.Guarded, t.Version, t.Flight = *u, s.Guarded, s.Version, s.Flight
	if len(s.Flight) > 0 {
		t.Flight = cow.Filter(s.Flight, func(f Flight) bool { return u.IsLive(f.Sess) })
	}
}

// Next calls emit with every successor of s in TLC's order: the steps of
// PredecessorLock (GBase, FBase), then the module's own action for each
// client (GuardedWrite, UnguardedWrite, CancelInFlight, CancelNoWait),
// then FlightLands(u) for each uuid
// u in Clients \X (1..MaxRequests) order.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	sp.Spec.Next(&s.State, func(l model.Label, u *predlock.State) {
		sp.lifted(s, u, &t)
		emit(l, &t)
	})
	own := map[Module]uint8{Guard: ActGuardedWrite, GuardUnchecked: ActUnguardedWrite,
		CancelInFlight: ActCancelInFlight, CancelNoWait: ActCancelNoWait}[sp.Module]
	for c := range sp.Clients {
		l := model.Label{Action: own, Client: int16(c)}
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	if sp.Module.guards() || len(s.Flight) == 0 {
		return
	}
	for c := range sp.Clients {
		for r := 1; r <= sp.MaxRequests; r++ {
			l := model.Label{Action: ActFlightLands, Client: int16(c), Arg: int16(r)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if l.Action < ActGuardedWrite {
		var u predlock.State
		g := sp.Spec.Step(&s.State, l, &u)
		if g == model.Enabled {
			sp.lifted(s, &u, t)
		}
		return g
	}
	if int(l.Client) < 0 || int(l.Client) >= sp.N() {
		return "unknown client"
	}
	c := int(l.Client)
	switch {
	case l.Action == ActGuardedWrite && sp.Module == Guard:
		return sp.GuardedWrite(s, c, t)
	case l.Action == ActUnguardedWrite && sp.Module == GuardUnchecked:
		return sp.UnguardedWrite(s, c, t)
	case l.Action == ActCancelInFlight && sp.Module == CancelInFlight:
		return sp.CancelInFlight(s, c, true, t)
	case l.Action == ActCancelNoWait && sp.Module == CancelNoWait:
		return sp.CancelInFlight(s, c, false, t)
	case l.Action == ActFlightLands && (sp.Module == CancelInFlight || sp.Module == CancelNoWait):
		return sp.FlightLands(s, zk.Uuid{C: c, R: int(l.Arg)}, t)
	}
	return "not an action of " + model.Guard(sp.Module.Name())
}

// idle is Idle(c) on t: c's per-request state reset, its tenure too.
func idle(t *State, c int) {
	t.State.State.Idle(c)
	t.Tenure = cow.With(t.Tenure, c, 0)
}
