package faultinject

import (
	"sync"
	"sync/atomic"
)

// Stats counts what a proxy (or a Set) relayed since it was created. A
// frame is counted as it is handed to the socket, so a client that has seen
// a reply sees its request counted.
type Stats struct {
	Accepted     int64 // client connections accepted
	Severed      int64 // connections closed by Sever or a cut
	ClientFrames int64 // frames relayed client to server, connect requests included
	ServerFrames int64 // frames relayed server to client
	// Requests counts client-to-server frames relayed, by opcode; connect
	// requests are counted under OpCreateSession.
	Requests map[Op]int64
	// Notifications counts watch events (xid -1) relayed to the client.
	Notifications int64
	// RepliesCut counts replies discarded by a cut.
	RepliesCut int64
}

func (s *Stats) add(o Stats) {
	s.Accepted += o.Accepted
	s.Severed += o.Severed
	s.ClientFrames += o.ClientFrames
	s.ServerFrames += o.ServerFrames
	s.Notifications += o.Notifications
	s.RepliesCut += o.RepliesCut
	if s.Requests == nil {
		s.Requests = make(map[Op]int64)
	}
	for op, n := range o.Requests {
		s.Requests[op] += n
	}
}

type counters struct {
	accepted, severed, clientFrames, serverFrames, notifications, repliesCut atomic.Int64

	mu       sync.Mutex
	requests map[Op]int64
}

func (c *counters) request(op Op) {
	c.mu.Lock()
	c.requests[op]++
	c.mu.Unlock()
}

// Stats returns a snapshot of the proxy's counters.
func (p *Proxy) Stats() Stats {
	c := &p.stats
	s := Stats{
		Accepted:      c.accepted.Load(),
		Severed:       c.severed.Load(),
		ClientFrames:  c.clientFrames.Load(),
		ServerFrames:  c.serverFrames.Load(),
		Notifications: c.notifications.Load(),
		RepliesCut:    c.repliesCut.Load(),
		Requests:      make(map[Op]int64),
	}
	c.mu.Lock()
	for op, n := range c.requests {
		s.Requests[op] = n
	}
	c.mu.Unlock()
	return s
}
