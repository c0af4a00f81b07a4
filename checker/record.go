package checker

import "fmt"

// Kind says what a [Record] describes.
type Kind string

// The record kinds. Acquire, release, lost, write and read are operations; fault and
// leftover are observations the checker uses for annotations and the orphan check.
const (
	KindAcquire  Kind = "acquire"
	KindRelease  Kind = "release"
	KindLost     Kind = "lost"
	KindWrite    Kind = "write"
	KindRead     Kind = "read"
	KindFault    Kind = "fault"
	KindLeftover Kind = "leftover"
	// KindProclaim is a leader's Proclaim of Value under the epoch Token (a
	// candidate's campaign value rides on its acquire record instead), and
	// KindObserve one report an election observer received: the leader's
	// epoch (Token, 0 for a vacancy), Node and Value, at Call (= Return).
	// Both are observations for the election checks (see election.go), not
	// operations of a model.
	KindProclaim Kind = "proclaim"
	KindObserve  Kind = "observe"
)

// Mode is the lock mode of an acquire: an exclusive Mutex, or one side of an RWMutex.
type Mode string

// The lock modes. A lock path is checked with the read/write model as soon as one of
// its acquires has mode read or write, so one path must not mix exclusive with those.
const (
	ModeExclusive Mode = "exclusive"
	ModeRead      Mode = "read"
	ModeWrite     Mode = "write"
)

// Outcome is what the client learned about an operation.
type Outcome string

// The outcomes. OutcomeFailed must mean the operation certainly had no effect (a
// TryLock that found the lock busy, a write the resource rejected); anything the
// client cannot vouch for is OutcomeUnknown.
const (
	OutcomeOK      Outcome = "ok"
	OutcomeFailed  Outcome = "failed"
	OutcomeUnknown Outcome = "unknown"
)

// FaultPause names a fault that freezes client processes (SIGSTOP or similar). It is
// the only fault name the checker interprets: a pause voids what the paused client
// knew about its leases, see the package documentation. Other names ("sever",
// "blackhole", "cut-reply", "kill", ...) are free-form and only annotate the
// visualisation and the report.
const FaultPause = "pause"

// TargetAll as a fault target means the fault affects every client.
const TargetAll = "*"

// A Record is one line of a history: an operation, a fault or a leftover observation.
// Times are nanoseconds on one monotonic clock shared by every recorder of a run (see
// [Clock]). The JSON field names are the history format and do not change.
type Record struct {
	Kind    Kind   `json:"kind"`              // what the record describes
	Client  string `json:"client,omitempty"`  // who acted; one client does one thing at a time
	Session string `json:"session,omitempty"` // ZooKeeper session id, see SessionID
	// Path is the lock path. Register operations carry the path of the lock that
	// guards them, which names their register when Register is empty.
	Path string `json:"path,omitempty"`
	Mode Mode   `json:"mode,omitempty"` // of an acquire
	// Max is, on a semaphore's acquire, how many leases the semaphore lets be
	// held at once; 0 on a lock's. The semaphore checks judge its leases.
	Max int `json:"max,omitempty"`
	// Call and Return bound the operation. For a lost record Call is the last moment
	// the client knew it held the lease (the later of the acquire's return and the
	// call of its last successful guarded write) and Return is when it saw
	// Lease.Done close.
	// For a fault they are its start and end; a leftover observation has Call only.
	// For an unknown outcome Return is when the client gave up; the checker ignores
	// it and treats the operation as returning after everything else.
	Call    int64   `json:"call"`
	Return  int64   `json:"return"`
	Outcome Outcome `json:"outcome,omitempty"` // of an operation; optional on lost
	// Token is the fencing token of the lease (the lock node's czxid): returned by an
	// acquire, named by the release, lost, write and read of that lease.
	Token int64  `json:"token,omitempty"`
	Node  string `json:"node,omitempty"` // the lease's lock node
	// Register names the fenced resource a write or read touches.
	Register string `json:"register,omitempty"`
	// Value is what a write wrote or a read returned ("" is the initial value).
	Value string `json:"value,omitempty"`
	// Fault, Target and Clients describe a fault. Clients lists the clients whose
	// process the fault affects when Target alone does not say (a frozen process
	// that hosts several clients).
	Fault   string   `json:"fault,omitempty"`
	Target  string   `json:"target,omitempty"`
	Clients []string `json:"clients,omitempty"`
	// Nodes lists the lock nodes present under Path at the end of a run; on
	// a wipe fault, the registers kept in the ensemble, which it took back.
	Nodes []string `json:"nodes,omitempty"`
	// Error is the error text the client saw, for the report only.
	Error string `json:"error,omitempty"`
	// Rewound, on an acquire, says the client was told that the lease's
	// token is not above one its process handed out before on the path
	// (zklock's Lease.TokenRewound): the ensemble's history went back.
	Rewound bool `json:"rewound,omitempty"`
}

// MaxTime bounds every time in a history (about 146 years in nanoseconds), which
// leaves the checker room to place unknown outcomes after everything else.
const MaxTime = 1 << 62

// SessionID formats a ZooKeeper session id the way histories carry it.
func SessionID(id int64) string {
	return fmt.Sprintf("0x%x", uint64(id))
}

// isOperation reports whether r is checked for linearizability (and counted as an
// operation) rather than being an observation.
func (r *Record) isOperation() bool {
	switch r.Kind {
	case KindAcquire, KindRelease, KindLost, KindWrite, KindRead:
		return true
	}
	return false
}

// registerKey names the register partition of a write or read.
func (r *Record) registerKey() string {
	if r.Register != "" {
		return r.Register
	}
	return r.Path
}

// end is the last instant a record covers, ignoring unknown returns.
func (r *Record) end() int64 {
	if r.Return > r.Call {
		return r.Return
	}
	return r.Call
}

// affects reports whether fault r hits the given client or session.
func (r *Record) affects(client, session string) bool {
	if r.Target == TargetAll || (r.Target != "" && (r.Target == client || r.Target == session)) {
		return true
	}
	for _, c := range r.Clients {
		if c == client {
			return true
		}
	}
	return false
}

// validate checks the rules of the history format that a single record can break.
// The error wraps ErrInvalid.
func (r *Record) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	if r.Call < 0 || r.Return < 0 {
		return bad("negative time")
	}
	if r.Call > MaxTime || r.Return > MaxTime {
		return bad("time beyond %d ns", MaxTime)
	}
	switch r.Kind {
	case KindAcquire, KindRelease, KindLost, KindWrite, KindRead:
	case KindFault:
		if r.Fault == "" {
			return bad("fault record without a fault name")
		}
		if r.Return != 0 && r.Return < r.Call {
			return bad("fault ends (%d) before it starts (%d)", r.Return, r.Call)
		}
		return nil
	case KindLeftover:
		if r.Path == "" {
			return bad("leftover record without a path")
		}
		return nil
	case KindProclaim, KindObserve:
		return r.validateElection(bad)
	case "":
		return bad("missing kind")
	default:
		return bad("unknown kind %q", r.Kind)
	}

	if r.Client == "" {
		return bad("%s without a client", r.Kind)
	}
	outcome := r.Outcome
	if r.Kind == KindLost && outcome == "" {
		outcome = OutcomeOK
	}
	switch outcome {
	case OutcomeOK, OutcomeFailed, OutcomeUnknown:
	case "":
		return bad("%s without an outcome", r.Kind)
	default:
		return bad("unknown outcome %q", r.Outcome)
	}
	if outcome != OutcomeUnknown && r.Return < r.Call {
		return bad("%s returns (%d) before its call (%d)", r.Kind, r.Return, r.Call)
	}
	if r.Token < 0 {
		return bad("negative token")
	}
	if r.Max < 0 || (r.Max > 0 && (r.Kind != KindAcquire || r.Mode != ModeExclusive)) {
		return bad("max %d on a %s in mode %q: only a semaphore's (exclusive) acquire has one", r.Max, r.Kind, r.Mode)
	}

	switch r.Kind {
	case KindAcquire:
		if r.Path == "" {
			return bad("acquire without a path")
		}
		switch r.Mode {
		case ModeExclusive, ModeRead, ModeWrite:
		case "":
			return bad("acquire without a mode")
		default:
			return bad("unknown mode %q", r.Mode)
		}
		if outcome == OutcomeOK && r.Token == 0 {
			return bad("successful acquire without a token")
		}
	case KindRelease, KindLost:
		if r.Path == "" {
			return bad("%s without a path", r.Kind)
		}
		if r.Token == 0 {
			return bad("%s without the token of its lease", r.Kind)
		}
		if r.Kind == KindLost && outcome != OutcomeOK {
			return bad("lost is an observation; its outcome can only be ok")
		}
	case KindWrite:
		if r.registerKey() == "" {
			return bad("write without a register or path")
		}
		if r.Token == 0 {
			return bad("write without a token")
		}
	case KindRead:
		if r.registerKey() == "" {
			return bad("read without a register or path")
		}
	}
	return nil
}

// validateElection checks a proclaim or an observer's report.
func (r *Record) validateElection(bad func(string, ...any) error) error {
	switch {
	case r.Client == "" || r.Path == "":
		return bad("%s without a client or a path", r.Kind)
	case r.Token < 0:
		return bad("negative token")
	case r.Return < r.Call && r.Outcome != OutcomeUnknown:
		return bad("%s returns (%d) before its call (%d)", r.Kind, r.Return, r.Call)
	case r.Kind == KindObserve && (r.Token == 0) != (r.Node == ""):
		return bad("observe with an epoch but no leader node, or a node but no epoch")
	case r.Kind == KindObserve && r.Session == "":
		return bad("observe without the session of its observation")
	case r.Kind == KindProclaim && r.Token == 0:
		return bad("proclaim without the epoch of its leadership")
	}
	if r.Kind == KindProclaim {
		switch r.Outcome {
		case OutcomeOK, OutcomeFailed, OutcomeUnknown:
		default:
			return bad("proclaim with outcome %q", r.Outcome)
		}
	}
	return nil
}

// outcome returns r.Outcome with the default for lost records filled in.
func (r *Record) outcome() Outcome {
	if r.Kind == KindLost && r.Outcome == "" {
		return OutcomeOK
	}
	return r.Outcome
}
