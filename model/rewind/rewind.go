// Package rewind is the Go mirror of spec/tla/Rewind.tla: a wiped or
// restored ensemble (its zxid counter and state go back, its sessions are
// gone), the sessions that meet the older history, and the tokens a
// process hands out across it.
//
// Every variable of the spec is a field of State, every action a method of
// Spec with the action's name, the invariants methods with the
// properties' names. spec/tla/README.md is the contract.
package rewind

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
)

// Rule is the value of the constant Rule: what a refused handshake does.
type Rule string

// The rules.
const (
	AtOnce   Rule = "atonce"   // the session ends at once (impl/zklock)
	Deadline Rule = "deadline" // it retries, believing, until its loss deadline
)

// TokenRule is the value of the constant TokenRule.
type TokenRule string

// The token rules.
const (
	Flag   TokenRule = "flag"   // a token not above an earlier one is said
	Silent TokenRule = "silent" // it is not
)

// MaxClients bounds Clients: State holds the clients in fixed arrays.
const MaxClients = 4

// Constants are the CONSTANTS of Rewind.
type Constants struct {
	// Clients are the model values of Clients in TLC's order (by name);
	// NoOne is the model value of NoOne.
	Clients            []string
	NoOne              string
	Rule               Rule
	TokenRule          TokenRule
	MaxZxid, MaxRewind int
}

// Spec is the state machine with its constants; its Step, Next,
// ActionName and LabelString are its action table's.
type Spec struct {
	Constants
	timing.Actions[State]
}

// New checks the constants (the module's ASSUME) and returns the spec.
func New(k Constants) (*Spec, error) {
	switch {
	case len(k.Clients) == 0 || len(k.Clients) > MaxClients:
		return nil, fmt.Errorf("rewind: %d clients: want 1 to %d", len(k.Clients), MaxClients)
	case k.Rule != AtOnce && k.Rule != Deadline:
		return nil, fmt.Errorf("rewind: Rule = %q: want %q or %q", k.Rule, AtOnce, Deadline)
	case k.TokenRule != Flag && k.TokenRule != Silent:
		return nil, fmt.Errorf("rewind: TokenRule = %q: want %q or %q", k.TokenRule, Flag, Silent)
	case k.MaxZxid < 0 || k.MaxRewind < 0:
		return nil, fmt.Errorf("rewind: a constant is negative: %+v", k)
	}
	for _, c := range k.Clients {
		if c == k.NoOne {
			return nil, fmt.Errorf("rewind: NoOne (%s) is in Clients", c)
		}
	}
	sp := &Spec{Constants: k}
	sp.Actions = sp.actions()
	return sp, nil
}

// State is a state of Rewind; fields in the VARIABLES order. Per-client
// fields are indexed by the client's place in Constants.Clients.
type State struct {
	Zxid     int
	Holder   int   // index of the client, -1 for NoOne
	Known    uint8 // bit i: the ensemble knows client i's session
	Live     [MaxClients]bool
	Believes [MaxClients]bool
	Seen     [MaxClients]int
	Met      [MaxClients]bool
	Token    [MaxClients]int
	High     [MaxClients]int
	Lower    [MaxClients]bool
	Said     [MaxClients]bool
	Top      int
	Dropped  bool
	Rewinds  int
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"zxid", "holder", "known", "live", "believes", "seen", "met", "token", "high",
	"lower", "said", "top", "dropped", "rewinds"}

func (s *State) known(c int) bool { return s.Known&(1<<c) != 0 }

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State { return State{Holder: -1} }

// Action indices (model.Label.Action), in the order of Next's disjuncts.
const (
	ActRewind uint8 = iota
	ActConnect
	ActAcquire
	ActRelease
	ActMeetExpired
	ActMeetOlder
	ActLossDeadline
	numActions
)

func (sp *Spec) actions() timing.Actions[State] {
	clients := func(*State) (int, int) { return 0, len(sp.Clients) - 1 }
	name := func(c int) string { return sp.Clients[c] }
	per := func(n string, f func(s *State, c int, t *State) model.Guard) timing.Action[State] {
		return timing.Action[State]{Name: n, Params: clients, Param: name, Step: f}
	}
	as := [numActions]timing.Action[State]{
		ActRewind: {Name: "Rewind", Params: func(s *State) (int, int) { return 0, s.Zxid - 1 },
			Param: strconv.Itoa, Step: sp.Rewind},
		ActConnect:      per("Connect", sp.Connect),
		ActAcquire:      per("Acquire", sp.Acquire),
		ActRelease:      per("Release", sp.Release),
		ActMeetExpired:  per("MeetExpired", sp.MeetExpired),
		ActMeetOlder:    per("MeetOlder", sp.MeetOlder),
		ActLossDeadline: per("LossDeadline", sp.LossDeadline),
	}
	return as[:]
}

// Rewind: the operator wipes the ensemble (to 0) or restores an older copy
// (to z < zxid): its state and counter go back, its sessions are gone.
func (sp *Spec) Rewind(s *State, z int, t *State) model.Guard {
	switch {
	case s.Rewinds >= sp.MaxRewind:
		return "rewinds < MaxRewinds"
	case s.Zxid <= 0:
		return "zxid > 0"
	case z < 0 || z >= s.Zxid:
		return "z \\in 0..(zxid - 1)"
	}
	*t = *s
	t.Zxid, t.Holder, t.Known, t.Rewinds = z, -1, 0, s.Rewinds+1
	return model.Enabled
}

// Connect: c opens a new session (createSession is a transaction).
func (sp *Spec) Connect(s *State, c int, t *State) model.Guard {
	switch {
	case s.Live[c]:
		return "~live[c]"
	case s.Zxid >= sp.MaxZxid:
		return "zxid < MaxZxid"
	}
	*t = *s
	t.Zxid = s.Zxid + 1
	t.Known |= 1 << c
	t.Live[c], t.Seen[c], t.Met[c] = true, s.Zxid+1, false
	return model.Enabled
}

// Acquire: c creates the absent lock node and is granted, its token the
// node's czxid; a token not above one it handed out before is said or
// not (TokenRule).
func (sp *Spec) Acquire(s *State, c int, t *State) model.Guard {
	switch {
	case !s.Live[c] || !s.known(c):
		return "live[c] /\\ c \\in known"
	case s.Holder != -1:
		return "holder = NoOne"
	case s.Believes[c]:
		return "~believes[c]"
	case s.Zxid >= sp.MaxZxid:
		return "zxid < MaxZxid"
	}
	z := s.Zxid + 1
	*t = *s
	t.Zxid, t.Holder = z, c
	t.Believes[c], t.Seen[c], t.Token[c] = true, z, z
	t.High[c] = max(z, s.High[c])
	t.Lower[c] = z <= s.High[c]
	t.Said[c] = sp.TokenRule == Flag && z <= s.High[c]
	t.Top = max(z, s.Top)
	t.Dropped = s.Dropped || z < s.Top
	return model.Enabled
}

// Release: c deletes its lock node.
func (sp *Spec) Release(s *State, c int, t *State) model.Guard {
	switch {
	case !s.Live[c] || !s.known(c):
		return "live[c] /\\ c \\in known"
	case !s.Believes[c] || s.Holder != c:
		return "believes[c] /\\ holder = c"
	case s.Zxid >= sp.MaxZxid:
		return "zxid < MaxZxid"
	}
	*t = *s
	t.Zxid, t.Holder = s.Zxid+1, -1
	t.Believes[c], t.Seen[c] = false, s.Zxid+1
	return model.Enabled
}

// forgotten is the guard of the Meet actions: c believes its session
// lives, and the ensemble no longer knows it.
func forgotten(s *State, c int) model.Guard {
	if !s.Live[c] || s.known(c) {
		return "live[c] /\\ c \\notin known"
	}
	return model.Enabled
}

// MeetExpired: c's forgotten session reconnects to a history at or past
// what it has seen; the server says it expired, and c ends it.
func (sp *Spec) MeetExpired(s *State, c int, t *State) model.Guard {
	if g := forgotten(s, c); g != model.Enabled {
		return g
	}
	if s.Seen[c] > s.Zxid {
		return "seen[c] <= zxid"
	}
	*t = *s
	t.Live[c], t.Believes[c] = false, false
	return model.Enabled
}

// MeetOlder: c's forgotten session reconnects to an older history and is
// refused: AtOnce ends the session, Deadline keeps believing.
func (sp *Spec) MeetOlder(s *State, c int, t *State) model.Guard {
	if g := forgotten(s, c); g != model.Enabled {
		return g
	}
	switch {
	case s.Seen[c] <= s.Zxid:
		return "seen[c] > zxid"
	case s.Met[c]:
		return "~met[c]"
	}
	*t = *s
	t.Met[c] = true
	if sp.Rule == AtOnce {
		t.Live[c], t.Believes[c] = false, false
	}
	return model.Enabled
}

// LossDeadline: c's loss deadline passes for a forgotten session.
func (sp *Spec) LossDeadline(s *State, c int, t *State) model.Guard {
	if g := forgotten(s, c); g != model.Enabled {
		return g
	}
	*t = *s
	t.Live[c], t.Believes[c] = false, false
	return model.Enabled
}

// TypeOK is the spec's TypeOK.
func (sp *Spec) TypeOK(s *State) bool {
	in := timing.In
	n := len(sp.Clients)
	if !in(s.Zxid, sp.MaxZxid) || s.Holder < -1 || s.Holder >= n || s.Known>>n != 0 ||
		!in(s.Top, sp.MaxZxid) || !in(s.Rewinds, sp.MaxRewind) {
		return false
	}
	for c := 0; c < n; c++ {
		if !in(s.Seen[c], sp.MaxZxid) || !in(s.Token[c], sp.MaxZxid) || !in(s.High[c], sp.MaxZxid) {
			return false
		}
	}
	return true
}

// NodeExclusion: a believer the ensemble knows is the holder.
func (sp *Spec) NodeExclusion(s *State) bool {
	for c := range sp.Clients {
		if s.Believes[c] && s.known(c) && s.Holder != c {
			return false
		}
	}
	return true
}

// BeliefExclusion: two clients believe at once only while one of them is
// a forgotten session that has not yet met the rewound ensemble.
func (sp *Spec) BeliefExclusion(s *State) bool {
	unaware := func(x int) bool { return !s.known(x) && !s.Met[x] }
	for a := range sp.Clients {
		for b := range sp.Clients {
			if a != b && s.Believes[a] && s.Believes[b] && !unaware(a) && !unaware(b) {
				return false
			}
		}
	}
	return true
}

// TokensGrowOrSaid: a token not above an earlier one is said.
func (sp *Spec) TokensGrowOrSaid(s *State) bool {
	for c := range sp.Clients {
		if s.Lower[c] && !s.Said[c] {
			return false
		}
	}
	return true
}

// TokensIncrease is the witness expected to fail: no grant's token was
// below an earlier grant's.
func (sp *Spec) TokensIncrease(s *State) bool { return !s.Dropped }

// AppendEncoding appends the canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = append(v(v(b, int64(s.Zxid)), int64(s.Holder)), s.Known)
	for c := 0; c < MaxClients; c++ {
		b = timing.AppendBool(timing.AppendBool(timing.AppendBool(b, s.Live[c]), s.Believes[c]), s.Met[c])
		b = timing.AppendBool(timing.AppendBool(b, s.Lower[c]), s.Said[c])
		b = v(v(v(b, int64(s.Seen[c])), int64(s.Token[c])), int64(s.High[c]))
	}
	b = timing.AppendBool(v(b, int64(s.Top)), s.Dropped)
	return v(b, int64(s.Rewinds))
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	n := len(sp.Clients)
	boolF := func(x *[MaxClients]bool) tla.Func {
		f := make(tla.Func, n)
		for c := 0; c < n; c++ {
			f[c] = tla.Pair{Key: tla.ModelValue(sp.Clients[c]), Value: tla.Bool(x[c])}
		}
		return f
	}
	intF := func(x *[MaxClients]int) tla.Func {
		f := make(tla.Func, n)
		for c := 0; c < n; c++ {
			f[c] = tla.Pair{Key: tla.ModelValue(sp.Clients[c]), Value: tla.Int(x[c])}
		}
		return f
	}
	holder := tla.ModelValue(sp.NoOne)
	if s.Holder >= 0 {
		holder = tla.ModelValue(sp.Clients[s.Holder])
	}
	known := tla.Set{}
	for c := 0; c < n; c++ {
		if s.known(c) {
			known = append(known, tla.ModelValue(sp.Clients[c]))
		}
	}
	return []tla.Binding{
		{Name: "zxid", Value: tla.Int(s.Zxid)},
		{Name: "holder", Value: holder},
		{Name: "known", Value: known},
		{Name: "live", Value: boolF(&s.Live)},
		{Name: "believes", Value: boolF(&s.Believes)},
		{Name: "seen", Value: intF(&s.Seen)},
		{Name: "met", Value: boolF(&s.Met)},
		{Name: "token", Value: intF(&s.Token)},
		{Name: "high", Value: intF(&s.High)},
		{Name: "lower", Value: boolF(&s.Lower)},
		{Name: "said", Value: boolF(&s.Said)},
		{Name: "top", Value: tla.Int(s.Top)},
		{Name: "dropped", Value: tla.Bool(s.Dropped)},
		{Name: "rewinds", Value: tla.Int(s.Rewinds)},
	}
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }
