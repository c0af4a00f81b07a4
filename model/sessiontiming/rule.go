package sessiontiming

// Ack is one acknowledged request as the client saw it: when it sent the
// request and when the reply arrived, on the client's own clock (any unit,
// as long as every argument of LossDeadline uses the same one), and
// whether it was a sync (which the follower forwards to the leader).
type Ack struct {
	Sent, Acked int64
	Sync        bool
}

// LossDeadline is the client's loss rule in code form: the time from which
// the client must no longer believe it holds anything of its session. base
// is the send time of the request that created the session (its creation
// goes through the leader, so the leader's expiry clock started after it,
// and it counts as a sync); acks are the session's acknowledged requests
// since then, in any order.
//
// Today (the rule impl/zklock had): the newest acknowledged send time +
// timeout - drift. TLC shows it unsafe (SessionTiming.TodayRule): a
// follower cut off from the leader keeps answering for up to syncLimit
// while the leader expires the session.
//
// Lagged: let Sn be the newest acknowledged send time; the deadline is E +
// timeout - drift where E is the newest send time of an acknowledgement
// that arrived at or before Sn - lag (base if none). The follower that
// answered at Sn had sent the touch in its reply to a ping, but that reply
// may never reach the leader: TLC shows it unsafe too, with lag =
// syncLimit + 1 (SessionTiming.LaggedRule).
//
// Synced (the rule impl/zklock's lossClock implements): the same, but Sn
// is the newest send time of an acknowledged sync. The follower forwarded
// the sync on the stream that carried the earlier touch, ahead of it, so
// the leader had restarted its expiry clock when it answered the sync
// (SessionTiming.SyncedRule). With lag = syncLimit TLC finds a violation
// (SessionTiming.LagTooShort): a touch recorded in the same tick as the
// ping, just after it.
func LossDeadline(rule Rule, base int64, acks []Ack, timeout, drift, lag int64) int64 {
	newest := base
	for _, a := range acks {
		if rule != Synced || a.Sync {
			newest = max(newest, a.Sent)
		}
	}
	if rule == Today {
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
