package sessiontiming

import "github.com/zklock/zklock/model"

// Action indices (model.Label.Action), in the order of Next's disjuncts.
// GrantContender is last: TimedLock takes the others by INSTANCE, in this
// order (its contender runs the lock protocol).
const (
	ActTick uint8 = iota
	ActCutLink
	ActHealLink
	ActSendRequest
	ActReceiveRequest
	ActAckReply
	ActLeaderReceive
	ActExpireSession
	ActGrantContender
	numActions
)

// Tick: the clock advances; at the new tick the leader pings the follower
// if the link is up and the follower still serves (Learner: a packet
// within syncLimit), and the ping's reply carries the follower's touches
// into its stream to the leader (LeaderReceive delivers it).
func (sp *Spec) Tick(s *State, t *State) model.Guard {
	if s.Now >= sp.MaxTime {
		return "now < MaxTime"
	}
	*t = *s
	t.Now = s.Now + 1
	if s.Link && s.Now+1 <= s.Heard+sp.SyncLimit {
		t.Heard = s.Now + 1
		if s.Touched {
			t.Stream = appendStream(s.Stream, PingReply)
		}
		t.Touched = false
	}
	return model.Enabled
}

// CutLink: a fault cuts the follower-leader link, both directions.
func (sp *Spec) CutLink(s *State, t *State) model.Guard {
	switch {
	case !s.Link:
		return "link"
	case s.Faults >= sp.MaxFaults:
		return "faults < MaxFaults"
	}
	*t = *s
	t.Link = false
	t.Faults++
	return model.Enabled
}

// HealLink: the link heals.
func (sp *Spec) HealLink(s *State, t *State) model.Guard {
	if s.Link {
		return "~link"
	}
	*t = *s
	t.Link = true
	return model.Enabled
}

// SendRequest: the holder sends a request of kind k while it believes it
// holds: a ping or a read (Read, answered by the follower) or a sync (Sync,
// which the follower forwards to the leader).
func (sp *Spec) SendRequest(s *State, k Kind, t *State) model.Guard {
	switch {
	case !sp.HBelieves(s):
		return "HBelieves"
	case len(s.Reqs) >= sp.MaxRequests:
		return "Len(reqs) < MaxRequests"
	}
	*t = *s
	t.Reqs = append(append(make([]Req, 0, len(s.Reqs)+1), s.Reqs...), Req{Sent: s.Now, Kind: k, State: Sent})
	return model.Enabled
}

// stateIs are the guards reqs[i].state = st, by st.
var stateIs = [...]model.Guard{`reqs[i].state = "sent"`, `reqs[i].state = "forwarded"`,
	`reqs[i].state = "replied"`, `reqs[i].state = "acked"`}

// reqIn returns request i (1-based, as in the spec) if it is in state st,
// else the false conjunct.
func reqIn(s *State, i int, st ReqState) (Req, model.Guard) {
	switch {
	case i < 1 || i > len(s.Reqs):
		return Req{}, "i <= Len(reqs)"
	case s.Reqs[i-1].State != st:
		return Req{}, stateIs[st]
	}
	return s.Reqs[i-1], model.Enabled
}

// withReq sets t to s with request i (0-based) replaced by r.
func withReq(s *State, i int, r Req, t *State) {
	*t = *s
	t.Reqs = append([]Req(nil), s.Reqs...)
	t.Reqs[i] = r
}

// appendStream returns a new stream: s with e at its end.
func appendStream(s []int, e int) []int {
	return append(append(make([]int, 0, len(s)+1), s...), e)
}

// ReceiveRequest: the follower, while serving, receives request i (1-based
// as in the spec), records a touch of the session, and answers a read or
// forwards a sync on its stream to the leader. (A request reaching the
// follower when it no longer serves stays in flight.)
func (sp *Spec) ReceiveRequest(s *State, i int, t *State) model.Guard {
	r, g := reqIn(s, i, Sent)
	switch {
	case g != model.Enabled:
		return g
	case !sp.Serving(s):
		return "Serving"
	}
	// As the spec: anything but a read is forwarded (a sync, or
	// TimedLock's create, or TimedElection's proclaim).
	r.State = Replied
	if r.Kind != Read {
		r.State = Forwarded
	}
	withReq(s, i-1, r, t)
	if r.Kind != Read {
		t.Stream = appendStream(s.Stream, i)
	}
	t.Touched = true
	return model.Enabled
}

// LeaderReceive: the leader receives the head of the follower's stream
// while the link is up and the follower's connection lives (it serves): a
// ping reply restarts the session's expiry clock; a sync is answered (the
// answer passes through the follower to the holder).
func (sp *Spec) LeaderReceive(s *State, t *State) model.Guard {
	switch {
	case len(s.Stream) == 0:
		return "stream # <<>>"
	case !s.Link:
		return "link"
	case !sp.Serving(s):
		return "Serving"
	}
	if h := s.Stream[0]; h == PingReply {
		*t = *s
		t.LastTouch = s.Now
	} else {
		r := s.Reqs[h-1]
		r.State = Replied
		withReq(s, h-1, r, t)
	}
	t.Stream = s.Stream[1:]
	return model.Enabled
}

// AckReply: the reply to request i arrives while the holder still believes
// it holds (a lost lease stays lost).
func (sp *Spec) AckReply(s *State, i int, t *State) model.Guard {
	r, g := reqIn(s, i, Replied)
	switch {
	case g != model.Enabled:
		return g
	case !sp.HBelieves(s):
		return "HBelieves"
	}
	r.State, r.Acked = Acked, s.Now
	withReq(s, i-1, r, t)
	return model.Enabled
}

// ExpireSession: the leader's session tracker expires the holder's session
// (closeSession deletes its ephemeral lock node).
func (sp *Spec) ExpireSession(s *State, t *State) model.Guard {
	switch {
	case s.Expired:
		return "~expired"
	case s.Now < s.LastTouch+sp.Timeout:
		return "now >= lastTouch + Timeout"
	}
	*t = *s
	t.Expired = true
	return model.Enabled
}

// GrantContender: the contender on the leader sees the node gone and holds.
func (sp *Spec) GrantContender(s *State, t *State) model.Guard {
	switch {
	case !s.Expired:
		return "expired"
	case s.Granted:
		return "~granted"
	}
	*t = *s
	t.Granted = true
	return model.Enabled
}
