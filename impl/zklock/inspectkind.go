package zklock

import (
	"context"
	"fmt"
	"time"
)

// Kind is what a path serves as, told from its children's names.
type Kind string

const (
	// KindLock: a Mutex's or an RWMutex's path (or one with no contender
	// of any recipe).
	KindLock Kind = "lock"
	// KindElection: an Election's path (Curator's LeaderLatch's): its
	// candidates' nodes are named "latch-".
	KindElection Kind = "election"
	// KindSemaphore: a Semaphore's path (Curator's
	// InterProcessSemaphoreV2's): its children are the folders "leases"
	// and "locks".
	KindSemaphore Kind = "semaphore"
)

// KindOf tells what a path with these children serves as: an election if
// some child is a candidate ("latch-") and none a lock's contender; else
// a semaphore if a child is named "leases" or "locks" and none is a
// contender; else a lock.
func KindOf(children []string) Kind {
	locks, latches, folders := 0, 0, 0
	for _, n := range children {
		if _, ok := parseNode(n, lockNodes); ok {
			locks++
		}
		if _, ok := parseNode(n, latchNodes); ok {
			latches++
		}
		if "/"+n == semLeases || "/"+n == semLocks {
			folders++
		}
	}
	switch {
	case latches > 0 && locks == 0:
		return KindElection
	case folders > 0 && locks == 0 && latches == 0:
		return KindSemaphore
	}
	return KindLock
}

// InspectKind lists p, after a sync, and tells its kind (KindOf).
func InspectKind(ctx context.Context, s *Session, p string) (Kind, error) {
	l, err := inspected(ctx, s, p)
	if err != nil {
		return "", err
	}
	names, _, err := l.syncList(ctx)
	if err != nil {
		return "", fmt.Errorf("zklock: inspect %s: %w", p, err)
	}
	return KindOf(names), nil
}

// inspected checks Inspect's arguments and returns p's core.
func inspected(ctx context.Context, s *Session, p string) (*lockCore, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil session", ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := validateLockPath(p); err != nil {
		return nil, err
	}
	return &lockCore{s: s, path: s.abs(p), name: p}, nil
}

// ElectionView is an election path as its candidates read it: who leads
// and the candidates in line behind the leader.
type ElectionView struct {
	Path string `json:"path"`
	Zxid int64  `json:"pzxid"` // the last change to the candidates (0: no election path)
	// Leader is the head candidate, nil when nobody leads (or the head
	// left between the listing and the read of its node).
	Leader *LeaderView `json:"leader,omitempty"`
	// Candidates are in line, the leader first; each waits for the one
	// before it (WaitsFor), as its Campaign does.
	Candidates []NodeView `json:"candidates"`
	Other      []string   `json:"strangers"` // children that are not candidates
}

// LeaderView is the leader as LeaderInfo has it.
type LeaderView struct {
	Node  string    `json:"node"`  // its node's name
	Value []byte    `json:"value"` // its Campaign's value, or its last Proclaim's
	Epoch int64     `json:"epoch"` // its node's czxid: its fencing token
	Since time.Time `json:"since"` // its node's ctime (the server's clock)
}

// InspectElection reads p as an Election's candidates read it: a sync, a
// listing, then each candidate's value and stat. It changes nothing.
func InspectElection(ctx context.Context, s *Session, p string) (*ElectionView, error) {
	l, err := inspected(ctx, s, p)
	if err != nil {
		return nil, err
	}
	l.latch = true
	names, pzxid, err := l.syncList(ctx)
	if err != nil {
		return nil, fmt.Errorf("zklock: inspect %s: %w", p, err)
	}
	q := queueOf(names, true)
	v := &ElectionView{Path: p, Zxid: pzxid, Other: others(names, q)}
	var data [][]byte
	if v.Candidates, data, err = l.readQueue(ctx, q); err != nil {
		return nil, fmt.Errorf("zklock: inspect %s: %w", p, err)
	}
	if len(v.Candidates) > 0 && !v.Candidates[0].Gone {
		h := v.Candidates[0]
		v.Leader = &LeaderView{Node: h.Name, Value: data[0], Epoch: h.Token, Since: h.Created}
	}
	return v, nil
}

// SemaphoreView is a semaphore's path as its acquirers read it: the lease
// nodes in P/leases and the acquirers queued on its internal mutex,
// P/locks. Curator stores max nowhere, so the view cannot tell it.
type SemaphoreView struct {
	Path string `json:"path"`
	// Leases are the lease nodes, oldest first: each is held (Holds), but
	// the one of Acquiring.
	Leases     []NodeView `json:"leases"`
	LeasesZxid int64      `json:"leases_pzxid"`
	// Acquiring is the lease node of the acquirer that holds the internal
	// mutex, made after that mutex's node by the same session: it holds
	// once the leases number at most max, and waits for a release until
	// then. "" when no acquirer holds the internal mutex, or it made no
	// lease node yet.
	Acquiring string `json:"acquiring,omitempty"`
	// Acquirers are the internal mutex's nodes in queue order: the head
	// holds it (it is the one acquiring a lease), the others wait for it.
	Acquirers  []NodeView `json:"acquirers"`
	LocksZxid  int64      `json:"locks_pzxid"`
	Other      []string   `json:"strangers"`       // children of P but leases and locks
	LeaseOther []string   `json:"lease_strangers"` // children of P/leases that are not lease nodes: they count against max too
}

// InspectSemaphore reads p as a Semaphore's acquirers read it: a sync,
// the listings of P, P/leases and P/locks, then each node's data and
// stat. It changes nothing.
func InspectSemaphore(ctx context.Context, s *Session, p string) (*SemaphoreView, error) {
	top, err := inspected(ctx, s, p)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*SemaphoreView, error) { return nil, fmt.Errorf("zklock: inspect %s: %w", p, err) }
	names, _, err := top.syncList(ctx)
	if err != nil {
		return fail(err)
	}
	v := &SemaphoreView{Path: p, Other: []string{}}
	for _, n := range names {
		if "/"+n != semLeases && "/"+n != semLocks {
			v.Other = append(v.Other, n)
		}
	}
	locks := &lockCore{s: s, path: s.abs(p + semLocks), name: p + semLocks}
	lnames, lzxid, err := locks.children(ctx, joining)
	if err != nil {
		return fail(err)
	}
	v.LocksZxid = lzxid
	if v.Acquirers, _, err = locks.readQueue(ctx, queue(lnames)); err != nil {
		return fail(err)
	}
	leases := &lockCore{s: s, path: s.abs(p + semLeases), name: p + semLeases}
	enames, ezxid, err := leases.children(ctx, joining)
	if err != nil {
		return fail(err)
	}
	q := leaseQueue(enames)
	v.LeasesZxid, v.LeaseOther = ezxid, others(enames, q)
	if v.Leases, _, err = leases.readQueue(ctx, q); err != nil {
		return fail(err)
	}
	v.markAcquiring()
	return v, nil
}

// markAcquiring finds the lease node of the internal mutex's holder (the
// newest of its session's made after its internal node) and says every
// other lease node holds.
func (v *SemaphoreView) markAcquiring() {
	head := -1
	if len(v.Acquirers) > 0 && !v.Acquirers[0].Gone {
		h := v.Acquirers[0]
		for i, n := range v.Leases {
			if !n.Gone && n.Session == h.Session && n.Token > h.Token {
				head = i
			}
		}
	}
	for i := range v.Leases {
		n := &v.Leases[i]
		n.Holds, n.WaitsFor = !n.Gone && i != head, ""
		if i == head {
			v.Acquiring = n.Name
		}
	}
}
