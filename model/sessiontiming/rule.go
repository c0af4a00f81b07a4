package sessiontiming

// Ack is one acknowledged request as the client saw it: when it sent the
// request and when the reply arrived, on the client's own clock (any unit,
// as long as every argument of LossDeadline uses the same one).
type Ack struct {
	Sent, Acked int64
}

// LossDeadline is the client's loss rule in code form: the time from which
// the client must no longer believe it holds anything of its session. base
// is the send time of the request that created the session (its creation
// goes through the leader, so the leader's expiry clock started after it);
// acks are the session's acknowledged requests since then, in any order.
//
// With lagged false it is the rule impl/zklock had (SessionTiming's
// "today"): the newest acknowledged send time + timeout - drift. TLC shows
// it unsafe (SessionTiming.TodayRule): a follower cut off from the leader
// keeps answering for up to syncLimit while the leader expires the session.
//
// With lagged true (SessionTiming's "lagged", the rule TLC accepts with lag
// = syncLimit + one tick): let Sn be the newest acknowledged send time; the
// deadline is E + timeout - drift where E is the newest send time of an
// acknowledgement that arrived at or before Sn - lag (base if none). A
// server that answered a request sent at Sn had heard from the leader
// within syncLimit before answering it, so at or after Sn - syncLimit; an
// earlier-answered request's touch went to the leader with the reply to
// that ping, so the leader's expiry clock restarted after that request was
// sent. With lag = syncLimit TLC finds a violation (SessionTiming.LagTooShort):
// a touch recorded in the same tick as that ping, just after it.
func LossDeadline(lagged bool, base int64, acks []Ack, timeout, drift, lag int64) int64 {
	newest := base
	for _, a := range acks {
		newest = max(newest, a.Sent)
	}
	if !lagged {
		return newest + timeout - drift
	}
	e := base
	for _, a := range acks {
		if a.Acked <= newest-lag {
			e = max(e, a.Sent)
		}
	}
	return e + timeout - drift
}
