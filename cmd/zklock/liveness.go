package main

import (
	"github.com/zklock/zklock/impl/zklock"
)

// liveness is which sessions some member of the ensemble lists a
// connection for (cons), and whether every member answered: a session no
// answering member lists is disconnected only if none failed to answer.
type liveness struct {
	ids      map[int64]bool // sessions some member lists (nil: none answered)
	complete bool           // every member answered
	why      string         // why not complete ("" when it is)
}

// of says whether n's session is connected to a server: "no" means the
// client is away, and the server will expire the session (deleting the
// node) unless the client comes back within its timeout; "?" that the
// members that answered do not list it and another did not answer.
func (l liveness) of(n zklock.NodeView) string {
	switch {
	case n.Gone:
		return "-"
	case l.ids[n.Session]:
		return "yes"
	case l.complete:
		return "no"
	}
	return "?"
}

// unknown says why some of nodes' rows are "?" ("" when none is).
func (l liveness) unknown(nodes []zklock.NodeView) string {
	for _, n := range nodes {
		if l.of(n) == "?" {
			return l.why
		}
	}
	return ""
}

// connected maps the node names of every list whose connection is known
// to whether it is connected; unknown says why the others are absent.
func (l liveness) connected(lists ...[]zklock.NodeView) (known map[string]bool, unknown string) {
	known = map[string]bool{}
	for _, nodes := range lists {
		for _, n := range nodes {
			switch l.of(n) {
			case "yes":
				known[n.Name] = true
			case "no":
				known[n.Name] = false
			case "?":
				unknown = l.why
			}
		}
	}
	return known, unknown
}

// connection is the connection status --json adds to each view, which
// the library's views do not have (it comes from the servers' cons).
type connection struct {
	// Connected maps each node's name to whether its session is connected
	// to some member now; absent for a node when that is not known.
	Connected map[string]bool `json:"connected,omitempty"`
	// ConnectedUnknown says why some node is absent from Connected ("" when
	// none is).
	ConnectedUnknown string `json:"connected_unknown,omitempty"`
}

// lockJSON, electionJSON and semaphoreJSON are what --json prints for a
// path of each kind: the library's view, its kind and the connection
// status of its nodes.
type lockJSON struct {
	Kind zklock.Kind `json:"kind"`
	*zklock.LockView
	connection
}

type electionJSON struct {
	Kind zklock.Kind `json:"kind"`
	*zklock.ElectionView
	connection
}

type semaphoreJSON struct {
	Kind zklock.Kind `json:"kind"`
	*zklock.SemaphoreView
	connection
}

func (v pathView) json(l liveness) any {
	var c connection
	switch {
	case v.election != nil:
		c.Connected, c.ConnectedUnknown = l.connected(v.election.Candidates)
		return electionJSON{zklock.KindElection, v.election, c}
	case v.semaphore != nil:
		c.Connected, c.ConnectedUnknown = l.connected(v.semaphore.Leases, v.semaphore.Acquirers)
		return semaphoreJSON{zklock.KindSemaphore, v.semaphore, c}
	}
	c.Connected, c.ConnectedUnknown = l.connected(v.lock.Nodes)
	return lockJSON{zklock.KindLock, v.lock, c}
}
